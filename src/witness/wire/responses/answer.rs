//! What the witness answers on the Responses wire: a completed `response` object whose
//! one output message says what was seen, or that object streamed as the SSE
//! `response.*` events a client waits for (ending with `response.completed`, so a client
//! waiting for it does not hang). Errors use the OpenAI envelope (`answer::error`).

use crate::wire::responses::{EVENTS, part};
use crate::witness::tools::{ToolCallMade, Way};
use serde_json::{Value, json};

/// A completed `response` whose one output item calls the tool (or its search, or
/// code mode).
pub fn tool_call(seq: u64, model: &str, call: &ToolCallMade) -> Value {
    let mut out = response(seq, model, "", true);
    out["output"] = json!([call_item(seq, call, true)]);
    out
}

/// The output item, by the way the call reaches the tool: a `function_call` (naming
/// its `namespace` when the tool was declared in one), a `tool_search_call` run by the
/// client, or a `custom_tool_call` whose input is code. In progress, an item has empty
/// arguments (or input); done, the whole of them.
fn call_item(seq: u64, call: &ToolCallMade, done: bool) -> Value {
    let status = if done { "completed" } else { "in_progress" };
    let input = if done { payload(call) } else { String::new() };
    let mut item = match &call.way {
        Way::Direct => {
            let mut item = json!({"type": "function_call", "id": format!("fc_mmconform_{seq}"),
                "call_id": call.id, "name": call.name, "arguments": input});
            if let Some(namespace) = &call.namespace {
                item["namespace"] = json!(namespace);
            }
            item
        }
        Way::Search { .. } => {
            json!({"type": "tool_search_call", "id": format!("ts_mmconform_{seq}"),
            "call_id": call.id, "execution": "client",
            "arguments": if done { call.search_arguments() } else { json!({}) }})
        }
        Way::CodeMode { .. } => json!({"type": "custom_tool_call",
            "id": format!("ctc_mmconform_{seq}"), "call_id": call.id, "name": call.name,
            "input": input}),
    };
    item["status"] = json!(status);
    item
}

/// What the call's deltas carry: a function call's arguments, code mode's code (a
/// search has none: its arguments arrive with the item).
fn payload(call: &ToolCallMade) -> String {
    match &call.way {
        Way::Direct => call.arguments().to_string(),
        Way::Search { .. } => String::new(),
        Way::CodeMode { .. } => call.code().unwrap_or_default(),
    }
}

/// The same call streamed: the item added (empty arguments), the arguments in one delta
/// and their done (`function_call_arguments` or `custom_tool_call_input`; none for a
/// search), the item done, and `response.completed` repeating it.
pub fn tool_call_events(seq: u64, model: &str, call: &ToolCallMade) -> Vec<(&'static str, Value)> {
    let input = payload(call);
    let item_id = call_item(seq, call, false)["id"].clone();
    let mut pending = response(seq, model, "", false);
    pending["output"] = json!([]);
    let mut data = vec![
        ("response.created", json!({"response": pending.clone()})),
        ("response.in_progress", json!({"response": pending})),
        (
            "response.output_item.added",
            json!({"output_index": 0, "item": call_item(seq, call, false)}),
        ),
    ];
    let (delta, done, field) = match call.way {
        Way::Direct => (
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "arguments",
        ),
        Way::CodeMode { .. } => (
            "response.custom_tool_call_input.delta",
            "response.custom_tool_call_input.done",
            "input",
        ),
        Way::Search { .. } => ("", "", ""),
    };
    if !delta.is_empty() {
        data.push((
            delta,
            json!({"item_id": item_id, "output_index": 0, "delta": input}),
        ));
        let mut last = json!({"item_id": item_id, "output_index": 0});
        last[field] = json!(input);
        data.push((done, last));
    }
    data.push((
        "response.output_item.done",
        json!({"output_index": 0, "item": call_item(seq, call, true)}),
    ));
    data.push((
        crate::wire::responses::COMPLETED,
        json!({"response": tool_call(seq, model, call)}),
    ));
    data.into_iter()
        .enumerate()
        .map(|(n, (name, mut data))| {
            data["type"] = json!(name);
            data["sequence_number"] = json!(n);
            (name, data)
        })
        .collect()
}

/// The `response` object, `completed` with `text` as its one output message, or
/// `in_progress` with no output yet (the first stream events carry that).
pub fn response(seq: u64, model: &str, text: &str, completed: bool) -> Value {
    let words = text.split_whitespace().count();
    let output = if completed {
        json!([message(seq, text, true)])
    } else {
        json!([])
    };
    json!({
        "id": format!("resp_mmconform_{seq}"),
        "object": "response",
        "created_at": crate::witness::answer::unix_now(),
        "status": if completed { "completed" } else { "in_progress" },
        "error": null,
        "incomplete_details": null,
        "instructions": null,
        "max_output_tokens": null,
        "model": model,
        "output": output,
        "parallel_tool_calls": true,
        "previous_response_id": null,
        "reasoning": {"effort": null, "summary": null},
        "store": false,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": if completed { json!({
            "input_tokens": 0,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": words,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": words,
        }) } else { Value::Null },
        "metadata": {},
    })
}

fn item_id(seq: u64) -> String {
    format!("msg_mmconform_{seq}")
}

/// The output message; `done` with its text, or in progress and empty.
fn message(seq: u64, text: &str, done: bool) -> Value {
    let content = if done {
        json!([output_text(text)])
    } else {
        json!([])
    };
    json!({
        "type": "message",
        "id": item_id(seq),
        "status": if done { "completed" } else { "in_progress" },
        "role": "assistant",
        "content": content,
    })
}

fn output_text(text: &str) -> Value {
    json!({"type": part::OUTPUT_TEXT, "text": text, "annotations": [], "logprobs": []})
}

/// The stream's events as `(name, data)`, each data with its `type` and
/// `sequence_number`.
pub fn events(seq: u64, model: &str, text: &str) -> Vec<(&'static str, Value)> {
    let id = item_id(seq);
    let part = |index: &str, extra: Value| {
        let mut event = json!({"item_id": id, "output_index": 0, "content_index": 0});
        event[index] = extra;
        event
    };
    let data = [
        json!({"response": response(seq, model, text, false)}),
        json!({"response": response(seq, model, text, false)}),
        json!({"output_index": 0, "item": message(seq, "", false)}),
        part("part", output_text("")),
        part("delta", json!(text)),
        part("text", json!(text)),
        part("part", output_text(text)),
        json!({"output_index": 0, "item": message(seq, text, true)}),
        json!({"response": response(seq, model, text, true)}),
    ];
    EVENTS
        .iter()
        .zip(data)
        .enumerate()
        .map(|(n, (name, mut data))| {
            data["type"] = json!(name);
            data["sequence_number"] = json!(n);
            if *name == "response.output_text.delta" || *name == "response.output_text.done" {
                data["logprobs"] = json!([]);
            }
            (*name, data)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_is_one_function_call_item_json_or_streamed() {
        let call = ToolCallMade::direct("call_mmconform_5", "mmconform_tool_media", "c", "png");
        let whole = tool_call(5, "gpt", &call);
        assert_eq!(whole["status"], "completed");
        assert_eq!(whole["output"][0]["type"], "function_call");
        assert_eq!(whole["output"][0]["call_id"], "call_mmconform_5");
        let events = tool_call_events(5, "gpt", &call);
        let names: Vec<&str> = events.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.first(), Some(&"response.created"));
        assert_eq!(names.last(), Some(&"response.completed"));
        assert_eq!(events[2].1["item"]["arguments"], "");
        let args: Value = serde_json::from_str(events[3].1["delta"].as_str().unwrap()).unwrap();
        assert_eq!(args, json!({"case": "c", "medium": "png"}));
        assert_eq!(
            events[6].1["response"]["output"][0]["name"],
            "mmconform_tool_media"
        );
    }

    fn names(events: &[(&'static str, Value)]) -> Vec<&'static str> {
        events.iter().map(|(n, _)| *n).collect()
    }

    #[test]
    fn a_namespaced_call_names_its_namespace() {
        let mut call = ToolCallMade::direct("call_mmconform_2", "mmconform_tool_media", "c", "png");
        call.namespace = Some("mcp__mmconform".into());
        let item = &tool_call(2, "gpt", &call)["output"][0];
        assert_eq!(item["namespace"], "mcp__mmconform");
        assert_eq!(item["name"], "mmconform_tool_media");
    }

    #[test]
    fn a_search_is_a_client_tool_search_call_whose_arguments_come_with_the_item() {
        let mut call = ToolCallMade::direct("call_mmconform_1", "tool_search", "c", "png");
        call.way = Way::Search {
            tool: "mmconform_tool_media".into(),
        };
        let item = &tool_call(1, "gpt", &call)["output"][0];
        assert_eq!(item["type"], "tool_search_call");
        assert_eq!(item["execution"], "client");
        assert_eq!(item["call_id"], "call_mmconform_1");
        assert_eq!(item["arguments"]["query"], "mmconform_tool_media");
        let events = tool_call_events(1, "gpt", &call);
        assert_eq!(
            names(&events),
            [
                "response.created",
                "response.in_progress",
                "response.output_item.added",
                "response.output_item.done",
                "response.completed"
            ]
        );
        assert_eq!(events[3].1["item"], *item);
    }

    #[test]
    fn code_mode_is_a_custom_call_whose_input_is_code_calling_the_tool() {
        let mut call = ToolCallMade::direct("call_mmconform_3", "exec", "c", "wav");
        call.way = Way::CodeMode {
            tool: "mcp__mmconform__mmconform_tool_media".into(),
        };
        let item = &tool_call(3, "gpt", &call)["output"][0];
        assert_eq!(item["type"], "custom_tool_call");
        assert_eq!(item["name"], "exec");
        let code = item["input"].as_str().unwrap();
        assert!(
            code.contains(r#""mcp__mmconform__mmconform_tool_media""#),
            "{code}"
        );
        assert!(code.contains("image(block)"), "{code}");
        assert!(code.contains(r#""medium":"wav""#), "{code}");
        let events = tool_call_events(3, "gpt", &call);
        assert_eq!(
            names(&events)[3..5],
            [
                "response.custom_tool_call_input.delta",
                "response.custom_tool_call_input.done"
            ]
        );
        assert_eq!(events[2].1["item"]["input"], "");
        assert_eq!(events[3].1["delta"], code);
        assert_eq!(events[4].1["input"], code);
        assert_eq!(events[5].1["item"], *item);
    }

    #[test]
    fn the_stream_runs_from_created_to_completed_with_the_text_once() {
        let events = events(3, "m", "saw it");
        let names: Vec<&str> = events.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.first(), Some(&"response.created"));
        assert_eq!(names.last(), Some(&"response.completed"));
        for (n, (name, data)) in events.iter().enumerate() {
            assert_eq!(data["type"], *name);
            assert_eq!(data["sequence_number"], n);
        }
        let deltas: String = events
            .iter()
            .filter(|(n, _)| *n == "response.output_text.delta")
            .map(|(_, d)| d["delta"].as_str().unwrap())
            .collect();
        assert_eq!(deltas, "saw it");
        let done = &events.last().unwrap().1["response"];
        assert_eq!(done["status"], "completed");
        assert_eq!(done["output"][0]["content"][0]["text"], "saw it");
        assert_eq!(done["usage"]["output_tokens"], 2);
        assert_eq!(events[0].1["response"]["status"], "in_progress");
    }
}
