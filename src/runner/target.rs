//! Reaching the target: starting the embedded reference host when asked for, and how
//! the target is shown (userinfo stripped). Shared by `run`, `list` and `calibrate`.

use super::ResolvedTarget;
use crate::config::{Profile, RunConfig, Target};
use crate::reference::{self, RunningReference};

/// Starts the embedded host when asked for, and says how to reach and show the target.
/// `Err` is a tool problem (the embedded host could not bind), never a verdict.
pub async fn start_target(
    config: &RunConfig,
) -> Result<(Option<RunningReference>, ResolvedTarget), String> {
    match &config.target {
        Target::Reference(reference_config) => {
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            let running = reference::spawn(reference_config.clone(), addr)
                .await
                .map_err(|e| format!("cannot start the reference host: {e}"))?;
            let base_url = running.base_url();
            let label = format!("reference ({base_url})");
            Ok((Some(running), ResolvedTarget { base_url, label }))
        }
        Target::AguiReference(agent_config) => {
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            let running = reference::agui::spawn(agent_config.clone(), addr)
                .await
                .map_err(|e| format!("cannot start the AG-UI reference agent: {e}"))?;
            let base_url = reference::agui::endpoint_url(&running);
            let label = format!("reference agent ({base_url})");
            Ok((Some(running), ResolvedTarget { base_url, label }))
        }
        Target::Offline => Ok((
            None,
            ResolvedTarget {
                base_url: "http://127.0.0.1:9".into(),
                label: "offline (no target: only offline cases run)".into(),
            },
        )),
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
            Ok((
                None,
                ResolvedTarget {
                    label: base_url.clone(),
                    base_url,
                },
            ))
        }
    }
}

/// Prepares the embedded host to match the run: it requires the configured token (so
/// the auth case can run), and offers its own mediaRefs (so the mediaRef positives run
/// without flags). Other targets are left as they are.
pub fn align_reference(mut config: RunConfig) -> RunConfig {
    let token = config.token.as_ref().map(|t| t.value.clone());
    if let Target::Reference(rc) = &mut config.target {
        rc.token = token;
        for m in &rc.modalities {
            if let Some(r) = reference::known_media_ref(m) {
                config
                    .media_refs
                    .entry(m.clone())
                    .or_insert_with(|| r.to_string());
            }
        }
    }
    config
}
