//! The canary: a run with a secret in every place a secret can come from, against a
//! host that echoes everything it receives back in every place a host can put it
//! (discovery document keys and values, error bodies, response headers, redirects),
//! with every output on. No artifact may contain any canary.

use crate::host::{HostileHost, Reply, response};
use crate::measure::run_measured;
use reference_hosts::ReferenceConfig;
use std::time::Duration;

const TOKEN: &str = "canary-token-7Hq2x9";
const FILE_TOKEN: &str = "canary-file-token-Zp41";
const API_KEY: &str = "canary-api-key-Lm30";
const COOKIE: &str = "canary-cookie-Ux88";
const URL_PASSWORD: &str = "canary-url-pass-Qe17";
const ALL: [&str; 5] = [TOKEN, FILE_TOKEN, API_KEY, COOKIE, URL_PASSWORD];

/// Everything the host received, as one string it can echo.
fn echo(request: &crate::host::Request) -> String {
    let mut out = format!("{} {}", request.method, request.path);
    for (name, value) in &request.headers {
        out.push_str(&format!(" | {name}: {value}"));
    }
    out
}

fn echo_host() -> HostileHost {
    HostileHost::start(ReferenceConfig::default(), |r, _| {
        let seen = echo(r);
        let auth = r.header("authorization").unwrap_or("").to_string();
        let key = r.header("x-api-key").unwrap_or("").to_string();
        // Only the cookie's value, without its name: masked by value, not by header.
        let cookie = r
            .header("cookie")
            .and_then(|c| c.split_once('='))
            .map(|(_, v)| v.to_string())
            .unwrap_or_default();
        if r.is_discovery() {
            let mut document = reference_hosts::discovery_document(&ReferenceConfig::default());
            document["echo"] = seen.clone().into();
            document[auth.as_str()] = serde_json::json!({ "key": key });
            document["link"] = format!("http://user:{URL_PASSWORD}@127.0.0.1/").into();
            document["crumb"] = cookie.into();
            Reply::Raw(response(
                "200 OK",
                &[
                    ("Content-Type", "application/json"),
                    ("Set-Cookie", &format!("session={COOKIE}")),
                    ("X-Echo", &auth),
                ],
                document.to_string(),
            ))
        } else {
            let body = serde_json::json!({
                "code": auth,
                "message": seen,
                "details": { "key": key },
            });
            Reply::Raw(response(
                "400 Bad Request",
                &[
                    ("Content-Type", "application/json"),
                    ("X-Echo", &seen),
                    ("WWW-Authenticate", &format!("Bearer realm=\"{key}\"")),
                ],
                body.to_string(),
            ))
        }
    })
}

fn assert_no_canary(label: &str, text: &str) {
    for canary in ALL {
        assert!(!text.contains(canary), "{label} leaked {canary}:\n{text}");
        // No fragment either (a secret cut in half by elision or a line break).
        assert!(
            !text.contains(&canary[..14]),
            "{label} leaked part of {canary}"
        );
    }
}

#[test]
fn no_artifact_contains_a_secret() {
    let host = echo_host();
    let target = format!("http://agent:{URL_PASSWORD}@{}", host.addr);
    let header = format!("X-Api-Key: {API_KEY}");
    let cookie = format!("Cookie: id={COOKIE}");
    let r = run_measured(
        "canary-env-token",
        &[
            "--target",
            &target,
            "--header",
            &header,
            "--secret-header",
            "X-Api-Key",
            "--header",
            &cookie,
            "-v",
        ],
        &[("OPENWOP_API_KEY", TOKEN)],
    );
    r.assert_survived(Duration::from_secs(60));
    assert_eq!(r.code, 1, "the echoed errors are failures: {}", r.context());
    // The host really got (and echoed) every secret: the test would catch a leak.
    let first = &host.requests()[0];
    assert_eq!(first.header("x-api-key"), Some(API_KEY));
    assert!(
        host.requests()
            .iter()
            .any(|q| q.header("authorization") == Some(&format!("Bearer {TOKEN}")))
    );
    assert!(
        r.stdout.contains("[REDACTED]"),
        "masks show where secrets were"
    );
    assert!(
        r.stdout.contains("$X_API_KEY") && r.stdout.contains("$TOKEN"),
        "{}",
        r.stdout
    );
    // Secrets typed on the command line are called out.
    assert!(
        r.stdout.contains(
            "warning: the secret value of header X-Api-Key was given on the command line"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("warning: credentials in the --target URL"),
        "{}",
        r.stdout
    );
    assert_no_canary("stdout", &r.stdout);
    assert_no_canary("stderr", &r.stderr);
    assert_no_canary("JUnit", r.junit.as_ref().unwrap());
    assert_no_canary(
        "JSON report",
        &std::fs::read_to_string(r.dir.path().join("report.json")).unwrap(),
    );

    // The same with the token from a file.
    let token_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(token_file.path(), format!("{FILE_TOKEN}\n")).unwrap();
    let r = run_measured(
        "canary-file-token",
        &[
            "--target",
            &host.url(),
            "--token-file",
            token_file.path().to_str().unwrap(),
            "-v",
        ],
        &[],
    );
    r.assert_survived(Duration::from_secs(60));
    assert!(
        host.requests()
            .iter()
            .any(|q| q.header("authorization") == Some(&format!("Bearer {FILE_TOKEN}")))
    );
    for (label, text) in [
        ("stdout", r.stdout.clone()),
        ("stderr", r.stderr.clone()),
        ("JUnit", r.junit.clone().unwrap()),
        (
            "JSON report",
            std::fs::read_to_string(r.dir.path().join("report.json")).unwrap(),
        ),
    ] {
        assert_no_canary(label, &text);
    }
}

#[test]
fn a_token_typed_where_its_variable_name_belongs_is_refused_unechoed() {
    let r = run_measured(
        "token-as-env-name",
        &[
            "--target",
            "http://127.0.0.1:9",
            "--token-env",
            "sk-live-canary-0042",
        ],
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("--token-env takes the NAME"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("sk-live-canary-0042") && !r.stdout.contains("sk-live-canary-0042"));
}
