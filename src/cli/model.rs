//! `run --profile openai` without `--model`: the one model `GET {base}/models` lists
//! becomes the run's (protocol::openai::models decides); a list that does not name
//! exactly one is a usage error naming what it listed. Done once, before the session
//! opens, so the model is part of the run's configuration like any other option.

use crate::config::RunConfig;
use crate::http::{HttpClient, HttpSettings};
use crate::protocol::openai::{self, models::ModelChoice};
use crate::stop::Stop;

/// Fills `config.model` when the run is an openai one without it. `Err` is a usage
/// error (exit 2); no answer leaves it empty for the endpoint probe to report.
pub async fn pick(config: &mut RunConfig, stop: Stop) -> Result<(), String> {
    let door = match config.protocol {
        Some(openai::PROFILE) => &openai::CHAT,
        Some(crate::protocol::openai_responses::PROFILE) => {
            &crate::protocol::openai_responses::RESPONSES
        }
        Some(crate::protocol::anthropic::PROFILE) => &crate::protocol::anthropic::MESSAGES,
        _ => return Ok(()),
    };
    if config.model.is_some() {
        return Ok(());
    }
    let Some(url) = crate::runner::target::shown_url(config) else {
        return Ok(());
    };
    let base = url.as_str().trim_end_matches('/').to_string();
    let api_key_header = config
        .protocol
        .and_then(crate::protocol::by_name)
        .and_then(|p| p.api_key_header());
    let settings = HttpSettings::for_run(config, &base, api_key_header);
    let client = HttpClient::new(settings, config.redactor(), stop)?;
    match openai::models::choose(&client, door).await {
        ModelChoice::One(id) => {
            config.model = Some(id);
            Ok(())
        }
        ModelChoice::NoAnswer(_) => Ok(()),
        ModelChoice::Ambiguous(message) => Err(message),
    }
}
