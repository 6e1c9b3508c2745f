//! One line per systematic cause: a setup mistake that blocks every case (a target
//! without `/v1` or with it twice, a missing token, a bridge that dies before its first
//! line, a target that is a web page) is said once with its fix, under `--quiet` too,
//! and its cases are listed compactly; each case keeps its detail in the JSON report.

use crate::common::served::{serve, serve_with_env};
use crate::common::{RunResult, run, run_with_env};

/// Lines of `text` holding `needle`.
fn lines_with(text: &str, needle: &str) -> usize {
    text.lines().filter(|l| l.contains(needle)).count()
}

/// Every blocked case in the report carries the same cause, and there are `at_least`.
fn one_cause_in_the_report(r: &RunResult, at_least: usize) -> String {
    let blocked: Vec<_> = (r.cases().into_iter())
        .filter(|c| c["outcome"] == "blocked")
        .collect();
    assert!(blocked.len() >= at_least, "{}", r.context());
    let what = blocked[0]["cause"]["what"].as_str().unwrap().to_string();
    for case in &blocked {
        assert_eq!(case["cause"]["what"], what.as_str(), "{}", case["id"]);
    }
    what
}

fn assert_said_once(r: &RunResult, needle: &str) {
    assert_eq!(lines_with(&r.stdout, needle), 1, "{}", r.context());
    let not_skips = r.stdout.lines().filter(|l| !l.starts_with("SKIP ")).count();
    assert!(not_skips < 15, "one cause, a few lines: {}", r.context());
    assert!(!r.stdout.contains("\nBLOCKED openai."), "{}", r.context());
}

#[test]
fn a_target_without_v1_or_with_it_twice_is_one_line_even_under_quiet() {
    let server = serve(&["--profile", "openai"]);
    let base = server.url.trim_end_matches("/v1").to_string();
    let doubled = format!("{}/v1", server.url);
    for target in [base.as_str(), doubled.as_str()] {
        for quiet in [false, true] {
            let mut args = vec![
                "--profile",
                "openai",
                "--target",
                target,
                "--model",
                "reference-multimodal",
                "--accepts",
                "image/,audio/,application/pdf",
            ];
            if quiet {
                args.push("--quiet");
            }
            let r = run(&args);
            assert_eq!(r.code, 3, "{}", r.context());
            let what = one_cause_in_the_report(&r, 20);
            assert!(what.contains("answered 404"), "{what}");
            assert_said_once(&r, "answered 404");
            // Every case that applies is blocked by the one cause, however many the
            // pack holds.
            let cases = r.cases();
            let blocked = cases.iter().filter(|c| c["outcome"] == "blocked").count();
            let skipped = cases.iter().filter(|c| c["outcome"] == "skip").count();
            assert_eq!(blocked + skipped, cases.len(), "{}", r.context());
            assert!(
                r.stdout.contains(&format!("BLOCKED {blocked} cases: POST")),
                "{}",
                r.context()
            );
            assert!(
                r.stdout.contains(&format!(
                    "blocked ({blocked}): {blocked} by the cause above"
                )),
                "{}",
                r.context()
            );
        }
    }
}

#[test]
fn a_missing_token_is_one_line_with_its_fix_even_under_quiet() {
    let host = serve_with_env(&["--token-env", "HOST_TOKEN"], &[("HOST_TOKEN", "t0k")]);
    let r = run(&["--target", &host.url, "--quiet"]);
    assert_eq!(r.code, 3, "{}", r.context());
    let what = one_cause_in_the_report(&r, 100);
    assert!(what.starts_with("authentication refused"), "{what}");
    let block = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("BLOCKED "))
        .take(2)
        .collect::<Vec<_>>();
    assert!(
        block[0].contains(" cases: authentication refused"),
        "{}",
        r.context()
    );
    assert_eq!(
        block[1].trim(),
        "fix: set OPENWOP_API_KEY or --token-env / --token-file",
        "{}",
        r.context()
    );
    assert_eq!(
        lines_with(&r.stdout, "authentication refused"),
        1,
        "{}",
        r.context()
    );
    assert!(r.stdout.lines().count() < 25, "{}", r.context());
    // -v lists every id, still under the one cause line.
    let verbose = run_with_env(&["--target", &host.url, "-v"], &[]);
    let ids = verbose
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("ids: "))
        .unwrap_or_else(|| panic!("{}", verbose.context()));
    assert!(!ids.contains("more"), "{ids}");
    assert!(ids.split_whitespace().count() > 100, "{ids}");
}

/// A server on 127.0.0.1 that answers every request with 200 and an HTML page (a web
/// UI where the API was meant): its base URL.
fn web_page_server() -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut length = 0usize;
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    line.clear();
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let page = "<!doctype html><html><body>Sign in</body></html>";
                let _ = (&stream).write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                        page.len()
                    )
                    .as_bytes(),
                );
            });
        }
    });
    base
}

#[test]
fn a_target_that_is_a_web_page_is_one_line_even_under_quiet() {
    let base = format!("{}/v1", web_page_server());
    let r = run(&[
        "--profile",
        "openai",
        "--target",
        &base,
        "--model",
        "m",
        "--accepts",
        "image/,audio/,application/pdf",
        "--quiet",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    let failed: Vec<_> = (r.cases().into_iter())
        .filter(|c| c["outcome"] == "fail")
        .collect();
    assert!(failed.len() >= 10, "{}", r.context());
    for case in &failed {
        let what = case["cause"]["what"].as_str().unwrap_or_default();
        assert!(what.contains("with a web page (text/html)"), "{case}");
    }
    assert_eq!(
        lines_with(&r.stdout, "with a web page"),
        1,
        "{}",
        r.context()
    );
    assert_eq!(
        lines_with(&r.stdout, "check --target: it names a web page"),
        1
    );
    assert!(!r.stdout.contains("\nFAIL    openai."), "{}", r.context());
    assert!(
        r.stdout.contains(&format!(
            "failed ({}): {} by the cause above",
            failed.len(),
            failed.len()
        )),
        "{}",
        r.context()
    );
}
