//! Hostile programs on stdio (AgentRuntime bridges, ACP agents) whose output is cheap
//! to write and dear to parse: every frame goes through the same JSON bound as an HTTP
//! body, and a line is kept only as what is judged of it, so memory stays flat however
//! many bridges run at once (`-j`). Measured like the rest of the battery
//! (`make hostile-numbers`); the bound here guards against parse blow-up (hundreds of
//! MiB before), with room for machines with more cores than this one.

use crate::common::hostile_target;
use crate::measure::run_measured;
use std::time::Duration;

/// Peak memory a stdio run may reach (each of `-j` bridges may hold a 4 MiB line).
const STDIO_MEMORY_BOUND_KIB: i64 = 150 * 1024;

/// A bridge that describes itself faithfully (so every case runs), then does `then`
/// for every execute.
fn bridge(dir: &std::path::Path, then: &str) -> String {
    let body = format!(
        r#"read line
case "$line" in
*describe*) echo '{{"mediaCapabilities":{{"acceptsInbound":["image/","audio/","application/pdf"],"emitsOutbound":false}}}}'; exit 0;;
esac
{then}
"#
    );
    hostile_target::script(dir, "bridge.sh", &body)
}

/// One line of about 4 MB: two million numbers (inside the per-line cap).
const TWO_MILLION_NUMBERS: &str =
    r#"printf '['; yes '0,' | head -n 1999999 | tr -d '\n'; echo '0]'"#;

/// `done`, then lines of 800 numbers each until a bound stops the reading.
const FLOOD_AFTER_DONE: &str = r#"echo '{"type":"done","result":{"text":"","sessionId":"s","durationMs":1,"aborted":false}}'
yes "[$(yes '0,' | head -n 799 | tr -d '\n')0]""#;

/// The describe case and the twelve image deliveries: more bridges than `-j 8` runs at once.
fn agentruntime(name: &str, command: &str, jobs: &str) -> crate::measure::Measured {
    run_measured(
        name,
        &[
            "--filter",
            "agentruntime.describe or id(agentruntime.delivery?image*)",
            "--profile",
            "agentruntime",
            "--target-cmd",
            command,
            "--witness",
            "127.0.0.1:0",
            "--witness-wait",
            "0",
            "--timeout",
            "20",
            "-j",
            jobs,
        ],
        &[],
    )
}

#[test]
fn a_line_of_two_million_numbers_is_not_parsed_at_any_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let command = bridge(dir.path(), TWO_MILLION_NUMBERS);
    for jobs in ["2", "8"] {
        let r = agentruntime(&format!("two-million-numbers-j{jobs}"), &command, jobs);
        r.assert_survived_within(Duration::from_secs(80), STDIO_MEMORY_BOUND_KIB);
        let case = r
            .cases()
            .into_iter()
            .find(|c| c["id"] == "agentruntime.delivery[image/png,base64]")
            .unwrap();
        assert_eq!(case["outcome"], "blocked", "{case}");
        assert_eq!(r.ids_with("fail"), Vec::<String>::new(), "{}", r.context());
        assert!(
            case["reason"].as_str().unwrap().contains("memory bound"),
            "{case}"
        );
    }
}

#[test]
fn a_flood_after_done_stays_small_at_the_default_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let command = bridge(dir.path(), FLOOD_AFTER_DONE);
    let r = agentruntime("flood-after-done-j8", &command, "8");
    r.assert_survived_within(Duration::from_secs(80), STDIO_MEMORY_BOUND_KIB);
    assert_eq!(
        r.ids_with("pass"),
        ["agentruntime.describe"],
        "{}",
        r.context()
    );
}

#[test]
fn a_wide_acp_initialize_answer_is_not_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"read line
printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{},"wide":['
yes '0,' | head -n 1999999 | tr -d '\n'; echo '0]}}'
cat >/dev/null
"#;
    let command = hostile_target::script(dir.path(), "agent.sh", body);
    let r = run_measured(
        "acp-wide-initialize",
        &[
            "--profile",
            "acp",
            "--target-cmd",
            &command,
            "--timeout",
            "5",
        ],
        &[],
    );
    r.assert_survived_within(Duration::from_secs(60), STDIO_MEMORY_BOUND_KIB);
    assert_eq!(r.outcome("acp.initialize"), "blocked", "{}", r.context());
    assert_eq!(r.outcome("acp.text"), "blocked", "{}", r.context());
}
