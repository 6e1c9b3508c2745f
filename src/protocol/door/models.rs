//! Which model a run names when `--model` is absent: the one `GET {base}/models` lists,
//! when it lists exactly one. Anything else is the user's to decide (a usage error
//! naming what was listed), except no answer at all, which the endpoint probe reports
//! as an unreachable target.

use crate::http::{HttpClient, HttpRequest};
use crate::protocol::options::Origin;
use serde_json::Value;

/// Most model ids named in a usage error.
const MAX_NAMED: usize = 20;

/// What `GET {base}/models` said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelChoice {
    /// Exactly one model listed.
    One(String),
    /// No answer: the probe will find the endpoint unusable too.
    NoAnswer(String),
    /// An answer that does not pick one model: the usage error to show.
    Ambiguous(String),
}

/// The ids in a `{object: list, data: [{id}]}` body; `None` when it is not one.
pub fn listed_ids(body: &[u8]) -> Option<Vec<String>> {
    let value = mmconform_json::bounded::parse(body).ok()?;
    let data = value.get("data")?.as_array()?;
    Some(
        data.iter()
            .filter_map(|m| m.get("id").and_then(Value::as_str))
            .map(str::to_string)
            .collect(),
    )
}

/// Fills the run's model when no option names one: the one model `{base}/models`
/// lists. `Err` is a usage error (exit 2); no answer leaves it empty for the endpoint
/// probe to report.
pub fn prepare<'a>(
    door: &'static super::wire::Wire,
    config: &'a mut crate::config::RunConfig,
    client: &'a crate::protocol::ClientMaker,
) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
    Box::pin(async move {
        let url_target = matches!(config.target, crate::config::Target::Url(_));
        if super::model(&config.options).is_some() || !url_target {
            return Ok(());
        }
        match choose(&client()?, door, &config.token_env).await {
            ModelChoice::One(id) => {
                config.options.set(super::MODEL, id, Origin::Target);
                Ok(())
            }
            ModelChoice::NoAnswer(_) => Ok(()),
            ModelChoice::Ambiguous(message) => Err(message),
        }
    })
}

/// Asks `{base}/models` and decides.
/// `token_env` is the variable the run reads its token from, named when the list is
/// behind authentication.
pub async fn choose(client: &HttpClient, door: &super::wire::Wire, token_env: &str) -> ModelChoice {
    let request = HttpRequest {
        purpose: "list the models (no --model given)".into(),
        method: reqwest::Method::GET,
        path: "/models".into(),
        headers: std::iter::once(("Accept", "application/json"))
            .chain(door.headers.iter().copied())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: None,
        auth: true,
    };
    let url = client.url("/models");
    let (_exchange, answer) = client.send(&request).await;
    let response = match answer {
        Ok(r) => r,
        Err(e) => return ModelChoice::NoAnswer(format!("GET {url}: {e}")),
    };
    let pass = "pass --model NAME";
    if matches!(response.status, 401 | 403) {
        // The list is there, behind the door: the fix is the token, not the model.
        return ModelChoice::Ambiguous(format!(
            "no --model given and GET {url} answered {} (authentication): the server wants a \
             token; set it ({token_env}, --token-env or --token-file), or {pass}",
            response.status
        ));
    }
    if matches!(response.status, 404 | 405) {
        // No list at {base}/models: the base is more likely wrong than the model missing.
        if let Some(hint) = super::probe_hint::for_wrong_base(door, client).await {
            return ModelChoice::Ambiguous(format!(
                "no --model given and GET {url} answered {}: {hint}",
                response.status
            ));
        }
    }
    if !(200..300).contains(&response.status) {
        return ModelChoice::Ambiguous(format!(
            "no --model given and GET {url} answered {}: {pass}",
            response.status
        ));
    }
    match listed_ids(&response.body) {
        Some(ids) if ids.len() == 1 => ModelChoice::One(ids[0].clone()),
        Some(ids) if ids.is_empty() => ModelChoice::Ambiguous(format!(
            "no --model given and GET {url} lists no model: {pass}"
        )),
        Some(ids) => {
            let shown: Vec<&str> = ids.iter().take(MAX_NAMED).map(String::as_str).collect();
            let more = ids.len().saturating_sub(MAX_NAMED);
            let tail = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            ModelChoice::Ambiguous(format!(
                "no --model given and GET {url} lists {} models: {}{tail}; {pass}",
                ids.len(),
                shown.join(", ")
            ))
        }
        None => ModelChoice::Ambiguous(format!(
            "no --model given and GET {url} is not a model list ({{object: list, data: [{{id}}]}}): {pass}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_lists_are_read_leniently_and_bounded() {
        let body = br#"{"object":"list","data":[{"id":"a","object":"model"},{"id":"b"},{"x":1}]}"#;
        assert_eq!(listed_ids(body).unwrap(), ["a", "b"]);
        assert!(listed_ids(b"[]").is_none());
        assert!(listed_ids(b"not json").is_none());
    }
}
