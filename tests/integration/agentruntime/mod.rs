//! The agentruntime profile: end to end against the reference runtime (a bridge
//! process per request, with and without a witness), the fault table (every runtime
//! fault fails its case), hostile bridges (a verdict or blocked, within bounds),
//! the Node bridge of `examples/agentruntime/` against its fake runtime, and the CLI
//! runtimes of `examples/agentruntime/runtimes/` against a fake CLI on PATH.

mod cli_runtimes;
mod faults;
mod hostile;
mod node_bridge;
mod profile;
