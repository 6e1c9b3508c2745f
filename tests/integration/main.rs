//! The integration tests: one test binary, one module per area. Each runs the built
//! `mmconform` binary (through `common`) against the embedded reference host and agent,
//! their single-fault variants, or servers of its own on `127.0.0.1:0`.
//!
//! The hostile-host battery is a binary of its own (`tests/hostile/`, `make
//! hostile-numbers`); it shares `tests/common/` with this one.
//!
//! Adding an area: a file `tests/integration/<area>.rs` (or a folder with a `mod.rs`
//! for an area with submodules) and one `mod <area>;` line below, kept in order. Helpers
//! every area may use belong in `tests/common/mod.rs` (`crate::common`). A new fault of
//! a reference host needs a row in its profile's fault table (`<profile>/faults.rs`,
//! driven by `fault_table.rs`); the suite fails until it has one.

#[path = "../common/mod.rs"]
mod common;

mod a2a;
mod acp;
mod agentruntime;
mod agui;
mod anthropic;
mod baseline;
mod calibrate;
mod causes;
mod cli;
mod docs;
mod evidence;
mod fault_table;
mod forwarding;
mod junit;
mod openai;
#[path = "openai-responses/mod.rs"]
mod openai_responses;
mod openwop;
mod release;
mod report_html;
mod report_paths;
mod snapshots;
mod transformed;
mod verify;
mod witness;
mod witness_run;
