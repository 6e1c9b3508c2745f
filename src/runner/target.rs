//! The URL a run reaches and shows: the target with any userinfo removed (credentials in
//! the URL are never sent nor shown; resolution put a warning about them in the run's
//! warnings). Which base URL requests go to is the protocol's call
//! (`ProtocolRun::base_url`). Shared by `run`, `list` and `calibrate`.

use crate::config::{RunConfig, Target};

/// The target URL without userinfo; `None` for an offline run or a command.
pub fn shown_url(config: &RunConfig) -> Option<url::Url> {
    match &config.target {
        Target::Offline | Target::Command(_) => None,
        Target::Url(url) => {
            let mut shown = url.clone();
            let _ = shown.set_username("");
            let _ = shown.set_password(None);
            Some(shown)
        }
    }
}
