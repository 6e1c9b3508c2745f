//! How the run reaches and shows its target (userinfo stripped). Shared by `run`, `list`
//! and `calibrate`.

use super::ResolvedTarget;
use crate::config::{Profile, RunConfig, Target};

/// The base URL requests go to and how the target is shown.
pub fn resolve_target(config: &RunConfig) -> ResolvedTarget {
    match &config.target {
        Target::Offline => ResolvedTarget {
            base_url: "http://127.0.0.1:9".into(),
            label: config
                .target_label
                .clone()
                .unwrap_or_else(|| "offline (no target: only offline cases run)".into()),
        },
        Target::Url(url) => {
            // Credentials in the URL are never sent nor shown; resolution put a warning
            // about them in the run's warnings.
            let mut shown = url.clone();
            let _ = shown.set_username("");
            let _ = shown.set_password(None);
            // An AG-UI target is the run endpoint itself, so it is used exactly as given
            // (`/agent/` and `/agent` may be different routes); openwop paths are appended.
            let base_url = match config.profile {
                Profile::Agui(_) => shown.as_str().to_string(),
                Profile::Openwop => shown.as_str().trim_end_matches('/').to_string(),
            };
            ResolvedTarget {
                label: config
                    .target_label
                    .clone()
                    .unwrap_or_else(|| base_url.clone()),
                base_url,
            }
        }
    }
}
