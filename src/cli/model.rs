//! What a protocol settles before the session opens, from the target itself (the model
//! doors without `--model`: the one model `GET {base}/models` lists, as
//! `Protocol::prepare` says), so it is part of the run's configuration like any other
//! option.

use crate::config::RunConfig;
use crate::http::{HttpClient, HttpSettings};
use crate::protocol::Protocol;
use crate::stop::Stop;

/// Lets `protocol` settle what it needs from the target. `Err` is a usage error (exit 2).
pub async fn prepare(
    protocol: &dyn Protocol,
    config: &mut RunConfig,
    stop: Stop,
) -> Result<(), String> {
    let snapshot = config.clone();
    let header = protocol.api_key_header();
    let client = move || {
        let url = crate::runner::target::shown_url(&snapshot)
            .ok_or_else(|| "the target has no URL".to_string())?;
        let base = url.as_str().trim_end_matches('/').to_string();
        let settings = HttpSettings::for_run(&snapshot, &base, header);
        HttpClient::new(settings, snapshot.redactor(), stop.clone())
    };
    protocol.prepare(config, &client).await
}
