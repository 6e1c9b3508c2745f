//! One operation's exchanges: a send (its answer read as `classify` says), a streamed
//! send (read as an event stream, `stream.rs`), and, when a send answered a task still
//! working, GetTask until the task ends, bounded by the case's time (`--timeout` from
//! the send) and the run's stop.

use super::classify::{Reading, followed_task, send_answer};
use super::interface::Interface;
use super::request::{Operation, http_request};
use super::stream::StreamSink;
use crate::http::HttpClient;
use crate::outcome::Exchange;
use crate::protocol::stream_post::post_and_read;
use crate::scenario::stream::StreamClass;
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

/// The most GetTask exchanges a case keeps in its record (the first ones and the
/// last); the calls made are counted in the reading either way.
const KEPT_POLLS: usize = 12;

/// What an operation produced: its exchanges, and the reading unless no answer came.
pub struct Operated {
    pub exchanges: Vec<Exchange>,
    pub reading: Result<Reading, String>,
}

/// Everything the operations of one case share.
pub struct Env<'a> {
    pub client: &'a HttpClient,
    pub interface: &'a Interface,
    /// How long to wait after a stream's end for what would break it.
    pub grace: Duration,
    /// When following a task must stop.
    pub deadline: Instant,
    /// The case's uid (JSON-RPC ids).
    pub uid: &'a str,
    pub purpose: &'a str,
}

/// Sends `params` as `op` (a send or a streamed send) and reads the answer; a task
/// answered still working is followed with GetTask.
pub async fn operate(
    env: &Env<'_>,
    op: Operation,
    params: serde_json::Value,
    header: Option<&str>,
    auth: bool,
) -> Operated {
    let request = http_request(
        env.interface,
        op,
        params,
        header,
        auth,
        env.uid,
        env.purpose,
    );
    let (binding, version) = (env.interface.binding, env.interface.version);
    if op == Operation::Stream {
        let sink = StreamSink::new(binding, version);
        let answered = post_and_read(env.client, &request, env.grace, true, sink, |read| {
            read.sink
                .finish(read.status, read.event_stream, read.raw, read.ended_by)
        })
        .await;
        return Operated {
            exchanges: vec![answered.exchange],
            reading: answered.evidence,
        };
    }
    let (exchange, answer) = env.client.send_owned(request).await;
    let mut exchanges = vec![exchange];
    let mut reading = match answer {
        Ok(response) => send_answer(binding, version, response.status, &response.body),
        Err(e) => {
            return Operated {
                exchanges,
                reading: Err(e.to_string()),
            };
        }
    };
    if let Some(task) = reading.pending.clone() {
        follow(env, &mut reading, &task, header, auth, &mut exchanges).await;
    }
    Operated {
        exchanges,
        reading: Ok(reading),
    }
}

/// GetTask until the task is no longer working (or cannot be read), the deadline or
/// the run's stop; the pause between calls grows from 100 ms to 1 s.
async fn follow(
    env: &Env<'_>,
    reading: &mut Reading,
    task: &str,
    header: Option<&str>,
    auth: bool,
    exchanges: &mut Vec<Exchange>,
) {
    let mut pause = Duration::from_millis(100);
    let mut dropped = 0usize;
    while reading.pending.is_some() {
        let next = Instant::now() + pause;
        if next >= env.deadline || env.client.stop().sleep_until(next).await.is_err() {
            let state = reading.summary.clone();
            reading.classification = StreamClass::Unfinished;
            reading.summary = format!(
                "{state} still, after {} GetTask call(s): the case's time (--timeout) ran out first",
                reading.followed
            );
            break;
        }
        pause = (pause * 2).min(Duration::from_secs(1));
        let purpose = format!("{} (GetTask)", env.purpose);
        let request = http_request(
            env.interface,
            Operation::GetTask,
            json!({"id": task}),
            header,
            auth,
            env.uid,
            &purpose,
        );
        let (exchange, answer) = env.client.send(&request).await;
        if exchanges.len() > KEPT_POLLS {
            exchanges.remove(KEPT_POLLS / 2);
            dropped += 1;
        }
        exchanges.push(exchange);
        match answer {
            Ok(response) => {
                followed_task(
                    reading,
                    env.interface.binding,
                    response.status,
                    &response.body,
                );
            }
            Err(e) => {
                reading.classification = StreamClass::Unfinished;
                reading.summary = format!("GetTask got no answer: {e}");
                reading.pending = None;
            }
        }
    }
    if dropped > 0 {
        reading.objects.push(format!(
            "({dropped} GetTask exchange(s) between these not kept)"
        ));
    }
}
