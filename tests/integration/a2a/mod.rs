//! The A2A profile: end to end against the reference agent, and the fault table
//! (every agent fault fails its case).

mod faults;
mod profile;
