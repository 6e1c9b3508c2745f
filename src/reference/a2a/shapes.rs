//! The shapes the A2A reference agent is calibrated in: both versions and both
//! bindings, a task or a message as the answer, streaming on and off, a token, and
//! forwarding to a witness.

use crate::config::{RunConfig, Target};
use crate::reference::shape::{Shape, ShapeHost, Started, calibration_token};
use futures_util::future::BoxFuture;
use reference_hosts::a2a::{A2aFault, AgentConfig, Answering, Binding, DEFAULT_ACCEPTS, Version};
use reference_hosts::{HostFault, UpstreamWire};
use std::sync::Arc;
use std::time::Duration;

/// How long a calibration case waits for an answer: a fault whose task never ends
/// costs this once per case it breaks.
const CALIBRATION_TIMEOUT: Duration = Duration::from_secs(4);

/// One way to run the agent.
#[derive(Debug, Clone)]
struct AgentShape {
    accepts: &'static [&'static str],
    interfaces: &'static [(Binding, Version)],
    streaming: bool,
    answering: Answering,
    token: bool,
}

const BOTH: &[(Binding, Version)] = &super::INTERFACES;
/// 0.3 only, JSON-RPC preferred (so its HTTP+JSON cases carry the tag `http-json`, as
/// the 1.0 shapes' do).
const V03: &[(Binding, Version)] = &[
    (Binding::JsonRpc, Version::V03),
    (Binding::HttpJson, Version::V03),
];

fn shape(name: &'static str, summary: &'static str, agent: AgentShape) -> Shape {
    Shape::new(name, summary, "a2a", "a2a", Arc::new(agent))
}

/// Every a2a shape, in the order the matrix lists them.
pub fn shapes() -> Vec<Shape> {
    let default = AgentShape {
        accepts: &DEFAULT_ACCEPTS,
        interfaces: BOTH,
        streaming: true,
        answering: Answering::Task,
        token: true,
    };
    vec![
        shape(
            "a2a-default",
            "A2A agent at 1.0 (JSON-RPC, HTTP+JSON) and 0.3 (JSON-RPC) accepting image/*, audio/wav, application/pdf, streaming, a bearer token",
            default.clone(),
        )
        .with_schema_mutants(),
        shape(
            "a2a-witness",
            "a2a-default forwarding what reaches its model to a witness (run --witness)",
            AgentShape { token: false, ..default.clone() },
        )
        .witnessed(),
        shape(
            "a2a-complement",
            "the a2a-default interfaces accepting only what it does not (audio/mpeg, video/*), without streaming, answering messages",
            AgentShape {
                accepts: &["audio/mpeg", "video/"],
                streaming: false,
                answering: Answering::Message,
                token: false,
                ..default.clone()
            },
        ),
        shape(
            "a2a-v03",
            "A2A agent at 0.3 only (JSON-RPC, HTTP+JSON) accepting image/png and application/pdf, answering messages",
            AgentShape {
                accepts: &["image/png", "application/pdf"],
                interfaces: V03,
                answering: Answering::Message,
                token: false,
                ..default.clone()
            },
        )
        .with_schema_mutants(),
        shape(
            "a2a-v03-witness",
            "a2a-v03 answering tasks, forwarding to a witness",
            AgentShape {
                accepts: &["image/png", "application/pdf"],
                interfaces: V03,
                token: false,
                ..default
            },
        )
        .witnessed(),
    ]
}

impl AgentShape {
    fn agent(&self, fault: Option<A2aFault>) -> Result<AgentConfig, String> {
        let accepts: Vec<String> = self.accepts.iter().map(|a| a.to_string()).collect();
        Ok(AgentConfig::new(&accepts, fault)?
            .with_interfaces(self.interfaces.to_vec())
            .with_streaming(self.streaming)
            .with_answering(self.answering))
    }
}

impl ShapeHost for AgentShape {
    /// A fault runs where it can show: the streaming faults where the agent streams
    /// (or, `streams-without-capability`, where it does not), the HTTP+JSON refusal
    /// where there is HTTP+JSON, the task faults where the agent answers tasks.
    fn runs(&self, fault: &dyn HostFault) -> bool {
        let Ok(fault) = fault.name().parse::<A2aFault>() else {
            return false;
        };
        let rest = self.interfaces.iter().any(|(b, _)| *b == Binding::HttpJson);
        match fault {
            A2aFault::BrokenStream => self.streaming,
            A2aFault::Http415WithoutErrorInfo => rest,
            A2aFault::TaskNeverEnds | A2aFault::GetTaskNotFound => {
                self.answering == Answering::Task
            }
            _ => true,
        }
    }

    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let token = self.token.then(calibration_token);
            let agent = self
                .agent(crate::reference::own_fault::<A2aFault>(fault)?)?
                .with_upstream(upstream)
                .with_upstream_wire(wire)
                .with_token(token.as_ref().map(|t| t.value.clone()));
            let mut config = RunConfig::new(Target::Offline);
            let running = super::start_agent(agent, &mut config).await?;
            config.token = token;
            config.timeout = CALIBRATION_TIMEOUT;
            Ok(Started {
                reference: Some(running),
                config,
            })
        })
    }
}
