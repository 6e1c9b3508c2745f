//! What calibration runs the cases against besides the faithful host: the reference
//! host's single-fault variants, and schema mutants for the cases that judge schemas.

use super::schema_mutant::{self, SchemaMutant};
use crate::reference::Fault;
use crate::scenario::suite::Suite;

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
}

#[derive(Debug, Clone)]
pub enum Variant {
    Host(Fault),
    Schema(SchemaMutant),
}

/// Faults whose whole effect is a missing seam.
const BLOCKING_FAULTS: &[Fault] = &[Fault::SeamMissing, Fault::EnvelopeSeamMissing];

impl Variant {
    pub fn name(&self) -> String {
        match self {
            Variant::Host(f) => f.name().to_string(),
            Variant::Schema(m) => m.name(),
        }
    }

    pub fn description(&self) -> String {
        match self {
            Variant::Host(f) => f.description().to_string(),
            Variant::Schema(m) => m.description(),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Variant::Host(_) => "host-fault",
            Variant::Schema(_) => "schema-mutant",
        }
    }

    pub fn detection(&self) -> Detection {
        match self {
            Variant::Host(f) if BLOCKING_FAULTS.contains(f) => Detection::Blocked,
            _ => Detection::Assertion,
        }
    }

    /// Host faults run in every setup; schema mutants need a host only for the cases
    /// that validate answers against a schema, so one setup is enough.
    pub fn runs_in(&self, setup: &str) -> bool {
        match self {
            Variant::Host(_) => true,
            Variant::Schema(_) => setup == SCHEMA_MUTANT_SETUP,
        }
    }
}

/// The setup schema mutants are run in.
pub const SCHEMA_MUTANT_SETUP: &str = "all-modalities";

/// Every variant: each host fault, then each schema mutant of the schemas `suite`
/// judges (see `schema_mutant`).
pub fn catalogue(suite: &Suite) -> Vec<Variant> {
    let judged = schema_mutant::judged_schemas(suite);
    Fault::all()
        .iter()
        .copied()
        .map(Variant::Host)
        .chain(
            schema_mutant::catalogue(&judged)
                .into_iter()
                .map(Variant::Schema),
        )
        .collect()
}
