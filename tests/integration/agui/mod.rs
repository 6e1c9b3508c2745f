//! The AG-UI profile: end to end against the reference agent, the fault table (every
//! agent fault fails its case), hostile agents, and the agent read against the checker.

mod faults;
mod hostile;
mod profile;
mod reference_agent;
