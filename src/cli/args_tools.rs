//! The arguments of the commands beside `run`: `evidence` (the steward's merge),
//! `witness` and `media` (for client authors). Part of the one clap definition
//! `args.rs` starts; nothing downstream of the CLI reads these types.

use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct EvidenceArgs {
    #[command(subcommand)]
    pub command: EvidenceCommand,
}

#[derive(Debug, Subcommand)]
pub enum EvidenceCommand {
    /// Verify each report (as `verify` does), merge them into a requirement x host
    /// matrix, and with --criteria judge the promotion criteria (exit 0 met, 1 not met
    /// or a report refused, 2 usage or criteria-file error).
    Merge(MergeArgs),
    /// The built-in promotion criteria.
    Criteria(CriteriaArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvidenceFormat {
    /// Markdown for an RFC's `Updated:` line or a pull request.
    Md,
    /// One self-contained HTML page.
    Html,
    /// JSON (schemas/evidence.schema.json).
    Json,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// JSON evidence reports (`run --report`), one or more hosts each.
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// Promotion criteria: a YAML/JSON file, or a built-in name (`rfc0091`, `rfc0021`;
    /// see `evidence criteria --list`).
    #[arg(long, value_name = "FILE|NAME")]
    pub criteria: Option<String>,
    #[arg(long, value_enum, default_value_t = EvidenceFormat::Md)]
    pub format: EvidenceFormat,
    /// Write here (atomically) instead of standard output.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// An origin whose hosts never count toward a criterion, e.g. the steward's own
    /// host (repeatable; added to the criteria's exclude_origins).
    #[arg(long = "exclude-origin", value_name = "ORIGIN")]
    pub exclude_origins: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CriteriaArgs {
    /// List the built-in criteria.
    #[arg(long, required_unless_present = "show", conflicts_with = "show")]
    pub list: bool,
    /// Print a built-in criteria file (to copy and adapt).
    #[arg(long, value_name = "NAME")]
    pub show: Option<String>,
}

#[derive(Debug, Args)]
pub struct WitnessArgs {
    /// Address to listen on; port 0 picks a free one. The base URL is printed first.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: std::net::SocketAddr,
    /// Allow a non-loopback --listen address: whoever reaches it is answered and recorded.
    #[arg(long = "witness-allow-remote")]
    pub allow_remote: bool,
    /// Stop after this many model calls.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub duration: Option<f64>,
    /// Write JUnit XML here (one test case per call).
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
    /// Write the JSON evidence report here (each call's full record).
    #[arg(long, value_name = "PATH")]
    pub report: Option<PathBuf>,
    /// Larger request bodies are answered 413 (and judged).
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_body_bytes: u64,
    /// Print each failing call's parts, one line each.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct MediaArgs {
    #[command(subcommand)]
    pub command: MediaCommand,
}

#[derive(Debug, Subcommand)]
pub enum MediaCommand {
    /// Write small valid media files, each stamped with its own nonce
    /// (`<nonce>-p<N>`, N its position in --kinds), and list them.
    Export(MediaExportArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MediaKindArg {
    Png,
    Jpeg,
    Webp,
    Wav,
    Mp3,
    Pdf,
}

#[derive(Debug, Args)]
pub struct MediaExportArgs {
    /// Directory to write into (created if missing; files of the same name are replaced).
    pub dir: PathBuf,
    /// Which files, in this order (the order a client should send them in).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "png,jpeg,webp,wav,mp3,pdf"
    )]
    pub kinds: Vec<MediaKindArg>,
    /// Base nonce (letters, digits, `-`, `_`; at most 64); default: a random one.
    #[arg(long, value_name = "NONCE")]
    pub nonce: Option<String>,
}

#[derive(Debug, Args)]
pub struct McpServerArgs {
    /// Append every message received and sent to this file, one JSON line each (how a
    /// run tells "the tool was never called" from "the medium was lost").
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Where files named by `resource_link` results are written (default: a fresh
    /// temporary folder, removed when the server ends).
    #[arg(long, value_name = "DIR")]
    pub files: Option<PathBuf>,
    /// Serve streamable HTTP at ADDR (`127.0.0.1:0` picks a port) instead of stdio; the
    /// URL is printed on stdout.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<std::net::SocketAddr>,
}
