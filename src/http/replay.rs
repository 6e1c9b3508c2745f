//! `run --export-hurl FILE`: every request the run sent, as a hurl file that sends them
//! again, so a run can be reproduced (and timed) with a familiar tool. The request log
//! ([`super::wire`]) numbers requests; this keeps, beside it, what a replay needs and
//! the report leaves out: the headers and the whole body. Secrets never appear: the
//! bearer token is `{{token}}` and every secret header a variable named after it, to
//! be given with `hurl --variable`.

use super::{HttpClient, HttpRequest, JsonBody, curl};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// Bodies larger than this are written beside the hurl file (`FILE.<seq>.json`) and
/// named with `file,...;`: hurl reads them as they are.
const INLINE_BODY_BYTES: usize = 64 * 1024;

/// One request as sent (its first attempt; retries are the tool's, not the host's).
#[derive(Debug, Clone)]
pub struct Replayed {
    pub seq: u64,
    pub method: String,
    pub url: String,
    /// Why it was sent: `discovery`, `probe ...`, or the case's id.
    pub purpose: String,
    /// Headers as hurl sends them: secret values are `{{variable}}`s.
    pub headers: Vec<(String, String)>,
    /// The body exactly as sent, secrets masked.
    pub body: Option<JsonBody>,
}

/// The requests of a run, kept only when `--export-hurl` asks for them (bodies are
/// held until the run ends).
#[derive(Debug, Default)]
pub struct ReplayLog {
    requests: Mutex<Vec<Replayed>>,
}

impl ReplayLog {
    pub fn record(&self, request: Replayed) {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(request);
    }

    /// Every request recorded, in the order sent.
    pub fn requests(&self) -> Vec<Replayed> {
        let mut all = self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        all.sort_by_key(|r| r.seq);
        all
    }
}

impl HttpClient {
    /// Keeps every request's headers and body in `log` from now on (`--export-hurl`).
    pub fn keep_replay(&mut self, log: std::sync::Arc<ReplayLog>) {
        self.replay = Some(log);
    }

    /// Records request `seq` for `--export-hurl`: secret header values become hurl
    /// variables, secrets in the body are masked.
    pub(super) fn record_replay(
        &self,
        seq: u64,
        req: &HttpRequest,
        url: &str,
        body: Option<&JsonBody>,
    ) {
        let Some(log) = &self.replay else {
            return;
        };
        let mut headers = Vec::new();
        for (name, value) in self.settings.headers.iter().chain(req.headers.iter()) {
            let value = if self.redactor.is_sensitive_header(name) {
                format!("{{{{{}}}}}", curl::variable_for(name))
            } else {
                value.clone()
            };
            headers.push((name.clone(), value));
        }
        if let (true, Some(_)) = (req.auth, &self.settings.token) {
            headers.push(self.settings.auth_header("{{token}}"));
        }
        if body.is_some() {
            headers.push(("Content-Type".into(), "application/json".into()));
        }
        log.record(Replayed {
            seq,
            method: req.method.to_string(),
            url: self.redactor.redact(url),
            purpose: req.purpose.clone(),
            headers,
            body: body
                .and_then(|b| b.text_within(usize::MAX))
                .map(|text| JsonBody::from_text(self.redactor.redact(&text))),
        });
    }
}

/// A case's status expectation as hurl can assert it, from the expected text a status
/// assertion carries (`200`, `4xx`); `None` when hurl cannot say it (`200 or 4xx`).
pub fn hurl_status(expected: &str) -> Option<String> {
    let expected = expected.trim();
    if let Ok(code) = expected.parse::<u16>() {
        return Some(format!("HTTP {code}\n"));
    }
    let class = expected
        .strip_suffix("xx")
        .and_then(|d| d.parse::<u16>().ok())
        .filter(|d| (1..=5).contains(d))?;
    Some(format!(
        "HTTP *\n[Asserts]\nstatus >= {}\nstatus < {}\n",
        class * 100,
        class * 100 + 100
    ))
}

/// What a case checks, as the hurl export can use it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseChecks {
    /// The expected text of its status assertion (`200`, `4xx`), when it has one.
    pub status: Option<String>,
    /// What decided the case that hurl cannot check, one sentence each (a stream read
    /// event by event, the model calls the witness saw, the other checks by name).
    pub beyond_hurl: Vec<String>,
}

/// A hurl file that sends `requests` again. `checks` maps a case id to what it checks:
/// its request asserts the status it expects, and says in comments what hurl cannot
/// check; requests of other purposes (discovery, probes) assert nothing. Large bodies
/// become side files: `(file name, bytes)` to write beside it.
pub fn render(
    requests: &[Replayed],
    checks: &HashMap<String, CaseChecks>,
    file_stem: &str,
) -> (String, Vec<(String, JsonBody)>) {
    let mut out = String::new();
    let mut side_files = Vec::new();
    for request in requests {
        let _ = writeln!(out, "# {} (request {})", request.purpose, request.seq);
        let _ = writeln!(out, "{} {}", request.method, request.url);
        for (name, value) in &request.headers {
            let _ = writeln!(out, "{name}: {value}");
        }
        if let Some(body) = &request.body {
            match body.text_within(INLINE_BODY_BYTES) {
                // hurl reads a JSON body as it is written, `{{...}}` as a template.
                Some(text) if !text.contains("{{") => {
                    let _ = writeln!(out, "{text}");
                }
                _ => {
                    let name = format!("{file_stem}.{}.json", request.seq);
                    let _ = writeln!(out, "file,{name};");
                    side_files.push((name, body.clone()));
                }
            }
        }
        let case = checks.get(&request.purpose);
        for line in case.iter().flat_map(|c| &c.beyond_hurl) {
            let _ = writeln!(out, "# not checked by hurl: {line}");
        }
        match case.and_then(|c| hurl_status(c.status.as_deref()?)) {
            Some(assertion) => out.push_str(&assertion),
            None => out.push_str("HTTP *\n"),
        }
        out.push('\n');
    }
    (out, side_files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn status_expectations_hurl_can_express() {
        assert_eq!(hurl_status("200").as_deref(), Some("HTTP 200\n"));
        assert_eq!(
            hurl_status("4xx").as_deref(),
            Some("HTTP *\n[Asserts]\nstatus >= 400\nstatus < 500\n")
        );
        assert_eq!(hurl_status("200 or 4xx"), None);
        assert_eq!(hurl_status("9xx"), None);
    }

    #[test]
    fn requests_become_hurl_entries_in_the_order_sent() {
        let log = ReplayLog::default();
        log.record(Replayed {
            seq: 2,
            method: "POST".into(),
            url: "http://127.0.0.1:1/call".into(),
            purpose: "case.a".into(),
            headers: vec![
                ("Authorization".into(), "Bearer {{token}}".into()),
                ("Content-Type".into(), "application/json".into()),
            ],
            body: Some(JsonBody::of(&json!({"t": "x"}))),
        });
        log.record(Replayed {
            seq: 1,
            method: "GET".into(),
            url: "http://127.0.0.1:1/.well-known/openwop".into(),
            purpose: "discovery".into(),
            headers: vec![],
            body: None,
        });
        log.record(Replayed {
            seq: 3,
            method: "POST".into(),
            url: "http://127.0.0.1:1/call".into(),
            purpose: "case.b".into(),
            headers: vec![],
            body: Some(JsonBody::of(&json!({"t": "{{not a template}}"}))),
        });
        let checks = HashMap::from([
            (
                "case.a".to_string(),
                CaseChecks {
                    status: Some("4xx".into()),
                    beyond_hurl: Vec::new(),
                },
            ),
            (
                "case.b".to_string(),
                CaseChecks {
                    status: None,
                    beyond_hurl: vec!["the stream".into()],
                },
            ),
        ]);
        let (text, side) = render(&log.requests(), &checks, "run.hurl");
        assert_eq!(
            text,
            "# discovery (request 1)\nGET http://127.0.0.1:1/.well-known/openwop\nHTTP *\n\n\
             # case.a (request 2)\nPOST http://127.0.0.1:1/call\nAuthorization: Bearer {{token}}\n\
             Content-Type: application/json\n{\"t\":\"x\"}\nHTTP *\n[Asserts]\nstatus >= 400\nstatus < 500\n\n\
             # case.b (request 3)\nPOST http://127.0.0.1:1/call\nfile,run.hurl.3.json;\n\
             # not checked by hurl: the stream\nHTTP *\n\n"
        );
        assert_eq!(side.len(), 1);
        assert_eq!(side[0].0, "run.hurl.3.json");
    }
}
