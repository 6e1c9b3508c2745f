//! The command line contract: exit codes, diagnostics, reports, and the broken-scenario
//! corpus.

mod broken_scenarios;
mod contract;
mod export_hurl;
mod help;
mod hints;
mod install;
mod progress;
mod project_file;
mod selection;
mod small_things;
