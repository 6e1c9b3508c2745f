//! The reference agent's answer as AG-UI events, SSE-framed with `sse-stream`'s encoder.
//! The three stream faults bend the event sequence here and nowhere else.

use super::model::Verdict;
use super::{AguiFault, ECHO_EVENT_NAME, EchoPart};
use serde_json::{Value, json};

fn describe(parts: &[EchoPart]) -> String {
    let shown: Vec<String> = parts
        .iter()
        .map(|p| match (&p.source, p.bytes) {
            (Some(source), Some(bytes)) => format!("{} ({source}, {bytes} bytes)", p.kind),
            (Some(source), None) => format!("{} ({source})", p.kind),
            _ => p.kind.clone(),
        })
        .collect();
    format!("mmconform reference agent received: {}", shown.join(", "))
}

/// The events of one run, in order, with `fault` applied; `reply` is what an upstream
/// model answered (forwarding mode), streamed after the agent's own description.
pub fn events(
    thread_id: &str,
    run_id: &str,
    verdict: &Verdict,
    fault: Option<AguiFault>,
    reply: Option<&str>,
) -> Vec<Value> {
    let message_id = format!("{run_id}-reply");
    let mut out = Vec::new();
    if fault == Some(AguiFault::FirstEventNotRunStarted) {
        out.push(json!({"type": "STATE_SNAPSHOT", "snapshot": {}}));
    }
    out.push(json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}));
    match verdict {
        Verdict::Completed(parts) => {
            out.push(
                json!({"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"}),
            );
            out.push(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": describe(parts)}));
            // A delta may not be empty (AG-UI 1.0): an empty reply adds nothing.
            if let Some(reply) = reply.filter(|r| !r.is_empty()) {
                out.push(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": reply}));
            }
            out.push(json!({"type": "TEXT_MESSAGE_END", "messageId": message_id}));
            out.push(json!({"type": "CUSTOM", "name": ECHO_EVENT_NAME, "value": {"parts": parts}}));
            out.push(json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id}));
        }
        Verdict::RunError { code, message } => {
            out.push(json!({"type": "RUN_ERROR", "message": message, "code": code}));
        }
        // A crash never reaches the stream (answered 500 before it).
        Verdict::Crash(_) => {}
    }
    match fault {
        Some(AguiFault::NoTerminalEvent) => {
            out.pop();
        }
        Some(AguiFault::EventsAfterFinish) => {
            out.push(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": "one more thing"}));
        }
        _ => {}
    }
    out
}

/// The events as an SSE body: one `data:` frame per event.
pub fn sse_body(events: &[Value]) -> Vec<u8> {
    let mut body = Vec::new();
    for event in events {
        let frame = sse_stream::Sse::default()
            .data(event.to_string())
            .encode()
            .expect("a frame with data only always encodes");
        body.extend_from_slice(&frame);
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(events: &[Value]) -> Vec<&str> {
        events.iter().filter_map(|e| e["type"].as_str()).collect()
    }

    #[test]
    fn faithful_streams_open_with_run_started_and_end_with_one_terminal_event() {
        let done = Verdict::Completed(vec![EchoPart::text()]);
        let completed = events("t", "r", &done, None, None);
        assert_eq!(
            types(&completed),
            [
                "RUN_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "CUSTOM",
                "RUN_FINISHED"
            ]
        );
        assert_eq!(completed[4]["name"], ECHO_EVENT_NAME);
        assert_eq!(completed[4]["value"], json!({"parts": [{"type": "text"}]}));
        let failed = Verdict::RunError {
            code: "x",
            message: "m".into(),
        };
        assert_eq!(
            types(&events("t", "r", &failed, None, None)),
            ["RUN_STARTED", "RUN_ERROR"]
        );
    }

    #[test]
    fn an_upstream_reply_is_one_more_delta() {
        let done = Verdict::Completed(vec![EchoPart::text()]);
        let answered = events("t", "r", &done, None, Some("a cat"));
        assert_eq!(types(&answered).len(), 7);
        assert_eq!(answered[3]["type"], "TEXT_MESSAGE_CONTENT");
        assert_eq!(answered[3]["delta"], "a cat");
        assert_eq!(events("t", "r", &done, None, Some("")).len(), 6);
    }

    #[test]
    fn stream_faults_bend_exactly_the_sequence() {
        let failed = Verdict::RunError {
            code: "x",
            message: "m".into(),
        };
        let cut = events("t", "r", &failed, Some(AguiFault::NoTerminalEvent), None);
        assert_eq!(types(&cut), ["RUN_STARTED"]);
        let after = events("t", "r", &failed, Some(AguiFault::EventsAfterFinish), None);
        assert_eq!(
            types(&after),
            ["RUN_STARTED", "RUN_ERROR", "TEXT_MESSAGE_CONTENT"]
        );
        let first = events(
            "t",
            "r",
            &failed,
            Some(AguiFault::FirstEventNotRunStarted),
            None,
        );
        assert_eq!(
            types(&first),
            ["STATE_SNAPSHOT", "RUN_STARTED", "RUN_ERROR"]
        );
    }

    #[test]
    fn frames_are_data_lines_closed_by_a_blank_line() {
        let body = sse_body(&[json!({"type": "RUN_STARTED"})]);
        assert_eq!(
            String::from_utf8(body).unwrap(),
            "data: {\"type\":\"RUN_STARTED\"}\n\n"
        );
    }
}
