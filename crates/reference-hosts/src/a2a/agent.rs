//! The operations, whatever the binding: a send (§3.1.1) answered with a task or a
//! message, a streamed send's events (§3.1.2), GetTask (§3.1.3). The bindings
//! (`jsonrpc.rs`, `rest.rs`) read the request and spell the answer.

use super::answer;
use super::error::{A2aError, ErrorKind};
use super::model::{self, Turn};
use super::parts::{self, Message};
use super::tasks::{Task, Tasks};
use super::{A2aFault, AgentConfig, Answering, LATER, Version};
use crate::openai_wire::WirePart;
use crate::upstream::Upstream;
use serde_json::Value;
use std::sync::Arc;

/// The agent: its configuration, its model and the tasks it holds.
pub struct Agent {
    pub config: AgentConfig,
    pub upstream: Option<Upstream>,
    pub tasks: Tasks,
}

pub type Shared = Arc<Agent>;

/// What a send produced.
pub enum Sent {
    Task(Task),
    Message { context_id: String, reply: String },
}

impl Sent {
    /// The send's result in `version`'s JSON (the other version's under
    /// `answers-in-other-spelling`).
    pub fn answer(&self, config: &AgentConfig, version: Version) -> Value {
        let spelled = match (config.faulted(A2aFault::AnswersInOtherSpelling), version) {
            (false, v) => v,
            (true, Version::V1) => Version::V03,
            (true, Version::V03) => Version::V1,
        };
        self.json(spelled)
    }

    /// The send's result in `version`'s JSON.
    pub fn json(&self, version: Version) -> Value {
        match self {
            Sent::Task(task) => answer::wrapped(version, "task", answer::task(version, task)),
            Sent::Message { context_id, reply } => {
                let id = format!("{context_id}-reply");
                let message = answer::message(version, context_id, &id, reply);
                answer::wrapped(version, "message", message)
            }
        }
    }
}

/// Whether the client asked not to wait for the task (1.0
/// `configuration.returnImmediately`, 0.3 `configuration.blocking: false`).
fn immediate(version: Version, params: &Value) -> bool {
    let config = params.get("configuration");
    match version {
        Version::V1 => config.and_then(|c| c.get("returnImmediately")) == Some(&Value::Bool(true)),
        Version::V03 => config.and_then(|c| c.get("blocking")) == Some(&Value::Bool(false)),
    }
}

/// Reads and checks the message: the error that refuses it, or what reaches the model.
/// Under `forward-then-refuse`, a malformed message's text reaches the model first.
async fn accept(
    agent: &Agent,
    version: Version,
    params: &Value,
) -> Result<(Message, Vec<WirePart>), A2aError> {
    let checked = parts::read_message(&agent.config, version, params)
        .and_then(|message| model::check(&agent.config, &message).map(|wire| (message, wire)));
    let Err(e) = checked else {
        return checked;
    };
    if e.kind != ErrorKind::InvalidParams {
        return Err(e);
    }
    if agent.config.faulted(A2aFault::ForwardThenRefuse) {
        let texts = texts(params).into_iter().map(WirePart::Text).collect();
        let _ = model::turn(&agent.config, agent.upstream.as_ref(), texts).await;
    }
    if agent.config.faulted(A2aFault::CrashOnMalformed) {
        return Err(A2aError::new(ErrorKind::Internal, "Internal error"));
    }
    Err(e)
}

/// The texts of a message as sent, read without checking it: each part's `text`, or
/// the `parts` value when it is a string.
fn texts(params: &Value) -> Vec<String> {
    match params.pointer("/message/parts") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str).map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// A send: the task (completed, or still working when the client asked not to wait)
/// or the message that answers it.
pub async fn send(agent: &Shared, version: Version, params: &Value) -> Result<Sent, A2aError> {
    let (message, wire) = accept(agent, version, params).await?;
    if agent.config.faulted(A2aFault::TaskNeverEnds) {
        return Ok(Sent::Task(
            agent.tasks.create(message.context_id.as_deref()),
        ));
    }
    if agent.config.answering == Answering::Message {
        let context_id = message
            .context_id
            .clone()
            .unwrap_or_else(|| format!("context-{}", message.message_id));
        return match model::turn(&agent.config, agent.upstream.as_ref(), wire).await {
            Turn::Completed(reply) => Ok(Sent::Message { context_id, reply }),
            Turn::Failed(why) => Err(A2aError::new(ErrorKind::Internal, why)),
        };
    }
    let task = agent.tasks.create(message.context_id.as_deref());
    if immediate(version, params) {
        let (agent, working) = (agent.clone(), task.clone());
        tokio::spawn(async move {
            tokio::time::sleep(LATER).await;
            finish(&agent, working, wire).await;
        });
        return Ok(Sent::Task(task));
    }
    Ok(Sent::Task(finish(agent, task, wire).await))
}

/// Runs the model on a working task and stores how it ended.
async fn finish(agent: &Agent, mut task: Task, wire: Vec<WirePart>) -> Task {
    match model::turn(&agent.config, agent.upstream.as_ref(), wire).await {
        Turn::Completed(reply) => {
            task.state = "completed";
            task.reply = Some(reply);
        }
        Turn::Failed(why) => {
            task.state = "failed";
            task.failure = Some(why);
        }
    }
    agent.tasks.put(task.clone());
    task
}

/// A streamed send's events, in order: a message alone, or the task working, its
/// answer and its final status (`broken-stream`: the first event only).
pub async fn stream(
    agent: &Shared,
    version: Version,
    params: &Value,
) -> Result<Vec<Value>, A2aError> {
    let streams =
        agent.config.streaming || agent.config.faulted(A2aFault::StreamsWithoutCapability);
    if !streams {
        return Err(A2aError::new(
            ErrorKind::UnsupportedOperation,
            "this agent does not stream (capabilities.streaming is false)",
        ));
    }
    let (message, wire) = accept(agent, version, params).await?;
    let mut events = Vec::new();
    if agent.config.answering == Answering::Message
        && !agent.config.faulted(A2aFault::TaskNeverEnds)
    {
        let sent = match model::turn(&agent.config, agent.upstream.as_ref(), wire).await {
            Turn::Completed(reply) => Sent::Message {
                context_id: message
                    .context_id
                    .unwrap_or_else(|| format!("context-{}", message.message_id)),
                reply,
            },
            Turn::Failed(why) => return Err(A2aError::new(ErrorKind::Internal, why)),
        };
        events.push(sent.json(version));
        return Ok(events);
    }
    let working = agent.tasks.create(message.context_id.as_deref());
    events.push(Sent::Task(working.clone()).json(version));
    if agent.config.faulted(A2aFault::BrokenStream) || agent.config.faulted(A2aFault::TaskNeverEnds)
    {
        return Ok(events);
    }
    let done = finish(agent, working, wire).await;
    events.extend(answer::artifact_update(version, &done));
    events.push(answer::status_update(version, &done, true));
    Ok(events)
}

/// GetTask.
pub fn get_task(agent: &Agent, id: Option<&str>) -> Result<Task, A2aError> {
    let id = id.ok_or_else(|| A2aError::invalid("the task id is required"))?;
    let not_found = || A2aError::new(ErrorKind::TaskNotFound, format!("no task `{id}`"));
    if agent.config.faulted(A2aFault::GetTaskNotFound) {
        return Err(not_found());
    }
    agent.tasks.get(id).ok_or_else(not_found)
}
