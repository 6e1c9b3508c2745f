//! The openwop profile: the faithful reference host in several shapes, the AI Envelope
//! cases, and the fault table (every host and envelope fault fails its case).

mod envelopes;
mod faults;
mod faults_v2;
mod host_values;
mod reference_host;
mod self_hosted;
mod wire;
