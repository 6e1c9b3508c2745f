//! What calibration runs the cases against besides the faithful host: each reference
//! host's single-fault variants, and schema mutants for the cases that judge schemas.

use super::schema_mutant::{self, SchemaMutant};
use super::setup::Setup;
use crate::reference::ReferenceHost;
use crate::scenario::suite::Suite;
use reference_hosts::{HostFault, UpstreamWire};

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

#[derive(Clone)]
pub enum Variant {
    /// A fault of a reference host.
    Host {
        host: &'static dyn ReferenceHost,
        fault: &'static dyn HostFault,
    },
    Schema(SchemaMutant),
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

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

    /// The fault's name behind its host's prefix (`agui:refuses-string-content`: some
    /// names exist in several tables).
    pub fn name(&self) -> String {
        match self {
            Variant::Host { host, fault } => format!("{}{}", host.variant_prefix(), fault.name()),
            Variant::Schema(m) => m.name(),
        }
    }

    pub fn description(&self) -> String {
        match self {
            Variant::Host { fault, .. } => fault.description().to_string(),
            Variant::Schema(m) => m.description(),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Variant::Host { .. } => "host-fault",
            Variant::Schema(_) => "schema-mutant",
        }
    }

    /// The host fault, for the shape that starts its host.
    pub fn host_fault(&self) -> Option<&'static dyn HostFault> {
        match self {
            Variant::Host { fault, .. } => Some(*fault),
            Variant::Schema(_) => None,
        }
    }

    /// A forwarding fault (it changes nothing without a model to forward to).
    fn needs_upstream(&self) -> bool {
        self.host_fault().is_some_and(|f| f.needs_upstream())
    }

    pub fn detection(&self) -> Detection {
        match self.host_fault() {
            Some(fault) if fault.blocks_cases() => Detection::Blocked,
            Some(fault) if fault.is_faithful_transformation() => Detection::Tolerated,
            _ => Detection::Assertion,
        }
    }

    /// Host faults run in every setup of their host that shows them (at the setup's
    /// door, and where the shape says so), except the forwarding faults, which change
    /// nothing without a model to forward to and so run only in the witness setups. In
    /// those, the other faults run too: a host that accepts what it must refuse then
    /// forwards it, which is what fails `witness: withheld`. Schema mutants need a host
    /// only for the cases that validate answers against a schema, so the setups that
    /// take them are enough. A setup whose host translates into another model wire runs
    /// the forwarding faults only: the others are proven in the Chat setups, and what
    /// such a setup adds is the other wire's form.
    pub fn runs_in(&self, setup: &Setup) -> bool {
        let translating = setup.upstream_wire != UpstreamWire::Chat;
        if translating && !self.needs_upstream() {
            return false;
        }
        match self {
            Variant::Host { host, fault } => {
                setup.host == host.name()
                    && (setup.witness || !fault.needs_upstream())
                    && fault.acts_at(setup.door)
                    && setup.start.runs(*fault)
            }
            Variant::Schema(_) => setup.schema_mutants,
        }
    }
}

/// Every variant: each reference host's faults, in registry order (the forwarding ones
/// included: `runs_in` puts them in the witness setups only), then each schema mutant
/// of the schemas `suite` judges (see `schema_mutant`).
pub fn catalogue(suite: &Suite) -> Vec<Variant> {
    let judged = schema_mutant::judged_schemas(suite);
    crate::registry::reference_hosts()
        .into_iter()
        .flat_map(|host| {
            host.faults()
                .into_iter()
                .map(move |fault| Variant::Host { host, fault })
        })
        .chain(
            schema_mutant::catalogue(&judged)
                .into_iter()
                .map(Variant::Schema),
        )
        .collect()
}
