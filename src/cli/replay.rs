//! `mmconform replay REPORT CASE`: the requests one case sent, from a saved JSON report,
//! as curl commands to send again. The report keeps each request's curl line with its
//! body inline up to 64 KiB (the `body` field elides long media; the curl line does
//! not), and the SHA-256 of what was really sent: the body is said to be whole only
//! when the two agree. A larger body, or one with a secret masked in it, is not in the
//! report: `run --filter 'id(=CASE)' --export-hurl FILE` writes it whole.

use super::CliError;
use super::args::ReplayArgs;
use crate::exit::Ending;
use serde_json::Value;
use sha2::{Digest, Sha256};

pub fn replay(args: &ReplayArgs) -> Result<Ending, CliError> {
    let shown = args.report.display();
    let text = std::fs::read_to_string(&args.report)
        .map_err(|e| CliError::Usage(format!("{shown}: {e}")))?;
    let report: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("{shown}: not a JSON report ({e})")))?;
    let cases = report["cases"].as_array().ok_or_else(|| {
        CliError::Usage(format!(
            "{shown}: no `cases` list: not a `run --report` file"
        ))
    })?;
    let Some(case) = cases.iter().find(|c| c["id"] == args.case.as_str()) else {
        let ids = cases.iter().filter_map(|c| c["id"].as_str());
        let closest = crate::plan::filter::closest_ids(std::slice::from_ref(&args.case), ids);
        let hint = match closest.is_empty() {
            true => String::new(),
            false => format!("; the closest: {}", closest.join(", ")),
        };
        return Err(CliError::Usage(format!(
            "{shown} has no case `{}`{hint}",
            args.case
        )));
    };
    print!("{}", render(case, &args.case));
    Ok(Ending::Done)
}

/// The case's requests as commented curl lines.
fn render(case: &Value, id: &str) -> String {
    let mut out = format!(
        "# {id}: {} {} ({}{})\n",
        case["requirement"]["level"].as_str().unwrap_or_default(),
        case["requirement"]["source"].as_str().unwrap_or_default(),
        case["outcome"].as_str().unwrap_or_default(),
        case["reason"]
            .as_str()
            .map(|r| format!(": {r}"))
            .unwrap_or_default()
    );
    let own: Vec<&Value> = (case["exchanges"].as_array().into_iter().flatten())
        .filter(|e| e["cached"] != true)
        .collect();
    if own.is_empty() {
        out.push_str(&format!(
            "# it sent no HTTP request of its own (a program target, or decided without one): \
             rerun it with `mmconform run ... --filter 'id(={id})'`\n"
        ));
        return out;
    }
    for exchange in own {
        let answered = match exchange["response"]["status"].as_u64() {
            Some(status) => format!("answered {status}"),
            None => "no answer".to_string(),
        };
        let seq = exchange["seq"]
            .as_u64()
            .map(|s| format!("request {s}, "))
            .unwrap_or_default();
        out.push_str(&format!("# {seq}{answered}\n"));
        let curl = exchange["curl"].as_str().unwrap_or_default();
        if let Some(note) = body_note(curl, &exchange["request"]["sent"], id) {
            out.push_str(&format!("# {note}\n"));
        }
        out.push_str(curl);
        out.push('\n');
    }
    out
}

/// What to say about the body in `curl`, given what was sent: nothing when it is whole.
fn body_note(curl: &str, sent: &Value, id: &str) -> Option<String> {
    let sha256 = sent["sha256"].as_str()?;
    let bytes = sent["bytes"].as_u64().unwrap_or_default();
    let inline = curl.split_once("--data-raw '").map(|(_, rest)| {
        rest.strip_suffix('\'')
            .unwrap_or(rest)
            .replace(r"'\''", "'")
    });
    let whole =
        inline.is_some_and(|body| crate::digest::hex(&Sha256::digest(body.as_bytes())) == sha256);
    (!whole).then(|| {
        format!(
            "the {bytes}-byte body is not whole in the report (too large to inline, or a secret masked in it); \
             `mmconform run ... --filter 'id(={id})' --export-hurl case.hurl` writes it whole"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sent(body: &str) -> Value {
        json!({"bytes": body.len(), "sha256": crate::digest::hex(&Sha256::digest(body.as_bytes())), "elided": true})
    }

    #[test]
    fn a_body_is_whole_only_when_it_hashes_to_what_was_sent() {
        let body = r#"{"a":"it's"}"#;
        let curl = format!(
            "curl -X POST 'u' --data-raw '{}'",
            body.replace('\'', r"'\''")
        );
        assert_eq!(body_note(&curl, &sent(body), "c"), None);
        let masked = "curl -X POST 'u' --data-raw '{\"a\":\"[REDACTED]\"}'";
        assert!(
            body_note(masked, &sent(body), "c")
                .unwrap()
                .contains("--export-hurl")
        );
        let large = "curl -X POST 'u' --data-binary @body.json";
        assert!(
            body_note(large, &sent(body), "c")
                .unwrap()
                .contains("not whole")
        );
        assert_eq!(
            body_note("curl 'u'", &Value::Null, "c"),
            None,
            "no body, nothing to say"
        );
    }

    #[test]
    fn a_case_without_its_own_request_says_how_to_rerun_it() {
        let case = json!({"requirement": {"level": "MUST", "source": "s"}, "outcome": "fail",
            "reason": "r", "exchanges": [{"cached": true, "curl": "curl 'discovery'"}]});
        let text = render(&case, "c[x]");
        assert!(text.starts_with("# c[x]: MUST s (fail: r)\n"), "{text}");
        assert!(text.contains("--filter 'id(=c[x])'"), "{text}");
        assert!(!text.contains("curl 'discovery'"), "{text}");
    }
}
