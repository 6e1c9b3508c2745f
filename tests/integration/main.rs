//! The integration tests: one test binary, one module per area. Each runs the built
//! `mmconform` binary (through `common`) against the embedded reference host and agent,
//! their single-fault variants, or servers of its own on `127.0.0.1:0`.
//!
//! The hostile-host battery is a binary of its own (`tests/hostile/`, `make
//! hostile-numbers`); it shares `tests/common/` with this one.
//!
//! Adding an area: a file `tests/integration/<area>.rs` (or a folder with a `mod.rs`
//! for an area with submodules) and one `mod <area>;` line below, kept in order. Helpers
//! every area may use belong in `tests/common/mod.rs` (`crate::common`).

#[path = "../common/mod.rs"]
mod common;

mod agui;
mod baseline;
mod calibrate;
mod cli;
mod evidence;
mod openwop;
mod snapshots;
mod verify;
