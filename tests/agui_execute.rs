//! `runner::execute` driven as calibration drives it: an agui `RunConfig` whose target
//! is the embedded agent, faithful and with each fault, events collected from the sink.
//! No CLI preparation is needed (the runner adds the agent's media URL and file ids).

use mmconform::config::{Output, Profile, RunConfig, Target};
use mmconform::event::Event;
use mmconform::outcome::{CaseResult, Outcome};
use mmconform::profile::openwop::Dialect;
use mmconform::reference::agui::{self, AgentConfig, AguiFault};
use mmconform::runner::{self, ResolvedTarget};
use mmconform::scenario::checks::CheckOptions;
use mmconform::scenario::suite::{SuiteOptions, load_suite};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

fn config(agent: AgentConfig) -> RunConfig {
    RunConfig {
        profile: Profile::Agui(agent.declaration.clone()),
        target: Target::AguiReference(agent),
        token: None,
        headers: vec![],
        timeout: Duration::from_secs(10),
        concurrency: 4,
        filters: vec![],
        filter_text: vec![],
        strict: false,
        require: false,
        opted_out_profiles: vec![],
        dialect: Dialect::Spec,
        openwop_major: 1,
        media_base_url: None,
        media_refs: BTreeMap::new(),
        max_probe_bytes: 1 << 20,
        max_response_bytes: 4 << 20,
        schemas_dir: None,
        output: Output {
            junit: None,
            report: None,
            color: false,
            progress: false,
            verbose: false,
        },
    }
}

async fn execute(fault: Option<AguiFault>) -> (i32, Vec<CaseResult>) {
    let agent = AgentConfig {
        fault,
        ..AgentConfig::default()
    };
    let running = agui::spawn(agent.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let base_url = agui::endpoint_url(&running);
    let suite = load_suite(&SuiteOptions {
        include_builtin: true,
        paths: vec![],
        checks: CheckOptions {
            context_roots: mmconform::profile::context_vocabulary(),
            allow_external_probe_urls: false,
        },
    })
    .unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let target = ResolvedTarget {
        label: format!("reference agent ({base_url})"),
        base_url,
    };
    let output = runner::execute(Arc::new(config(agent)), Arc::new(suite), target, tx).await;
    let mut cases = Vec::new();
    while let Some(event) = rx.recv().await {
        if let Event::CaseFinished { result, .. } = event {
            cases.push(*result);
        }
    }
    running.shutdown().await;
    (output.summary.exit_code, cases)
}

fn failed_assertion(cases: &[CaseResult]) -> Vec<&str> {
    cases
        .iter()
        .filter(|c| c.assertions.iter().any(|a| !a.passed))
        .map(|c| c.id.as_str())
        .collect()
}

#[tokio::test]
async fn execute_drives_the_agui_reference_with_and_without_faults() {
    let (code, faithful) = execute(None).await;
    assert_eq!(code, 0);
    assert!(faithful.iter().all(|c| c.id.starts_with("agui.")));
    let passed: Vec<&CaseResult> = faithful
        .iter()
        .filter(|c| c.outcome == Outcome::Pass)
        .collect();
    assert!(passed.len() >= 30, "{}", passed.len());
    assert!(passed.iter().all(|c| c.stream.is_some()));
    // url and file positives ran with no CLI preparation.
    for id in [
        "agui.accept.url[image,image/png]",
        "agui.accept.file[audio]",
    ] {
        assert!(passed.iter().any(|c| c.id == id), "{id} did not pass");
    }
    for fault in AguiFault::all() {
        let (_, cases) = execute(Some(*fault)).await;
        assert!(
            !failed_assertion(&cases).is_empty(),
            "{fault} is caught by no case"
        );
    }
}
