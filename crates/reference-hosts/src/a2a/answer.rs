//! The agent's answers in each version's JSON: a `Task`, a `Message`, the send result
//! that wraps one (1.0: `{task}` or `{message}`, proto `SendMessageResponse`; 0.3: the
//! object itself, tagged by `kind`), and the stream's events (1.0 `StreamResponse`:
//! `{task}`, `{statusUpdate}`, `{artifactUpdate}`, `{message}`; 0.3: `kind`-tagged,
//! the last status update `final: true`).

use super::Version;
use super::tasks::Task;
use serde_json::{Value, json};

fn text_part(version: Version, text: &str) -> Value {
    match version {
        Version::V1 => json!({"text": text}),
        Version::V03 => json!({"kind": "text", "text": text}),
    }
}

fn tagged(version: Version, kind: &str, mut object: Value) -> Value {
    if version == Version::V03 {
        object["kind"] = json!(kind);
    }
    object
}

fn status(version: Version, task: &Task) -> Value {
    let mut status = json!({"state": version.state(task.state)});
    if let Some(why) = &task.failure {
        status["message"] = message(
            version,
            &task.context_id,
            &format!("{}-failure", task.id),
            why,
        );
    }
    status
}

fn artifact(version: Version, task: &Task) -> Option<Value> {
    task.reply.as_ref().map(|reply| {
        json!({
            "artifactId": format!("{}-answer", task.id),
            "name": "answer",
            "parts": [text_part(version, reply)],
        })
    })
}

/// A task object.
pub fn task(version: Version, task: &Task) -> Value {
    let mut object = json!({
        "id": task.id,
        "contextId": task.context_id,
        "status": status(version, task),
    });
    if let Some(artifact) = artifact(version, task) {
        object["artifacts"] = json!([artifact]);
    }
    tagged(version, "task", object)
}

/// An agent message carrying `text`.
pub fn message(version: Version, context_id: &str, message_id: &str, text: &str) -> Value {
    let object = json!({
        "messageId": message_id,
        "contextId": context_id,
        "role": version.agent_role(),
        "parts": [text_part(version, text)],
    });
    tagged(version, "message", object)
}

/// What a send (or the first stream event) answers: a task or a message, wrapped as
/// the version wants.
pub fn wrapped(version: Version, key: &str, object: Value) -> Value {
    match version {
        Version::V1 => json!({ key: object }),
        Version::V03 => object,
    }
}

/// A status update event (0.3: `final` on the last one).
pub fn status_update(version: Version, task: &Task, last: bool) -> Value {
    let mut event = json!({
        "taskId": task.id,
        "contextId": task.context_id,
        "status": status(version, task),
    });
    if version == Version::V03 {
        event["final"] = json!(last);
    }
    wrapped(
        version,
        "statusUpdate",
        tagged(version, "status-update", event),
    )
}

/// The artifact update carrying the reply, when there is one.
pub fn artifact_update(version: Version, task: &Task) -> Option<Value> {
    let artifact = artifact(version, task)?;
    let event = json!({
        "taskId": task.id,
        "contextId": task.context_id,
        "artifact": artifact,
        "lastChunk": true,
    });
    Some(wrapped(
        version,
        "artifactUpdate",
        tagged(version, "artifact-update", event),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done() -> Task {
        Task {
            id: "task-1".into(),
            context_id: "c".into(),
            state: "completed",
            reply: Some("hi".into()),
            failure: None,
        }
    }

    #[test]
    fn tasks_are_spelled_per_version() {
        let v1 = wrapped(Version::V1, "task", task(Version::V1, &done()));
        assert_eq!(v1["task"]["status"]["state"], "TASK_STATE_COMPLETED");
        assert_eq!(
            v1["task"]["artifacts"][0]["parts"][0],
            json!({"text": "hi"})
        );
        let v03 = wrapped(Version::V03, "task", task(Version::V03, &done()));
        assert_eq!(v03["kind"], "task");
        assert_eq!(v03["status"]["state"], "completed");
        assert_eq!(v03["artifacts"][0]["parts"][0]["kind"], "text");
        let update = status_update(Version::V03, &done(), true);
        assert_eq!(
            (update["kind"].as_str(), update["final"].as_bool()),
            (Some("status-update"), Some(true))
        );
        assert!(status_update(Version::V1, &done(), true)["statusUpdate"]["status"].is_object());
        let reply = message(Version::V1, "c", "m", "x");
        assert_eq!(reply["role"], "ROLE_AGENT");
    }
}
