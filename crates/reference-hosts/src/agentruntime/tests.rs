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

fn outbound(fault: Option<RuntimeFault>, dir: &std::path::Path) -> RuntimeConfig {
    RuntimeConfig {
        emits_outbound: true,
        outbound_dir: Some(dir.to_path_buf()),
        ..quick(fault)
    }
}

fn media_events(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == "media")
        .map(|l| l["media"].clone())
        .collect()
}

#[tokio::test]
async fn declared_outbound_media_are_a_file_and_inline_bytes_listed_in_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let config = outbound(None, dir.path());
    assert_eq!(
        config.describe()["mediaCapabilities"]["emitsOutbound"],
        true
    );
    let (lines, _, code) = run_lines(&config, execute("draw")).await;
    assert_eq!(code, 0);
    let media = media_events(&lines);
    assert_eq!(media.len(), 2);
    let file = std::fs::read(media[0]["filePath"].as_str().unwrap()).unwrap();
    assert_eq!(mmconform_media::sniff_mime(&file), Some("image/png"));
    let inline = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        media[1]["base64"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(mmconform_media::sniff_mime(&inline), Some("image/jpeg"));
    assert_eq!(media[1]["mimeType"], "image/jpeg");
    assert_eq!(lines.last().unwrap()["result"]["media"], json!(media));
}

#[tokio::test]
async fn each_outbound_fault_spoils_one_thing() {
    let spoiled = |fault| async move {
        let dir = tempfile::tempdir().unwrap();
        let (lines, _, _) = run_lines(&outbound(Some(fault), dir.path()), execute("x")).await;
        let media = media_events(&lines);
        let file_exists = std::path::Path::new(media[0]["filePath"].as_str().unwrap()).exists();
        (
            media,
            lines.last().unwrap()["result"]["media"].clone(),
            file_exists,
        )
    };
    let (media, _, _) = spoiled(RuntimeFault::OutboundWithoutMime).await;
    assert!(media[0].get("mimeType").is_none());
    let (_, _, exists) = spoiled(RuntimeFault::OutboundFileMissing).await;
    assert!(!exists);
    let (media, _, _) = spoiled(RuntimeFault::OutboundBadBase64).await;
    assert_eq!(media[1]["base64"], "this is not base64: %%%");
    let (media, _, exists) = spoiled(RuntimeFault::OutboundMislabelled).await;
    assert_eq!(media[1]["mimeType"], "image/png");
    assert!(exists);
    let (media, result, _) = spoiled(RuntimeFault::ResultMediaNotList).await;
    assert_eq!(result, media[0]);
}
