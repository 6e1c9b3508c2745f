//! What calibration runs the cases against besides the faithful host: the reference
//! host's single-fault variants, and schema mutants for the cases that judge schemas.

use super::schema_mutant::{self, SchemaMutant};
use super::setup::Setup;
use crate::scenario::suite::Suite;
use reference_hosts::Fault;
use reference_hosts::acp::AcpFault;
use reference_hosts::agentruntime::RuntimeFault;
use reference_hosts::agui::AguiFault;
use reference_hosts::anthropic::AnthropicFault;
use reference_hosts::openai::OpenaiFault;

/// How a variant is expected to show up in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Detection {
    /// Some case fails an assertion it passes against the faithful host.
    Assertion,
    /// The broken thing is what cases need in order to observe anything (a seam that
    /// answers 404): cases that pass against the faithful host are `blocked`, and the
    /// run can never exit 0.
    Blocked,
    /// Not a fault at all: a faithful transformation (a re-encoded or scaled picture).
    /// No case may fail against it (that would be a false failure), and some case's
    /// witness must say the part arrived transformed.
    Tolerated,
}

#[derive(Debug, Clone)]
pub enum Variant {
    /// A fault of the openwop reference host.
    Host(Fault),
    /// A fault of the AG-UI reference agent.
    AguiHost(AguiFault),
    /// A fault of the OpenAI-compatible reference server.
    OpenaiHost(OpenaiFault),
    /// A fault of the Anthropic Messages reference server.
    AnthropicHost(AnthropicFault),
    /// A fault of the reference AgentRuntime.
    Runtime(RuntimeFault),
    /// A fault of the reference ACP agent.
    Acp(AcpFault),
    Schema(SchemaMutant),
}

/// Faults whose whole effect is a missing seam.
const BLOCKING_FAULTS: &[Fault] = &[Fault::SeamMissing, Fault::EnvelopeSeamMissing];

impl Variant {
    /// What the matrix says about the variant.
    pub fn info(&self) -> super::matrix::VariantInfo {
        super::matrix::VariantInfo {
            name: self.name(),
            description: self.description(),
            kind: self.kind(),
            detection: self.detection(),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Variant::Host(f) => f.name().to_string(),
            // Some names exist in both tables (`refuses-string-content`).
            Variant::AguiHost(f) => format!("agui:{}", f.name()),
            Variant::OpenaiHost(f) => format!("openai:{}", f.name()),
            Variant::AnthropicHost(f) => format!("anthropic:{}", f.name()),
            Variant::Runtime(f) => format!("agentruntime:{}", f.name()),
            Variant::Acp(f) => format!("acp:{}", f.name()),
            Variant::Schema(m) => m.name(),
        }
    }

    pub fn description(&self) -> String {
        match self {
            Variant::Host(f) => f.description().to_string(),
            Variant::AguiHost(f) => f.description().to_string(),
            Variant::OpenaiHost(f) => f.description().to_string(),
            Variant::AnthropicHost(f) => f.description().to_string(),
            Variant::Runtime(f) => f.description().to_string(),
            Variant::Acp(f) => f.description().to_string(),
            Variant::Schema(m) => m.description(),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Variant::Host(_)
            | Variant::AguiHost(_)
            | Variant::OpenaiHost(_)
            | Variant::AnthropicHost(_)
            | Variant::Runtime(_)
            | Variant::Acp(_) => "host-fault",
            Variant::Schema(_) => "schema-mutant",
        }
    }

    /// A forwarding fault (it changes nothing without a model to forward to).
    fn needs_upstream(&self) -> bool {
        match self {
            Variant::Host(f) => f.needs_upstream(),
            Variant::AguiHost(f) => f.needs_upstream(),
            Variant::OpenaiHost(f) => f.needs_upstream(),
            Variant::AnthropicHost(f) => f.needs_upstream(),
            // The runtime's faults are its own; every runtime shape has a witness.
            Variant::Runtime(_) | Variant::Acp(_) | Variant::Schema(_) => false,
        }
    }

    pub fn detection(&self) -> Detection {
        match self {
            Variant::Host(f) if BLOCKING_FAULTS.contains(f) => Detection::Blocked,
            Variant::Host(f) if f.is_faithful_transformation() => Detection::Tolerated,
            Variant::Runtime(f) if f.is_faithful_transformation() => Detection::Tolerated,
            _ => Detection::Assertion,
        }
    }

    /// Host faults run in every setup of their profile, except the forwarding faults,
    /// which change nothing without a model to forward to and so run only in the
    /// witness setups. In those, the other faults run too: a host that accepts what it
    /// must refuse then forwards it, which is what fails `witness: withheld`. Schema
    /// mutants need a host only for the cases that validate answers against a schema,
    /// so one setup per profile is enough. A setup whose host translates into another
    /// model wire runs the forwarding faults only: the others are proven in the Chat
    /// setups, and what such a setup adds is the other wire's form.
    pub fn runs_in(&self, setup: &Setup) -> bool {
        let translating = setup.upstream_wire != reference_hosts::UpstreamWire::Chat;
        if translating && !self.needs_upstream() {
            return false;
        }
        match self {
            Variant::Host(f) => {
                setup.profile() == crate::protocol::openwop::PROFILE
                    && (setup.witness || !f.needs_upstream())
            }
            Variant::AguiHost(f) => {
                setup.profile() == crate::protocol::agui::PROFILE
                    && (setup.witness || !f.needs_upstream())
            }
            Variant::OpenaiHost(f) => {
                let responses = setup.profile() == crate::protocol::openai_responses::PROFILE;
                (responses || setup.profile() == crate::protocol::openai::PROFILE)
                    && f.seen_at(responses)
                    && (setup.witness || !f.needs_upstream())
            }
            Variant::AnthropicHost(f) => {
                setup.profile() == crate::protocol::anthropic::PROFILE
                    && (setup.witness || !f.needs_upstream())
            }
            Variant::Runtime(f) => {
                setup.profile() == crate::protocol::agentruntime::PROFILE
                    && super::setup_agentruntime::runs_in(*f, setup.name)
            }
            Variant::Acp(_) => setup.profile() == crate::protocol::acp::PROFILE,
            Variant::Schema(_) => SCHEMA_MUTANT_SETUPS.contains(&setup.name),
        }
    }
}

/// The setups schema mutants are run in: the widest of each profile, and the openai
/// text-only model, the one setup whose refusals are judged against `openai/error`.
pub const SCHEMA_MUTANT_SETUPS: [&str; 4] = [
    "all-modalities",
    "agui-default",
    "openai-multimodal",
    "openai-text-only",
];

/// Every variant: each host fault, each agent fault, each OpenAI server fault (the
/// forwarding ones included: `runs_in` puts them in the witness setups only), then each
/// schema mutant of the
/// schemas `suite` judges (see `schema_mutant`).
pub fn catalogue(suite: &Suite) -> Vec<Variant> {
    let judged = schema_mutant::judged_schemas(suite);
    Fault::all()
        .iter()
        .copied()
        .map(Variant::Host)
        .chain(AguiFault::all().iter().copied().map(Variant::AguiHost))
        .chain(OpenaiFault::all().iter().copied().map(Variant::OpenaiHost))
        .chain(
            AnthropicFault::all()
                .iter()
                .copied()
                .map(Variant::AnthropicHost),
        )
        .chain(RuntimeFault::all().iter().copied().map(Variant::Runtime))
        .chain(AcpFault::all().iter().copied().map(Variant::Acp))
        .chain(
            schema_mutant::catalogue(&judged)
                .into_iter()
                .map(Variant::Schema),
        )
        .collect()
}
