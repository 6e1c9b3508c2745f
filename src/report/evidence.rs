//! Plain-text renderings of a case's evidence, shared by the terminal and JUnit.
//!
//! A reader of a CI log and a reader of a terminal should see the same words for the
//! same failure, so both reporters build their details from these functions. Callers
//! pass cases that have already been through [`super::scrub`]; nothing here colours.

use crate::outcome::{AssertionResult, CaseResult, Exchange, Outcome};

/// Bodies longer than this are cut in the terminal: the full text is in the JSON report.
pub const TERMINAL_BODY_LIMIT: usize = 2 * 1024;

/// JUnit consumers render `<system-out>` inline, so keep it readable but generous.
pub const JUNIT_BODY_LIMIT: usize = 64 * 1024;

/// `[MUST RFC 0091 §A] "The host MUST ..."`
pub fn requirement_line(case: &CaseResult) -> String {
    let req = &case.requirement;
    format!("[{} {}] \"{}\"", req.level, req.source, req.text)
}

/// `status: expected 400; got 200`
pub fn assertion_line(assertion: &AssertionResult) -> String {
    format!(
        "{}: expected {}; got {}",
        assertion.check, assertion.expected, assertion.actual
    )
}

/// One line saying why a case did not pass: its reason, else its first failed assertion.
pub fn failure_summary(case: &CaseResult) -> Option<String> {
    case.reason
        .clone()
        .or_else(|| case.assertions_failed().next().map(assertion_line))
}

/// The curl line of the last exchange: the one that decided the case.
pub fn curl_line(case: &CaseResult) -> Option<&str> {
    case.exchanges.last().map(|e| e.curl.as_str())
}

/// Base64 runs longer than this are shortened in compact curl lines.
const MEDIA_RUN_LIMIT: usize = 64;

/// A curl line with long base64 runs (inline media) shortened, for a terminal where
/// kilobytes of base64 would bury the verdict. Untouched when nothing is long.
pub fn compact_curl(curl: &str) -> String {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
    let mut out = String::with_capacity(curl.len().min(4096));
    let mut run = String::new();
    let mut elided = false;
    let mut flush = |run: &mut String, out: &mut String| {
        if run.len() > MEDIA_RUN_LIMIT {
            out.push_str(&run[..16]);
            out.push_str(&format!("…[+{} chars]", run.len() - 16));
            elided = true;
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in curl.chars() {
        if is_b64(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    if elided {
        out.push_str(
            "  # media elided here; the JSON report (--report) and JUnit hold the full command",
        );
    }
    out
}

/// The indented details shown under a case that did not pass, without indentation.
/// `compact` shortens inline media in the curl line (terminal); JUnit keeps it whole.
///
/// The requirement comes first because it is what the reader must fix; the reason is
/// repeated only when no failed assertion already explains the outcome (e.g. a skip
/// turned into a failure by `--require`).
pub fn detail_lines(case: &CaseResult, compact: bool) -> Vec<String> {
    let mut lines = vec![requirement_line(case)];
    let failed: Vec<String> = case.assertions_failed().map(assertion_line).collect();
    let reason_in_header = matches!(
        case.outcome,
        Outcome::Skip | Outcome::Blocked | Outcome::Error | Outcome::Xfail
    );
    if failed.is_empty()
        && !reason_in_header
        && let Some(reason) = &case.reason
    {
        lines.push(format!("reason: {reason}"));
    }
    lines.extend(failed);
    lines.extend(case.notes.iter().map(|n| format!("note: {n}")));
    if let Some(curl) = curl_line(case) {
        let curl = if compact {
            compact_curl(curl)
        } else {
            curl.to_string()
        };
        lines.push(format!("curl: {curl}"));
    }
    lines
}

/// What a witness recorded for the case (`run --witness`): one line per model call
/// carrying its nonce (`model received: image/png 1234 B (image_url), text`), or a line
/// saying none did; nothing when no witness looked.
pub fn model_call_lines(case: &CaseResult) -> Vec<String> {
    match &case.model_calls {
        None => Vec::new(),
        Some(calls) if calls.is_empty() => {
            vec!["model received: no call carrying the case's nonce".into()]
        }
        Some(calls) => calls.iter().map(|c| c.view.summary.clone()).collect(),
    }
}

/// Each part a witness accepted other than intact (`run --witness`), one line each:
/// `delivery: transformed: image/gif 695 B -> image/png 947 B, same picture (...)`
/// (a delivery that failed is among the failed assertions already).
pub fn delivery_lines(case: &CaseResult) -> Vec<String> {
    case.assertions
        .iter()
        .filter(|a| {
            a.passed
                && a.delivery
                    .as_ref()
                    .is_some_and(|d| d.outcome != crate::outcome::DeliveryOutcome::Intact)
        })
        .map(|a| format!("delivery: {}", a.actual))
        .collect()
}

/// The same, each line after its call's header (`call 3: openai.chat ... -> 200, model m`),
/// then one line per `witness.*` judgement (`witness.reached: pass (the model received:
/// ...)`), for JUnit's `<system-out>`: the xUnit schema allows no per-case properties.
pub fn model_call_transcript(case: &CaseResult) -> Option<String> {
    let calls = case.model_calls.as_ref()?;
    let mut lines = vec![format!("witness: {} model call(s)", calls.len())];
    lines.extend(calls.iter().map(|c| match c.view.lines.first() {
        Some(header) => format!("{header}: {}", c.view.summary),
        None => c.view.summary.clone(),
    }));
    lines.extend(
        case.assertions
            .iter()
            .filter(|a| a.check.starts_with("witness."))
            .map(|a| match a.passed {
                true => format!("{}: pass ({})", a.check, a.actual),
                false => format!(
                    "{}: fail (expected {}; got {})",
                    a.check, a.expected, a.actual
                ),
            }),
    );
    Some(lines.join("\n"))
}

/// Cut `body` to at most `limit` bytes (on a character boundary) with a visible marker.
pub fn truncate_body(body: &str, limit: usize) -> String {
    if body.len() <= limit {
        return body.to_string();
    }
    let mut cut = limit;
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}\n... [truncated: showing {cut} of {} bytes]",
        &body[..cut],
        body.len()
    )
}

/// A request/response transcript in the familiar `> ` / `< ` style.
pub fn exchange_lines(exchange: &Exchange, body_limit: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let request = &exchange.request;
    lines.push(format!("> {} {}", request.method, request.url));
    for (name, value) in &request.headers {
        lines.push(format!("> {name}: {value}"));
    }
    if let Some(body) = &request.body {
        lines.push(">".to_string());
        prefixed(&mut lines, "> ", &truncate_body(body, body_limit));
    }
    match &exchange.response {
        None => lines.push("< (no response: the transport failed)".to_string()),
        Some(response) => {
            lines.push(format!("< {}", response.status));
            for (name, value) in &response.headers {
                lines.push(format!("< {name}: {value}"));
            }
            if !response.body.is_empty() {
                lines.push("<".to_string());
                prefixed(&mut lines, "< ", &truncate_body(&response.body, body_limit));
            }
            if response.truncated {
                lines.push("< ... [body cut at the read cap]".to_string());
            }
        }
    }
    lines
}

/// Every exchange of a case, separated by blank lines.
pub fn transcript(case: &CaseResult, body_limit: usize) -> String {
    case.exchanges
        .iter()
        .map(|e| exchange_lines(e, body_limit).join("\n"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn prefixed(lines: &mut Vec<String>, prefix: &str, text: &str) {
    for line in text.lines() {
        if line.is_empty() {
            // No trailing whitespace: logs and snapshots stay clean.
            lines.push(prefix.trim_end().to_string());
        } else {
            lines.push(format!("{prefix}{line}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_respects_character_boundaries_and_says_so() {
        let body = "é".repeat(10); // 20 bytes
        let cut = truncate_body(&body, 5);
        assert!(cut.starts_with("éé\n"), "{cut}");
        assert!(cut.ends_with("[truncated: showing 4 of 20 bytes]"), "{cut}");
        assert_eq!(truncate_body("short", 5), "short");
    }
}

#[cfg(test)]
mod compact_tests {
    use super::compact_curl;

    #[test]
    fn shortens_only_long_base64_runs() {
        let media = "A".repeat(300);
        let line = format!(
            "curl -X POST 'http://h/x' --data-raw '{{\"data\":\"{media}\",\"t\":\"short\"}}'"
        );
        let compact = compact_curl(&line);
        assert!(
            compact.contains("AAAAAAAAAAAAAAAA…[+284 chars]"),
            "{compact}"
        );
        assert!(compact.contains("short") && compact.ends_with("hold the full command"));
        assert_eq!(
            compact_curl("curl -X GET 'http://h/x'"),
            "curl -X GET 'http://h/x'"
        );
    }
}
