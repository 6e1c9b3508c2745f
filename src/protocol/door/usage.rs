//! `expect.usage: media-counted`: whether a model server's media parts reach its model,
//! seen without any witness. The same request is sent a second time without its
//! `$media` parts; a model that saw the parts counts them in `usage.prompt_tokens`, so
//! the call carrying them must count more. Equal counts mean the parts never reached
//! the model (a server that drops them and answers 200). No usage in either answer is
//! not a verdict: the case is blocked.

use super::read;
use crate::outcome::{AssertionResult, CaseResult, Exchange};
use crate::protocol::ExpectKey;
use crate::request::body::render_body;
use crate::scenario::model::Expectations;
use serde::Deserialize;
use serde_json::{Value, json};

/// The key, and what it says where another protocol's file has it.
pub static USAGE: ExpectKey = ExpectKey {
    key: "usage",
    about: "compares the prompt tokens a model door's answers count with and without the media",
    check: crate::protocol::description::reads_as::<UsageExpectation>,
};

/// `expect.usage`: a check on `usage.prompt_tokens` that needs a second call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UsageExpectation {
    /// The same request without its media parts is sent too: the call with them must
    /// count more prompt tokens, or the parts never reached the model.
    MediaCounted,
}

/// The case's `expect.usage` (lint has refused a value that is not one).
pub fn of(expect: &Expectations) -> Option<UsageExpectation> {
    expect.protocol_key(USAGE.key).ok().flatten()
}

/// What a `$media` part renders as in the request without media, before it is removed.
const OMITTED: &str = "$mmconform-omitted-media";

/// The body template rendered with every `$media` part left out (the array that held
/// it keeps its other items).
pub fn without_media(
    template: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
) -> Result<Value, String> {
    let rendered = render_body(template, resolve, &|_| Ok(json!({ OMITTED: true })))?;
    Ok(strip(rendered))
}

fn strip(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .filter(|item| item.get(OMITTED).is_none())
                .map(strip)
                .collect(),
        ),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, strip(v))).collect()),
        other => other,
    }
}

/// The prompt's token count of a completion body, when it reports one: Chat's
/// `usage.prompt_tokens`, or `usage.input_tokens` as the Responses and Messages doors
/// name it.
pub fn prompt_tokens(body: &str) -> Option<u64> {
    let value: Value = serde_json::from_str(body).ok()?;
    let usage = value.get("usage")?;
    usage
        .get("prompt_tokens")
        .or_else(|| usage.get("input_tokens"))?
        .as_u64()
}

/// The two counts, judged: an assertion when both are known, else why not.
pub fn judge(with_media: Option<u64>, without: Option<u64>) -> Result<AssertionResult, String> {
    match (with_media, without) {
        (Some(with_media), Some(without)) => Ok(AssertionResult::new(
            "usage.media_counted",
            format!("usage.prompt_tokens above {without} (the same request without its media)"),
            format!("{with_media} with the media, {without} without"),
            with_media > without,
        )),
        (None, _) => Err("the answer reports no usage.prompt_tokens".into()),
        (_, None) => Err(
            "the answer to the same request without its media reports no usage.prompt_tokens"
                .into(),
        ),
    }
}

/// Sends `without` (the case's body rendered [`without_media`]) and judges the two
/// counts onto `result` (whose first exchange is the call with media). The second
/// exchange is kept in the record; an answer that cannot be compared leaves the reason
/// to block on.
pub async fn compare(
    env: &super::case::DoorEnv<'_>,
    without: Result<Value, String>,
    auth: bool,
    purpose: &str,
    result: &mut CaseResult,
) -> Result<(), String> {
    let with_media = result
        .exchanges
        .first()
        .and_then(|e| e.response.as_ref())
        .and_then(|r| prompt_tokens(&r.body));
    if with_media.is_none() {
        return Err(judge(None, None).unwrap_err());
    }
    let body = super::case::with_defaults(super::case::with_model(without?, env.model), env.wire);
    let purpose = format!("{purpose} (without its media, for usage)");
    let answer =
        read::post_completion(env.wire, env.client, &body, auth, env.grace, &purpose).await;
    let without = counted(&answer.exchange);
    result.exchanges.push(answer.exchange);
    result.assertions.push(judge(with_media, without)?);
    Ok(())
}

/// The prompt tokens a 2xx answer reports.
fn counted(exchange: &Exchange) -> Option<u64> {
    let response = exchange.response.as_ref()?;
    (200..300)
        .contains(&response.status)
        .then(|| prompt_tokens(&response.body))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_parts_are_left_out_and_everything_else_kept() {
        let template = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "look {nonce}"},
            {"$media": {"type": "image", "mime": "image/png"}}
        ]}]});
        let resolve = |name: &str| (name == "nonce").then(|| json!("n1"));
        let body = without_media(&template, &resolve).unwrap();
        assert_eq!(
            body,
            json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "look n1"}]}]})
        );
    }

    #[test]
    fn more_tokens_with_the_media_pass_equal_fail_and_no_usage_cannot_judge() {
        assert!(judge(Some(90), Some(5)).unwrap().passed);
        let equal = judge(Some(5), Some(5)).unwrap();
        assert!(!equal.passed);
        assert_eq!(equal.actual, "5 with the media, 5 without");
        assert!(judge(None, Some(5)).is_err());
        assert!(judge(Some(5), None).is_err());
        assert_eq!(
            prompt_tokens(r#"{"usage": {"prompt_tokens": 12}}"#),
            Some(12)
        );
        assert_eq!(prompt_tokens(r#"{"usage": null}"#), None);
        assert_eq!(prompt_tokens("not json"), None);
    }
}
