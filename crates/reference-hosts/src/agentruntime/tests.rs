use super::*;
use serde_json::json;

async fn run_lines(config: &RuntimeConfig, request: Value) -> (Vec<Value>, Vec<String>, i32) {
    let mut raw = Vec::new();
    let code = serve(
        config,
        &request.to_string(),
        &mut |l| raw.push(l),
        std::future::pending(),
    )
    .await;
    let parsed = raw
        .iter()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (parsed, raw, code)
}

fn quick(fault: Option<RuntimeFault>) -> RuntimeConfig {
    RuntimeConfig {
        think: Duration::ZERO,
        ..RuntimeConfig::new(fault, None)
    }
}

fn execute(prompt: &str) -> Value {
    json!({"op": "execute", "params": {"prompt": prompt}})
}

#[tokio::test]
async fn describe_declares_the_media_capabilities() {
    let (lines, _, code) = run_lines(&quick(None), json!({"op": "describe"})).await;
    assert_eq!(code, 0);
    assert_eq!(
        lines[0]["mediaCapabilities"]["acceptsInbound"],
        json!(DEFAULT_ACCEPTS)
    );
    assert_eq!(lines[0]["mediaCapabilities"]["emitsOutbound"], false);
    let (bad, _, _) = run_lines(
        &quick(Some(RuntimeFault::MalformedCapabilities)),
        json!({"op": "describe"}),
    )
    .await;
    assert_eq!(bad[0]["mediaCapabilities"]["acceptsInbound"][0], "image");
}

#[tokio::test]
async fn a_run_ends_with_exactly_one_done_last() {
    let (lines, raw, code) = run_lines(&quick(None), execute("hello")).await;
    assert_eq!(code, 0);
    assert_eq!(lines.len(), raw.len(), "every line is JSON");
    let dones: Vec<&Value> = lines.iter().filter(|l| l["type"] == "done").collect();
    assert_eq!(dones.len(), 1);
    assert_eq!(lines.last().unwrap()["type"], "done");
    let result = &dones[0]["result"];
    assert!(result["sessionId"].is_string() && result["durationMs"].is_number());
    assert_eq!(result["aborted"], false);
}

#[tokio::test]
async fn each_framing_fault_breaks_its_rule() {
    let count_dones = |l: &[Value]| l.iter().filter(|l| l["type"] == "done").count();
    let (l, _, _) = run_lines(&quick(Some(RuntimeFault::NoDone)), execute("x")).await;
    assert_eq!(count_dones(&l), 0);
    let (l, _, _) = run_lines(&quick(Some(RuntimeFault::TwoDones)), execute("x")).await;
    assert_eq!(count_dones(&l), 2);
    let (l, raw, _) = run_lines(&quick(Some(RuntimeFault::NonJsonLine)), execute("x")).await;
    assert_eq!(l.len() + 1, raw.len());
    let (_, _, code) = run_lines(&quick(Some(RuntimeFault::ExitsOneAfterDone)), execute("x")).await;
    assert_eq!(code, 1);
}

#[tokio::test]
async fn sigterm_ends_the_run_with_an_aborted_done() {
    let config = RuntimeConfig {
        think: Duration::from_secs(30),
        ..RuntimeConfig::new(None, None)
    };
    let mut raw = Vec::new();
    let code = serve(
        &config,
        &execute("x").to_string(),
        &mut |l| raw.push(l),
        async {},
    )
    .await;
    assert_eq!(code, 0);
    let last: Value = serde_json::from_str(raw.last().unwrap()).unwrap();
    assert_eq!(last["result"]["aborted"], true);
}

#[test]
fn accepts_reads_prefixes_and_full_types() {
    let config = quick(None);
    assert!(config.accepts_mime("image/webp"));
    assert!(config.accepts_mime("audio/wav"));
    assert!(!config.accepts_mime("audio/mpeg"));
    assert!(config.accepts_mime("application/pdf"));
    assert!(!config.accepts_mime("video/mp4"));
}
