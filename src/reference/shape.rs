//! The shapes calibration runs a reference host in: one shape cannot exercise every
//! case (a host advertising audio never runs the "unadvertised audio" negative), so
//! each host offers several, and every case must run in at least one of them. A shape
//! says what it is (for the matrix) and how it starts, faithful or broken by one of its
//! host's faults; calibration (`crate::calibrate`) decides which faults run where from
//! what the shape and the fault say, and adds the witness.

use crate::config::{RunConfig, Target, Token};
use futures_util::future::BoxFuture;
use reference_hosts::{HostFault, RunningReference, UpstreamWire};
use std::sync::Arc;

/// Not a secret: the token the shapes that exercise authentication require, so the
/// auth case runs.
pub const CALIBRATION_TOKEN: &str = "mmconform-calibration-token";

/// The calibration token as a run sends it.
pub fn calibration_token() -> Token {
    Token {
        value: CALIBRATION_TOKEN.to_string(),
        origin: "calibration".to_string(),
    }
}

/// One shape of a faithful host plus the run options that go with it.
#[derive(Clone)]
pub struct Shape {
    pub name: &'static str,
    /// What the shape exercises, for the matrix header.
    pub summary: &'static str,
    /// The host it starts (`ReferenceHost::name`): its faults are the ones run here.
    pub host: &'static str,
    /// The protocol whose cases it runs.
    pub profile: &'static str,
    /// The door its host's faults must act at (`HostFault::acts_at`).
    pub door: &'static str,
    /// The host forwards to a witness the run starts (`run --witness`): the forwarding
    /// faults run here, and the `expect.witness` cases are judged.
    pub witness: bool,
    /// The wire the host calls its model in: Chat Completions, or (a gateway that
    /// translates wires) Responses, Gemini.
    pub upstream_wire: UpstreamWire,
    /// Schema mutants run here (one shape per profile is enough: they need a host only
    /// for the cases that validate answers against a schema).
    pub schema_mutants: bool,
    /// The cases it is limited to when calibrate runs every case (an id filter).
    pub only_cases: Option<&'static str>,
    pub start: Arc<dyn ShapeHost>,
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shape")
            .field("name", &self.name)
            .field("host", &self.host)
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}

impl Shape {
    /// A shape of `host` running `profile`'s cases, forwarding to no witness.
    pub fn new(
        name: &'static str,
        summary: &'static str,
        host: &'static str,
        profile: &'static str,
        start: Arc<dyn ShapeHost>,
    ) -> Shape {
        Shape {
            name,
            summary,
            host,
            profile,
            door: "",
            witness: false,
            upstream_wire: UpstreamWire::Chat,
            schema_mutants: false,
            only_cases: None,
            start,
        }
    }

    /// The shape forwarding to a witness.
    pub fn witnessed(self) -> Shape {
        Shape {
            witness: true,
            ..self
        }
    }

    /// The shape forwarding to a witness in `wire`.
    pub fn witnessed_over(self, wire: UpstreamWire) -> Shape {
        Shape {
            upstream_wire: wire,
            ..self.witnessed()
        }
    }

    /// The shape schema mutants run in.
    pub fn with_schema_mutants(self) -> Shape {
        Shape {
            schema_mutants: true,
            ..self
        }
    }

    /// The shape knocking at `door`.
    pub fn at_door(self, door: &'static str) -> Shape {
        Shape { door, ..self }
    }
}

/// How a shape's host starts.
pub trait ShapeHost: Send + Sync {
    /// Whether `fault` (one of its host's) runs in this shape, beyond what calibration
    /// decides for every shape (the host, the door, the witness).
    fn runs(&self, _fault: &dyn HostFault) -> bool {
        true
    }

    /// Starts the host, broken by `fault` when given (always one of its host's),
    /// forwarding to `upstream` in `wire` when given, with the run pointed at it.
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>>;
}

/// A started shape: its host (`None` for a program target, started by the run) and
/// the run configuration pointed at it.
pub struct Started {
    pub reference: Option<RunningReference>,
    pub config: RunConfig,
}

/// A run against the embedded host at `url`, shown as `label`.
pub fn embedded_run(url: &str, label: String) -> Result<RunConfig, String> {
    let url = url::Url::parse(url).map_err(|e| format!("embedded host URL `{url}`: {e}"))?;
    let mut config = RunConfig::new(Target::Url(url.clone()));
    config.point_at_embedded(url, label);
    Ok(config)
}
