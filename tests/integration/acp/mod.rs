//! The acp profile: end to end against the reference ACP agent (one process per run,
//! with and without a witness), the fault table (every agent fault fails its case), and
//! hostile agents (a verdict or blocked, within the bounds).

mod faults;
mod hostile;
mod profile;
