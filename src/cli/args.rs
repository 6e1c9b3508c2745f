//! Command-line definitions (clap). Only `cli::resolve` turns these into configuration;
//! nothing downstream of the CLI module reads them.

use super::help_text::{profile_values, run_after_help, serve_values, target_help, token_env_help};
use super::protocol_flags::ProtocolFlags;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

// `run --help` sections.
const TARGET: &str = "Target";
const SELECTION: &str = "Selection";
const VERDICT: &str = "Verdict";
const REPORTS: &str = "Reports";
const LIMITS: &str = "Limits";
const TLS: &str = "TLS";
const WITNESS: &str = "Witness";

#[derive(Debug, Parser)]
#[command(
    name = "mmconform",
    version,
    about = "Conformance tester for multimodal input (text, image, audio, document) to AI agent hosts",
    after_help = crate::exit::contract_text()
)]
pub struct Cli {
    /// When to colour terminal output (NO_COLOR is honoured in `auto`).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, global = true)]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

/// `--annotations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AnnotationsArg {
    /// GitHub workflow commands: `::error` per failed case, `::warning` per warned one.
    Github,
    /// None.
    None,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Human,
    Json,
}

// Parsed once per process and matched at once: the size of its largest variant costs
// nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe a host's discovery document and run every applicable case.
    #[command(after_help = run_after_help())]
    Run(RunArgs),
    /// List every case; with --target, whether it would run or skip and why.
    List(ListArgs),
    /// Validate scenario files without touching the network.
    Lint(LintArgs),
    /// Run the embedded reference host.
    ServeReference(ServeArgs),
    /// Write a baseline of known failures from a JSON report.
    Baseline(BaselineArgs),
    /// Re-check a JSON report against its schema and hashes (exit 1 when tampered with).
    Verify(VerifyArgs),
    /// Print the request(s) one case of a saved JSON report sent, as curl commands to
    /// send again (secrets as shell variables), saying when a body is not whole there.
    Replay(ReplayArgs),
    /// Prove every case can fail: run the suite against the faithful reference host and
    /// each single-fault variant, and report vacuous cases and blind spots.
    Calibrate(CalibrateArgs),
    /// Merge verified reports of many hosts into one matrix, and judge an RFC's
    /// promotion criteria on them.
    Evidence(EvidenceArgs),
    /// Serve a mock model endpoint (OpenAI Chat Completions and Responses, Anthropic
    /// Messages, Gemini generateContent) and judge every call a client or host sends it
    /// against the wire rules.
    Witness(WitnessArgs),
    /// Stamped media files for checking a client by hand with `mmconform witness`.
    Media(MediaArgs),
    /// The MCP server a tool-media case hands an agent (stdio, or streamable HTTP on
    /// loopback): one tool returning a stamped image, sound, document, link or text.
    McpServer(McpServerArgs),
    /// Print a shell completion script: `mmconform completions bash > ~/.local/share/bash-completion/completions/mmconform`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff): `mmconform man | man -l -`, `mmconform man run`.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command's own page (`mmconform-run(1)`); the page of mmconform itself when absent.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// How to reach a target (shared by `run` and `list`).
#[derive(Debug, Args)]
pub struct TargetArgs {
    #[arg(long, value_name = "URL|reference", help = target_help(), help_heading = TARGET)]
    pub target: Option<String>,
    /// agentruntime: the bridge to start once per request; acp: the agent, started once
    /// per run (`'gemini --acp'`). Split as a shell would (`'node bridge.mjs ./runtime.mjs'`)
    /// and run without one.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with = "target", help_heading = TARGET)]
    pub target_cmd: Option<String>,
    /// agentruntime: the bridge's working directory (default: a fresh temporary one per run).
    #[arg(long, value_name = "DIR", requires = "target_cmd", help_heading = TARGET)]
    pub target_cwd: Option<PathBuf>,
    /// agentruntime, acp: a variable for the started program (repeatable): NAME=VALUE sets
    /// it (the value is redacted in every output, but a model name's: `*_MODEL`), NAME passes this environment's value
    /// on. The program otherwise gets only an allow-list of this environment (PATH, HOME,
    /// locale, XDG_*, Node's, the agent CLIs' settings folders; see the guide's security page).
    #[arg(long = "target-env", value_name = "NAME[=VALUE]", help_heading = TARGET)]
    pub target_env: Vec<String>,
    /// agentruntime, acp: a variable removed from the started program's environment (repeatable).
    #[arg(long = "target-unset", value_name = "NAME", help_heading = TARGET)]
    pub target_unset: Vec<String>,
    /// agentruntime, acp: the started program inherits all of this environment, not the
    /// allow-list (secret-looking values are still masked in every output).
    #[arg(long, help_heading = TARGET)]
    pub target_inherit_env: bool,
    /// Mask this environment variable's value in every output, as the ones whose names
    /// contain KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH or PRIVATE are
    /// (repeatable; values under 6 characters are not masked).
    #[arg(long = "mask-env", value_name = "NAME", help_heading = TARGET)]
    pub mask_env: Vec<String>,
    /// Wire protocol to test; a run plans only the scenario cases of this profile.
    #[arg(
        long,
        value_parser = profile_values(),
        default_value = crate::registry::default_protocol().name(),
        help_heading = TARGET
    )]
    pub profile: String,
    /// agui, openai: MIME prefixes the agent or model accepts (`image/,audio/wav,application/pdf`);
    /// neither has capability discovery, so this declaration plans the run (openai: none
    /// declares a text-only model).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        conflicts_with = "claims",
        help_heading = TARGET
    )]
    pub accepts: Vec<String>,
    /// agui, openai: a claim file (YAML or JSON) instead of --accepts. agui: accepts,
    /// sources, echo; openai: accepts, sources (data, http, file_id), detail, streaming.
    #[arg(long, value_name = "FILE", help_heading = TARGET)]
    pub claims: Option<PathBuf>,
    #[arg(long, value_name = "VAR", help = token_env_help(), help_heading = TARGET)]
    pub token_env: Option<String>,
    /// File holding the bearer token (first line; wins over --token-env).
    #[arg(long, value_name = "PATH", help_heading = TARGET)]
    pub token_file: Option<PathBuf>,
    /// Extra header sent with every request (repeatable).
    #[arg(long = "header", value_name = "'Name: value'", help_heading = TARGET)]
    pub headers: Vec<String>,
    /// The registered protocols' own options (`--openwop-major`, `--model`, ...).
    #[command(flatten)]
    pub protocol: ProtocolFlags,
    /// Per-request timeout in seconds (connect, headers and body).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, help_heading = LIMITS)]
    pub timeout: f64,
    /// Base URL where the host can fetch `image.png`, `audio.wav`, `document.pdf` (enables url positives).
    #[arg(long, value_name = "URL", help_heading = TARGET)]
    pub media_base_url: Option<String>,
    /// A mediaRef the host resolves per modality, or (agui) a file id the agent resolves
    /// per part kind: enables the mediaRef / file-source positives (repeatable).
    #[arg(long = "media-ref", value_name = "MODALITY=REF", help_heading = TARGET)]
    pub media_refs: Vec<String>,
    /// Case selection, an expression: `id(GLOB)`, `id(=ID)`, `level(MUST)`,
    /// `source(RFC 0091 §A)`, `profile(..)`, `outcome(fail)` (with --from-report), `and`,
    /// `or`, `not`, parentheses; a bare word is an id (exact when it names one, else a
    /// glob or substring), and `level:MUST`, `source:"..."` still work. Repeated: a case
    /// must match every one (AND).
    #[arg(long = "filter", value_name = "EXPR", help_heading = SELECTION)]
    pub filters: Vec<String>,
    /// Extra scenario files or directories (repeatable); a case id equal to a built-in one replaces it.
    #[arg(long = "scenarios", value_name = "DIR|FILE", help_heading = SELECTION)]
    pub scenarios: Vec<PathBuf>,
    /// Use only the scenarios given with --scenarios.
    #[arg(long, help_heading = SELECTION)]
    pub no_builtin: bool,
    /// Judge with the schema files of an openwop checkout (same file names, e.g.
    /// `ai-envelope.schema.json`, `envelopes/error.schema.json`); missing ones fall back to ours.
    #[arg(long = "schemas", value_name = "DIR", help_heading = SELECTION)]
    pub schemas_dir: Option<PathBuf>,
    /// Allow `$media.url` probe URLs that do not point at loopback.
    #[arg(long, help_heading = SELECTION)]
    pub allow_external_probe_urls: bool,
    /// Largest part the maxBytesPerPart probe may send, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024, help_heading = LIMITS)]
    pub max_probe_bytes: u64,
    /// A --header whose value is secret: masked in every output like the token (repeatable).
    #[arg(long = "secret-header", value_name = "NAME", help_heading = TARGET)]
    pub secret_headers: Vec<String>,
    /// Trust only the certificates in this PEM file (like curl's --cacert).
    #[arg(long, value_name = "FILE", help_heading = TLS)]
    pub cacert: Option<PathBuf>,
    /// Do not verify TLS certificates (loud warning, recorded in every report).
    #[arg(long, help_heading = TLS)]
    pub insecure: bool,
    /// Same-origin redirects followed at most; redirects to another origin are never followed.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=20), help_heading = LIMITS)]
    pub max_redirects: u8,
    #[command(flatten)]
    pub reference: ReferenceArgs,
    /// Project file with the options a CI job repeats (target, profile, filters, baseline,
    /// junit, report, strict, require, timeout, concurrency); the command line wins.
    /// Default: $MMCONFORM_CONFIG, else the first mmconform.toml in the current directory
    /// or its parents up to the repository root (the directory holding `.git`).
    #[arg(long, value_name = "FILE", help_heading = "Project file")]
    pub config: Option<PathBuf>,
    /// Where the project file was looked for when none was found, for the message of a
    /// run that has no target (set by `cli::project`, never by clap).
    #[arg(skip)]
    pub looked_for: Option<String>,
}

/// Shape of the embedded host used by `--target reference`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Embedded host (--target reference)")]
pub struct ReferenceArgs {
    /// Modalities the reference host advertises.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "text,image"
    )]
    pub reference_modalities: Vec<String>,
    /// maxBytesPerPart the reference host advertises (0: none).
    #[arg(long, value_name = "BYTES", default_value_t = 65536)]
    pub reference_max_bytes_per_part: u64,
    /// Run the reference host with one deliberate fault (see `serve-reference --list-faults`,
    /// or `serve-reference --profile agui --list-faults` for the AG-UI agent's).
    #[arg(long, value_name = "FAULT")]
    pub reference_fault: Option<String>,
    /// agui: MIME prefixes the reference agent accepts (its own declaration).
    /// Default: image/,audio/wav,application/pdf.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub reference_accepts: Vec<String>,
    /// agentruntime: the reference runtime declares `emitsOutbound: true` and sends
    /// media back with every run.
    #[arg(long)]
    pub reference_emits_outbound: bool,
    /// An OpenAI-compatible base URL (`http://127.0.0.1:4010/v1`) the reference host
    /// forwards to: openwop calls naming `provider: compat`, every AG-UI run. Loopback
    /// only, unless --allow-external-probe-urls.
    #[arg(long, value_name = "URL")]
    pub reference_upstream: Option<String>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Run only the offline cases (schema checks); no target needed.
    #[arg(long, conflicts_with = "target", help_heading = TARGET)]
    pub offline: bool,
    /// Rerun exactly the cases a saved JSON report (`--report`) has failed, errored or
    /// blocked (and any --filter too).
    #[arg(long, value_name = "REPORT", help_heading = SELECTION)]
    pub rerun_failed: Option<PathBuf>,
    /// A saved JSON report whose outcomes `outcome(..)` in --filter is judged on.
    #[arg(long, value_name = "REPORT", conflicts_with = "rerun_failed", help_heading = SELECTION)]
    pub from_report: Option<PathBuf>,
    /// Cases run at once.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256), help_heading = LIMITS)]
    pub concurrency: u16,
    /// SHOULD failures fail the run.
    #[arg(long, help_heading = VERDICT)]
    pub strict: bool,
    /// A requirement none of whose cases ran fails (skipped siblings of an exercised one do not).
    #[arg(long, env = super::environment::REQUIRE_ENV, value_parser = clap::builder::FalseyValueParser::new(), help_heading = VERDICT)]
    pub require: bool,
    /// Conformance profile honestly opted out of (repeatable).
    /// [env: OPENWOP_OPTED_OUT_PROFILES, comma-separated, added to these]
    #[arg(long = "opt-out", value_name = "PROFILE", help_heading = VERDICT)]
    pub opt_out: Vec<String>,
    /// A case --require spares when it only needs what you cannot give (a --media-base-url,
    /// a --media-ref, a token); a case id or glob, as --filter (repeatable).
    #[arg(long = "waive", value_name = "CASE", help_heading = VERDICT)]
    pub waive: Vec<String>,
    /// Write JUnit XML here.
    #[arg(long, value_name = "PATH", help_heading = REPORTS)]
    pub junit: Option<PathBuf>,
    /// Write the JSON evidence report here.
    #[arg(long, value_name = "PATH", help_heading = REPORTS)]
    pub report: Option<PathBuf>,
    /// Write the run as one self-contained HTML page here: the verdict, the counts, and
    /// each failed, warned and blocked case with its checks and what reached the model.
    #[arg(long, value_name = "FILE", help_heading = REPORTS)]
    pub html: Option<PathBuf>,
    /// Write every request the run sent as a hurl file, to send them again with hurl
    /// (`hurl --test --variable token=... FILE`); bodies over 64 KiB go beside it.
    #[arg(long, value_name = "FILE", help_heading = REPORTS)]
    pub export_hurl: Option<PathBuf>,
    /// Known failures (YAML or JSON): listed failures are reported as xfail and do not
    /// fail the run; stale, unmatched or expired entries exit 5.
    #[arg(long, value_name = "FILE", help_heading = VERDICT)]
    pub baseline: Option<PathBuf>,
    /// Largest response body read, in bytes; the rest is dropped and the report says so.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024, help_heading = LIMITS)]
    pub max_response_bytes: usize,
    /// Print the redacted request and response of failing cases.
    #[arg(short, long, help_heading = REPORTS)]
    pub verbose: bool,
    /// Print only the cases that failed, errored or were blocked, and the summary.
    #[arg(short, long, help_heading = REPORTS)]
    pub quiet: bool,
    /// Annotate the CI run: `github` writes an `::error` per failed case and a
    /// `::warning` per warned one (at most 10 of each; the rest counted). Default:
    /// `github` when GITHUB_ACTIONS=true, else `none`.
    #[arg(long, value_enum, value_name = "github|none", help_heading = REPORTS)]
    pub annotations: Option<AnnotationsArg>,
    /// Write the run's verdict as Markdown here (a CI job summary). Under GitHub Actions
    /// it is also appended to $GITHUB_STEP_SUMMARY when this is absent.
    #[arg(long, value_name = "FILE", help_heading = REPORTS)]
    pub github_summary: Option<PathBuf>,
    /// Time bound for the whole run; cases undecided when it passes are blocked.
    #[arg(long, value_name = "SECS", help_heading = LIMITS)]
    pub deadline: Option<f64>,
    /// At most this many requests per second to the target, e.g. `5/s`, `30/m`, `0.5`.
    #[arg(long, value_name = "N/s", help_heading = LIMITS)]
    pub rate: Option<String>,
    /// Retries after no answer or a 429/503 with Retry-After (never after a wrong answer).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=5), help_heading = LIMITS)]
    pub retries: u32,
    /// Start a witness (a mock model endpoint) on ADDR, e.g. `127.0.0.1:0`, before any
    /// case, and record the model calls carrying each case's nonce. With `--target
    /// reference` the embedded host forwards to it.
    #[arg(long, value_name = "ADDR", help_heading = WITNESS)]
    pub witness: Option<std::net::SocketAddr>,
    /// Allow a non-loopback --witness address: whoever reaches it is answered and recorded.
    #[arg(long = "witness-allow-remote", requires = "witness", help_heading = WITNESS)]
    pub witness_allow_remote: bool,
    /// After a case that expects its input to reach the model (`witness: reached`) and was
    /// answered with success, wait at most this long for its model call.
    #[arg(long, value_name = "SECS", default_value_t = 3.0, help_heading = WITNESS)]
    pub witness_wait: f64,
    /// The provider openwop ai/call requests name when a witness runs (RFC 0108's
    /// self-hosted OpenAI-compatible path is `compat`).
    #[arg(long, value_name = "NAME", default_value = "compat", help_heading = WITNESS)]
    pub witness_provider: String,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// The JSON evidence report (`run --report`) whose failures become entries.
    #[arg(long = "from", value_name = "REPORT")]
    pub from: PathBuf,
    /// Write the baseline here (atomically); standard output when absent.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Reason written on every new entry (default: names the report and the failure).
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Expiry date (YYYY-MM-DD) written on every new entry.
    #[arg(long, value_name = "DATE")]
    pub expires: Option<String>,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The JSON evidence report to check.
    pub report: PathBuf,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Extra scenario files or directories to calibrate too (repeatable).
    #[arg(long = "scenarios", value_name = "DIR|FILE")]
    pub scenarios: Vec<PathBuf>,
    /// Calibrate only the scenarios given with --scenarios.
    #[arg(long)]
    pub no_builtin: bool,
    /// Calibrate only the cases these select (same terms as `run --filter`).
    #[arg(long = "filter", value_name = "PATTERN")]
    pub filters: Vec<String>,
    /// Allow `$media.url` probe URLs that do not point at loopback.
    #[arg(long)]
    pub allow_external_probe_urls: bool,
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Also write the full matrix as JSON here (atomically).
    #[arg(long, value_name = "PATH")]
    pub report: Option<PathBuf>,
    /// Host runs at once.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub concurrency: u16,
    /// List every case each fault caught, and every case's faults.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Scenario files or directories; the built-in set when none is given.
    pub paths: Vec<PathBuf>,
    /// Allow `$media.url` probe URLs that do not point at loopback.
    #[arg(long)]
    pub allow_external_probe_urls: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Which reference to serve.
    #[arg(
        long,
        value_parser = serve_values(),
        default_value = crate::registry::serve_forms()[0].0.profile
    )]
    pub profile: String,
    /// agui: MIME prefixes the agent accepts. Default: image/,audio/wav,application/pdf.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub accepts: Vec<String>,
    /// agentruntime: declare `emitsOutbound: true` and send media back with every run
    /// (a PNG as a file, a JPEG inline).
    #[arg(long)]
    pub emits_outbound: bool,
    /// openai: the models to serve. Default: reference-text,reference-multimodal.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub models: Vec<String>,
    /// Port on 127.0.0.1 (0 picks a free one and prints it).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Modalities to advertise (comma-separated subset of text,image,audio,document).
    #[arg(long, value_delimiter = ',', default_value = "text,image")]
    pub modalities: Vec<String>,
    /// maxBytesPerPart to advertise and enforce.
    #[arg(long, value_name = "BYTES")]
    pub max_bytes_per_part: Option<u64>,
    /// limits.maxRequestBodyBytes to advertise and enforce.
    #[arg(long, value_name = "BYTES")]
    pub max_request_body_bytes: Option<u64>,
    /// Require this bearer token on the seams (prefer --token-env).
    #[arg(long, value_name = "T")]
    pub token: Option<String>,
    /// Environment variable holding the bearer token to require.
    #[arg(long, value_name = "VAR")]
    pub token_env: Option<String>,
    /// Break one requirement on purpose.
    #[arg(long, value_name = "FAULT")]
    pub fault: Option<String>,
    /// List the faults and exit.
    #[arg(long)]
    pub list_faults: bool,
    /// An OpenAI-compatible base URL (`http://127.0.0.1:4010/v1`) to forward to: openwop
    /// calls naming `provider: compat`, every AG-UI run, every accepted OpenAI request.
    /// Loopback only, unless --allow-external-probe-urls.
    #[arg(long, value_name = "URL")]
    pub upstream: Option<String>,
    /// openwop: the endpoint the self-hosted provider `compat` is configured with (RFC
    /// 0108; operator configuration, never fetched, never on the wire). The host then
    /// advertises `compat` as self-hosted; a tester sets OPENWOP_TEST_COMPAT_ENDPOINT to it.
    #[arg(long, value_name = "URL")]
    pub self_hosted_endpoint: Option<String>,
    /// Allow an --upstream that does not point at loopback.
    #[arg(long)]
    pub allow_external_probe_urls: bool,
    /// Answer every call (POST) no sooner than MS milliseconds after it arrived, as a
    /// host running a model would (discovery stays immediate). For benchmarks.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub delay_ms: u64,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The JSON evidence report (`run --report`).
    #[arg(value_name = "REPORT")]
    pub report: PathBuf,
    /// The case id, as the report and the terminal name it (`case[image]`).
    #[arg(value_name = "CASE")]
    pub case: String,
}

// The steward's and the client author's commands (evidence, witness, media) have their
// arguments in their own file.
pub use super::args_tools::{
    CriteriaArgs, EvidenceArgs, EvidenceCommand, EvidenceFormat, McpServerArgs, MediaArgs,
    MediaCommand, MediaExportArgs, MediaKindArg, MergeArgs, WitnessArgs,
};
