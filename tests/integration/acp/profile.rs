//! The acp profile end to end: the built binary against the reference ACP agent
//! (`--target reference`: this binary's `serve-reference --profile acp`, one process
//! per run), with and without a witness, and `--target-env` values kept out of reports.

use crate::common::{self, run};

fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("acp", extra)
}

#[test]
fn with_a_witness_the_reference_agent_passes_every_case_that_applies() {
    let r = reference(&["--witness", "127.0.0.1:0"]);
    assert_eq!(r.code, 0, "{}", r.context());
    for outcome in ["fail", "warn", "blocked", "error"] {
        assert!(r.ids_with(outcome).is_empty(), "{outcome}: {}", r.context());
    }
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "acp.delivery[image/png]")
        .unwrap();
    assert_eq!(case["outcome"], "pass", "{case}");
    assert!(
        case["model_calls"]
            .as_array()
            .is_some_and(|c| !c.is_empty()),
        "{case}"
    );
    // Tool media: the agent was given the MCP server, its model called the tool, and
    // the medium reached the model (judged, not merely a turn that ended).
    let tool_cases: Vec<_> = r
        .cases()
        .into_iter()
        .filter(|c| {
            c["id"]
                .as_str()
                .is_some_and(|id| id.starts_with("acp.tool-media."))
        })
        .collect();
    assert_eq!(tool_cases.len(), 9, "{}", r.context());
    for case in tool_cases {
        assert_eq!(case["outcome"], "pass", "{case}");
        let judged = case["assertions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["check"] == "tool.delivery")
            .unwrap_or_else(|| panic!("no tool.delivery: {case}"));
        assert!(
            judged["actual"].as_str().unwrap().starts_with("intact"),
            "{case}"
        );
        let calls = case["model_calls"].as_array().unwrap();
        assert!(
            calls.len() >= 2,
            "the tool call and the call after it: {case}"
        );
        assert!(calls.iter().all(|c| c["model"].is_string()), "{case}");
    }
}

#[test]
fn without_a_witness_delivery_is_blocked_with_the_reason() {
    let r = reference(&[]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(r.outcome("acp.text"), "pass", "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "acp.delivery[audio/wav]")
        .unwrap();
    assert_eq!(case["outcome"], "blocked");
    assert!(
        case["reason"].as_str().unwrap().contains("--witness"),
        "{case}"
    );
}

#[test]
fn a_target_env_value_never_appears_in_the_output() {
    let secret = "acp-secret-value-0192837465";
    let env = format!("MY_AGENT_KEY={secret}");
    let r = common::run(&[
        "--profile",
        "acp",
        "--target-cmd",
        "sh -c 'echo \"key is $MY_AGENT_KEY, model $ANTHROPIC_MODEL\" >&2; exit 3'",
        "--target-env",
        &env,
        "--target-env",
        "ANTHROPIC_MODEL=claude-test-model-7",
        "--timeout",
        "2",
        "--filter",
        "acp.initialize",
    ]);
    let everything = format!(
        "{}{}{}",
        r.stdout,
        r.stderr,
        r.report.as_ref().map(|v| v.to_string()).unwrap_or_default()
    );
    assert!(everything.contains("key is"), "{}", r.context());
    assert!(!everything.contains(secret), "{}", r.context());
    assert!(everything.contains("MY_AGENT_KEY"), "{}", r.context());
    // A model name is no secret: the report must name the model (here in the rerun
    // command, printed whether or not the agent's stderr was read before it exited).
    assert!(
        everything.contains("ANTHROPIC_MODEL=claude-test-model-7"),
        "{}",
        r.context()
    );
}

#[test]
fn the_gateway_method_points_the_agents_model_at_the_witness() {
    // The agent's own model URL is a closed port; only the gateway's baseUrl (the
    // witness, sent in authenticate's _meta) can make delivery pass.
    let agent = format!(
        "{} serve-reference --profile acp --upstream http://127.0.0.1:9",
        env!("CARGO_BIN_EXE_mmconform")
    );
    let r = run(&[
        "--profile",
        "acp",
        "--target-cmd",
        &agent,
        "--acp-auth",
        "gateway",
        "--witness",
        "127.0.0.1:0",
        "--filter",
        "acp.initialize or acp.delivery*",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(
        r.outcome("acp.delivery[image/png]"),
        "pass",
        "{}",
        r.context()
    );
    let init = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "acp.initialize")
        .unwrap();
    assert!(init.to_string().contains("_meta.gateway.baseUrl"), "{init}");
}
