//! The shapes the AG-UI reference agent is calibrated in: what it declares (its
//! default, audio and video, documents only, exact types, WEBP only), a token, and
//! forwarding to a witness in Chat Completions or, translating, in Gemini.

use crate::config::{RunConfig, Target};
use crate::reference::shape::{Shape, ShapeHost, Started, calibration_token};
use futures_util::future::BoxFuture;
use reference_hosts::agui::{AgentConfig, AguiFault, DEFAULT_ACCEPTS};
use reference_hosts::{HostFault, UpstreamWire};
use std::sync::Arc;

/// The agent declaring these MIME prefixes, requiring the calibration token when
/// `token` says so (so the auth case runs).
#[derive(Debug, Clone)]
struct AgentShape {
    accepts: &'static [&'static str],
    token: bool,
}

fn agui(name: &'static str, summary: &'static str, accepts: &'static [&'static str]) -> Shape {
    let shape = AgentShape {
        accepts,
        token: false,
    };
    Shape::new(name, summary, "agui", "agui", Arc::new(shape))
}

/// Every agui shape, in the order the matrix lists them.
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape::new(
            "agui-default",
            "AG-UI agent accepting image/, audio/wav, application/pdf (what `--profile agui` judges), a bearer token",
            "agui",
            "agui",
            Arc::new(AgentShape {
                accepts: &DEFAULT_ACCEPTS,
                token: true,
            }),
        )
        .with_schema_mutants(),
        agui(
            "agui-witness",
            "agui-default, forwarding what reaches its model to a witness (run --witness)",
            &DEFAULT_ACCEPTS,
        )
        .witnessed(),
        agui(
            "agui-gemini-witness",
            "agui-witness, the agent translating AG-UI into Gemini generateContent calls to the witness (forwarding faults only)",
            &DEFAULT_ACCEPTS,
        )
        .witnessed_over(UpstreamWire::Gemini),
        agui(
            "agui-av",
            "AG-UI agent accepting image/, audio/, video/ (no documents)",
            &["image/", "audio/", "video/"],
        ),
        agui(
            "agui-documents",
            "AG-UI agent accepting application/pdf only",
            &["application/pdf"],
        ),
        agui(
            "agui-exact-types",
            "AG-UI agent accepting exact types image/png, audio/mpeg, video/webm, text/plain",
            &["image/png", "audio/mpeg", "video/webm", "text/plain"],
        ),
        agui(
            "agui-webp",
            "AG-UI agent accepting image/webp only",
            &["image/webp"],
        ),
    ]
}

impl AgentShape {
    /// The agent declaring this shape's types, broken by `fault`.
    fn agent(&self, fault: Option<AguiFault>) -> Result<AgentConfig, String> {
        let accepts: Vec<String> = self.accepts.iter().map(|a| a.to_string()).collect();
        AgentConfig::new(&accepts, fault)
    }
}

impl ShapeHost for AgentShape {
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let token = self.token.then(calibration_token);
            let agent = self
                .agent(crate::reference::own_fault::<AguiFault>(fault)?)?
                .with_upstream(upstream)
                .with_upstream_wire(wire)
                .with_token(token.as_ref().map(|t| t.value.clone()));
            let claims = super::claims(&agent);
            // Pointed at the agent's endpoint once it is bound.
            let mut config = RunConfig::new(Target::Offline);
            let running = super::start_agent(agent, &mut config).await?;
            config.claims.embedded = Some(claims);
            config.token = token;
            Ok(Started {
                reference: Some(running),
                config,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn agui_shapes_run_the_agent_with_its_declaration_and_fault() {
        let all = shapes();
        let webp = all.iter().find(|s| s.name == "agui-webp").unwrap();
        assert_eq!(webp.profile, "agui");
        let shape = AgentShape {
            accepts: &["image/webp"],
            token: false,
        };
        let agent = shape.agent(Some(AguiFault::IgnoresMimePrefix)).unwrap();
        assert_eq!(agent.fault, Some(AguiFault::IgnoresMimePrefix));
        let fault: &'static dyn HostFault = &AguiFault::all()[0];
        let Started {
            reference: running,
            config,
        } = webp
            .start
            .start(Some(fault), None, UpstreamWire::Chat)
            .await
            .unwrap();
        let running = running.expect("the agent is embedded");
        assert!(config.witness_url.is_none());
        let declared = config
            .claims
            .embedded
            .as_ref()
            .expect("the agent declares itself");
        assert_eq!(declared.accepts, vec!["image/webp".to_string()]);
        assert_eq!(declared.by, "reference agent");
        let endpoint = format!("{}/agui", running.base_url());
        assert_eq!(
            config.target_label.as_deref(),
            Some(format!("reference agent ({endpoint})").as_str())
        );
        assert_eq!(
            config.media_base_url,
            Some(format!("{}/media", running.base_url()))
        );
        assert_eq!(config.media_refs["image"], "mmconform-file-image");
        running.shutdown().await;
    }
}
