//! The CLI runtimes of `examples/agentruntime/runtimes/` (Claude Code, Gemini CLI,
//! Codex), each loaded by the Node bridge and driving a fake CLI of the same name on
//! PATH (`tests/fixtures/agentruntime/fake-cli.mjs`). What each hands its CLI is what
//! decides whether media reach the model, so that is what is checked: the argv, the
//! stdin payload, the model settings mapped from `MMCONFORM_WITNESS_URL`, and the bytes
//! of every file the CLI is pointed at. No closed-source binary runs here.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What one bridge run printed, and what the fake CLI recorded.
struct Ran {
    events: Vec<Value>,
    record: Value,
}

impl Ran {
    fn argv(&self) -> Vec<&str> {
        self.record["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect()
    }

    fn done(&self) -> &Value {
        let last = self.events.last().expect("no event line");
        assert_eq!(last["type"], "done", "{:?}", self.events);
        &last["result"]
    }

    /// The bytes of the file the CLI was pointed at by `arg` (`--image P`, `@P`).
    fn file(&self, path: &str) -> Vec<u8> {
        let b64 = self.record["files"][path]
            .as_str()
            .unwrap_or_else(|| panic!("{path} was not readable by the CLI: {}", self.record));
        STANDARD.decode(b64).unwrap()
    }
}

/// Runs `node bridge.mjs runtimes/<module>.mjs [EXPORT]` (`runtime` is `module` or
/// `module EXPORT`) with a fake `cli` first on PATH.
fn bridge(runtime: &str, cli: &str, request: Value, fail: bool) -> Ran {
    let (module, export) = runtime.split_once(' ').unwrap_or((runtime, ""));
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = repo().join("tests/fixtures/agentruntime/fake-cli.mjs");
    let script = bin.join(cli);
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec node '{}' {cli} \"$@\"\n", fake.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let record = dir.path().join("record.json");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let examples = repo().join("examples/agentruntime");
    let mut command = Command::new("node");
    command
        .arg(examples.join("bridge.mjs"))
        .arg(examples.join("runtimes").join(format!("{module}.mjs")))
        .args((!export.is_empty()).then_some(export))
        .current_dir(dir.path())
        .env("PATH", path)
        .env("FAKE_CLI_RECORD", &record)
        .env("MMCONFORM_WITNESS_URL", "http://127.0.0.1:9/v1")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("GEMINI_API_KEY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if fail {
        command.env("FAKE_CLI_FAIL", "1");
    }
    let mut child = command.spawn().expect("node starts");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{request}").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "bridge exit {:?}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let events = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    let record = std::fs::read_to_string(&record)
        .map(|r| serde_json::from_str(&r).unwrap())
        .unwrap_or(Value::Null);
    Ran { events, record }
}

fn media(mime: &str, nonce: &str, form: &str, dir: &Path) -> (Value, Vec<u8>) {
    let bytes = mmconform_media::generate(mime, nonce);
    let mut item = json!({"mimeType": mime, "fileName": format!("{nonce}.bin")});
    if form != "filePath" {
        item["base64"] = json!(STANDARD.encode(&bytes));
    }
    if form != "base64" {
        let path = dir.join(nonce);
        std::fs::write(&path, &bytes).unwrap();
        item["filePath"] = json!(path.to_string_lossy());
    }
    (item, bytes)
}

fn skip_without_node() -> bool {
    if node_available() {
        return false;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "node is not installed, and CI=true: the CLI runtime tests must run on CI"
    );
    eprintln!("skipped: node is not installed (the CLI runtimes need Node 20+)");
    true
}

#[test]
fn claude_code_gets_base64_blocks_on_stdin_and_the_witness_as_its_anthropic_base_url() {
    if skip_without_node() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (png, png_bytes) = media("image/png", "n-png", "base64", dir.path());
    let (pdf, pdf_bytes) = media("application/pdf", "n-pdf", "filePath", dir.path());
    let (wav, _) = media("audio/wav", "n-wav", "both", dir.path());
    let request =
        json!({"op": "execute", "params": {"prompt": "look n1", "media": [png, pdf, wav]}});
    let ran = bridge("claude-code", "claude", request, false);
    let argv = ran.argv();
    for flag in ["-p", "--input-format", "--output-format", "--verbose"] {
        assert!(argv.contains(&flag), "{flag} missing from {argv:?}");
    }
    assert!(
        !argv.contains(&"look n1"),
        "the prompt goes on stdin with the media"
    );
    let message: Value =
        serde_json::from_str(ran.record["stdin"].as_str().unwrap().trim()).unwrap();
    assert_eq!(message["type"], "user");
    let content = message["message"]["content"].as_array().unwrap();
    // The PNG as an image block, the PDF (read from its file) as a document block, the
    // WAV (not accepted) left out, the prompt last.
    assert_eq!(content.len(), 3, "{content:?}");
    assert_eq!(content[0]["type"], "image");
    assert_eq!(
        STANDARD
            .decode(content[0]["source"]["data"].as_str().unwrap())
            .unwrap(),
        png_bytes
    );
    assert_eq!(content[1]["type"], "document");
    assert_eq!(content[1]["source"]["media_type"], "application/pdf");
    assert_eq!(
        STANDARD
            .decode(content[1]["source"]["data"].as_str().unwrap())
            .unwrap(),
        pdf_bytes
    );
    assert_eq!(content[2], json!({"type": "text", "text": "look n1"}));
    assert_eq!(
        ran.record["env"]["ANTHROPIC_BASE_URL"],
        "http://127.0.0.1:9"
    );
    assert_eq!(
        ran.events[0],
        json!({"type": "text", "text": "fake claude reply"})
    );
    assert_eq!(ran.done()["sessionId"], "claude-session-1");
    assert_eq!(ran.done()["text"], "fake claude reply");

    let resume =
        json!({"op": "execute", "params": {"prompt": "again", "sessionId": "claude-session-1"}});
    let ran = bridge("claude-code", "claude", resume, false);
    let argv = ran.argv();
    let at = argv
        .iter()
        .position(|a| *a == "--resume")
        .expect("--resume");
    assert_eq!(argv[at + 1], "claude-session-1");
    assert_eq!(argv[argv.len() - 2..], ["--print", "again"]);
}

#[test]
fn gemini_cli_gets_at_paths_in_the_prompt_and_the_witness_as_its_gemini_base_url() {
    if skip_without_node() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (png, png_bytes) = media("image/png", "g-png", "base64", dir.path());
    let (wav, wav_bytes) = media("audio/wav", "g-wav", "filePath", dir.path());
    let request = json!({"op": "execute", "params": {"prompt": "listen n2", "media": [png, wav], "sessionId": "gemini-session-0"}});
    let ran = bridge("gemini-cli", "gemini", request, false);
    let argv = ran.argv();
    let at = argv
        .iter()
        .position(|a| *a == "--prompt")
        .expect("--prompt");
    let prompt = argv[at + 1];
    let refs: Vec<&str> = prompt.split(' ').filter(|w| w.starts_with('@')).collect();
    assert_eq!(refs.len(), 2, "{prompt}");
    assert!(prompt.ends_with(" listen n2"), "{prompt}");
    assert_eq!(ran.file(&refs[0][1..]), png_bytes);
    assert_eq!(ran.file(&refs[1][1..]), wav_bytes);
    assert!(
        refs[0].ends_with(".png") && refs[1].ends_with(".wav"),
        "{refs:?}"
    );
    let resume = argv
        .iter()
        .position(|a| *a == "--resume")
        .expect("--resume");
    assert_eq!(argv[resume + 1], "gemini-session-0");
    assert_eq!(
        ran.record["env"]["GOOGLE_GEMINI_BASE_URL"],
        "http://127.0.0.1:9"
    );
    assert_eq!(ran.done()["text"], "fake gemini reply");
    // The runtime's temporary copies are gone once the run is over.
    assert!(!Path::new(&refs[0][1..]).exists());
    assert!(refs[0].starts_with(&format!("@{}", std::env::temp_dir().display())));
}

#[test]
fn gemini_cli_in_workspace_writes_the_media_inside_the_working_directory() {
    if skip_without_node() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (png, png_bytes) = media("image/png", "w-png", "base64", dir.path());
    let request = json!({"op": "execute", "params": {"prompt": "look", "media": [png], "workingDirectory": dir.path()}});
    let ran = bridge("gemini-cli inWorkspace", "gemini", request, false);
    let argv = ran.argv();
    let prompt = argv[argv.iter().position(|a| *a == "--prompt").unwrap() + 1];
    let path = prompt.split(' ').next().unwrap().trim_start_matches('@');
    assert!(
        Path::new(path).starts_with(dir.path().canonicalize().unwrap())
            || Path::new(path).starts_with(dir.path()),
        "{path} is not inside {}",
        dir.path().display()
    );
    assert_eq!(ran.file(path), png_bytes);
}

#[test]
fn codex_gets_image_flags_after_the_prompt_and_the_witness_as_a_responses_provider() {
    if skip_without_node() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (png, png_bytes) = media("image/png", "c-png", "base64", dir.path());
    let (jpeg, jpeg_bytes) = media("image/jpeg", "c-jpeg", "filePath", dir.path());
    let (pdf, _) = media("application/pdf", "c-pdf", "both", dir.path());
    let request =
        json!({"op": "execute", "params": {"prompt": "see n3", "media": [png, jpeg, pdf]}});
    let ran = bridge("codex", "codex", request, false);
    let argv = ran.argv();
    assert_eq!(argv[0], "exec");
    let prompt = argv
        .iter()
        .position(|a| *a == "see n3")
        .expect("the prompt");
    let images: Vec<usize> = (0..argv.len()).filter(|i| argv[*i] == "--image").collect();
    assert_eq!(
        images.len(),
        2,
        "two images, the PDF not accepted: {argv:?}"
    );
    assert!(
        images.iter().all(|i| *i > prompt),
        "--image takes several values: the prompt must come first: {argv:?}"
    );
    assert_eq!(ran.file(argv[images[0] + 1]), png_bytes);
    assert_eq!(ran.file(argv[images[1] + 1]), jpeg_bytes);
    let provider = argv
        .iter()
        .find(|a| a.starts_with("model_providers.mmconform="))
        .expect("a provider");
    assert!(
        provider.contains(r#"base_url="http://127.0.0.1:9/v1""#),
        "{provider}"
    );
    assert!(provider.contains(r#"wire_api="responses""#), "{provider}");
    assert_eq!(ran.done()["sessionId"], "codex-thread-1");
    assert_eq!(ran.done()["text"], "fake codex reply");

    let resume =
        json!({"op": "execute", "params": {"prompt": "more", "sessionId": "codex-thread-1"}});
    let ran = bridge("codex", "codex", resume, false);
    assert_eq!(ran.argv()[..3], ["exec", "resume", "codex-thread-1"]);
}

#[test]
fn a_failing_cli_is_an_error_event_before_done_and_describe_declares_each_runtime() {
    if skip_without_node() {
        return;
    }
    for (runtime, cli, accepts) in [
        (
            "claude-code",
            "claude",
            json!(["image/", "application/pdf"]),
        ),
        (
            "gemini-cli",
            "gemini",
            json!(["image/", "audio/", "video/", "application/pdf"]),
        ),
        ("codex", "codex", json!(["image/"])),
    ] {
        let ran = bridge(
            runtime,
            cli,
            json!({"op": "execute", "params": {"prompt": "x"}}),
            true,
        );
        assert_eq!(ran.events.len(), 2, "{runtime}: {:?}", ran.events);
        assert_eq!(ran.events[0]["type"], "error");
        assert_eq!(ran.events[0]["code"], "CLI_STDERR");
        assert!(
            ran.events[0]["message"]
                .as_str()
                .unwrap()
                .contains("no credentials")
        );
        assert_eq!(ran.done()["aborted"], false);
        let described = bridge(runtime, cli, json!({"op": "describe"}), false);
        assert_eq!(
            described.events[0]["mediaCapabilities"]["acceptsInbound"],
            accepts
        );
        assert_eq!(
            described.record,
            Value::Null,
            "describe does not start the CLI"
        );
    }
}
