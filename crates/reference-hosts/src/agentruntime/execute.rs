//! One `execute`: a first event (the run is under way), a moment of thought, one model
//! call with the prompt and the accepted attachments in one user turn, the reply as a
//! `text` event, the media it sends back (when it declares them), and exactly one
//! `done`. SIGTERM meanwhile ends the run with an `ABORTED` error and
//! `done {aborted: true}`.

use super::attach::{self, Attached};
use super::outbound;
use super::{RuntimeConfig, RuntimeFault};
use crate::forward_transform::Transformation;
use crate::openai_wire::{Distortion, WireContent, WireMessage, WirePart};
use crate::upstream::Upstream;
use serde_json::{Value, json};
use std::future::Future;
use std::time::Instant;

type Print<'a> = &'a mut (dyn FnMut(String) + Send);

/// How a run's work ended before its `done`.
enum Worked {
    Replied(String),
    /// An error event's message and code.
    Failed(String, &'static str),
    /// The bridge crashes: exit 1, no `done`.
    Crashed,
}

pub async fn execute(
    config: &RuntimeConfig,
    params: &Value,
    print: Print<'_>,
    aborted: impl Future<Output = ()> + Send,
) -> i32 {
    let started = Instant::now();
    let session = params
        .get("sessionId")
        .and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_else(|| format!("reference-{}", std::process::id()));
    if config.faulted(RuntimeFault::NonJsonLine) {
        print("reference runtime: thinking".into());
    }
    print(json!({"type": "thinking", "text": "reading the request"}).to_string());
    let work = work(config, params);
    let worked = if config.faulted(RuntimeFault::IgnoresAbort) {
        // SIGTERM is caught by the process and never looked at.
        work.await
    } else {
        tokio::select! {
            worked = work => worked,
            _ = aborted => {
                if config.faulted(RuntimeFault::HangsOnAbort) {
                    std::future::pending::<()>().await;
                }
                print(json!({"type": "error", "message": "aborted by SIGTERM", "code": "ABORTED"}).to_string());
                print(done(config, "", &session, started, true).to_string());
                return 0;
            }
        }
    };
    let text = match worked {
        Worked::Crashed => {
            eprintln!("reference runtime: cannot handle audio (crashes-on-audio)");
            return 1;
        }
        Worked::Failed(message, code) => {
            print(json!({"type": "error", "message": message, "code": code}).to_string());
            String::new()
        }
        Worked::Replied(text) => {
            print(json!({"type": "text", "text": text}).to_string());
            text
        }
    };
    finish(config, &text, &session, started, print)
}

/// Everything after the reply: outbound media, error events, `done`, the exit code.
fn finish(
    config: &RuntimeConfig,
    text: &str,
    session: &str,
    started: Instant,
    print: Print<'_>,
) -> i32 {
    let media = outbound::items(config, session);
    for item in &media {
        print(json!({"type": "media", "media": item}).to_string());
    }
    if config.faulted(RuntimeFault::ErrorWithoutMessage) {
        print(json!({"type": "error", "code": "CLI_STDERR"}).to_string());
    }
    if config.faulted(RuntimeFault::NoDone) {
        return 0;
    }
    let mut done = done(config, text, session, started, false);
    if let Some(list) = outbound::in_result(config, &media) {
        done["result"]["media"] = list;
    }
    let done = done.to_string();
    print(done.clone());
    if config.faulted(RuntimeFault::TwoDones) {
        print(done);
    }
    if config.faulted(RuntimeFault::LineAfterDone) {
        print(json!({"type": "text", "text": "one more thing"}).to_string());
    }
    if config.faulted(RuntimeFault::ExitsOneAfterDone) {
        return 1;
    }
    0
}

fn done(
    config: &RuntimeConfig,
    text: &str,
    session: &str,
    started: Instant,
    aborted: bool,
) -> Value {
    let mut result = json!({
        "text": text,
        "sessionId": session,
        "durationMs": started.elapsed().as_millis() as u64,
        "usage": {},
        "aborted": aborted,
    });
    if config.faulted(RuntimeFault::ResultMissingFields)
        && let Some(map) = result.as_object_mut()
    {
        map.remove("sessionId");
        map.remove("durationMs");
    }
    json!({"type": "done", "result": result})
}

async fn work(config: &RuntimeConfig, params: &Value) -> Worked {
    tokio::time::sleep(config.think).await;
    let prompt = params.get("prompt").and_then(Value::as_str).unwrap_or("");
    let attached = attach::attachments(config, params);
    if attached.audio && config.faulted(RuntimeFault::CrashesOnAudio) {
        return Worked::Crashed;
    }
    if let Some(first) = attached.undeclared.first()
        && config.faulted(RuntimeFault::ErrorsOnUndeclared)
    {
        return Worked::Failed(
            format!("unsupported media type {first}"),
            "UNSUPPORTED_MEDIA",
        );
    }
    if !attached.unreadable.is_empty() {
        let why = attached.unreadable.join("; ");
        return Worked::Failed(
            format!("cannot read an attachment: {why}"),
            "ATTACHMENT_UNREADABLE",
        );
    }
    if config.faulted(RuntimeFault::SkipsModel) {
        return Worked::Replied("done (no model was asked)".into());
    }
    let Some(model) = &config.model else {
        return Worked::Replied(
            "reference runtime: no model configured (MMCONFORM_WITNESS_URL is unset)".into(),
        );
    };
    let (messages, distortion) = user_turn(config, prompt, attached);
    match Upstream::new(model).complete(&messages, distortion).await {
        Ok(reply) => Worked::Replied(reply.text),
        Err(e) => Worked::Failed(e.0, "MODEL_ERROR"),
    }
}

/// The one user turn: the prompt, then every attachment, and how a fault distorts it.
fn user_turn(
    config: &RuntimeConfig,
    prompt: &str,
    attached: Attached,
) -> (Vec<WireMessage>, Option<Distortion>) {
    let mut parts = Vec::new();
    if attached.media.is_empty() || !config.faulted(RuntimeFault::SwallowsPrompt) {
        parts.push(WirePart::Text(prompt.to_string()));
    }
    parts.extend(attached.media.into_iter().map(WirePart::Media));
    let distortion = config
        .faulted(RuntimeFault::PdfAsImage)
        .then_some(Distortion::DocumentAsImage);
    let message = WireMessage {
        role: "user".into(),
        content: WireContent::Parts(parts),
    };
    let transformation = if config.faulted(RuntimeFault::ReencodesImages) {
        Some(Transformation::ReencodesImages)
    } else if config.faulted(RuntimeFault::ImagePlaceholder) {
        Some(Transformation::ImagePlaceholder)
    } else {
        None
    };
    (
        crate::forward_transform::apply(vec![message], transformation),
        distortion,
    )
}
