//! Semantic checks a JSON Schema cannot express: placeholders that resolve, expansion
//! rows that agree, unique ids, schema references that exist, probe URLs that stay on
//! loopback. Each finding carries the JSON pointer it is about.

use super::builtin;
use super::model::{CaseSpec, ScenarioFile};
use super::path;
use super::template;
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};

/// The most cases one expansion may give. The built-in files need a few dozen; a
/// product of long lists past this is a mistake, and building it would exhaust memory.
pub const MAX_EXPANDED_CASES: usize = 1000;

/// Built-in placeholders available in every case.
pub const BUILTIN_PLACEHOLDERS: [&str; 3] = ["nonce", "case_id", "uid"];

/// What the checks need to know about the world outside the file.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Roots of the evaluation context (`discovery`, `openwop`, `run`) and, where the
    /// vocabulary is closed, the names allowed right below them.
    pub context_roots: Vec<(String, Option<Vec<String>>)>,
    /// Lets `$media.url` point outside loopback (`--allow-external-probe-urls`).
    pub allow_external_probe_urls: bool,
    /// What each file's protocol finds foreign in a case (`protocol::lint_case`):
    /// `(profile, case, the case as written, its pointer)`.
    pub lint_case: Option<LintCase>,
}

/// A protocol's checks of one case of a file of that protocol (`profile:`).
pub type LintCase = fn(&str, &super::model::CaseSpec, &Value, &str) -> Vec<Finding>;

/// (pointer, point at the key rather than the value, message)
pub type Finding = (String, bool, String);

/// One expansion row: each variable and its value.
type Row = Vec<(String, String)>;

/// Fields whose strings are templates; everything else is literal (requirement texts quote
/// code with braces, schemas hold regexes).
fn templated_subtrees(case: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    let mut push = |pointer: &str| {
        if let Some(v) = case.pointer(pointer) {
            out.push((pointer.to_string(), v));
        }
    };
    push("/title");
    push("/hint");
    push("/applies");
    push("/request/body");
    push("/validate/document");
    push("/expect/body");
    push("/expect/prefer/note");
    push("/expect/keyword");
    push("/expect/at");
    out
}

fn walk_strings<'a>(value: &'a Value, pointer: String, out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::String(s) => out.push((pointer, s)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk_strings(item, format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                // A predicate's `path` is a path, not a template.
                if k == "path" {
                    continue;
                }
                walk_strings(
                    v,
                    format!("{pointer}/{}", super::position::escape_token(k)),
                    out,
                );
            }
        }
        _ => {}
    }
}

fn check_placeholder(
    name: &str,
    bound: &BTreeSet<String>,
    options: &CheckOptions,
) -> Option<String> {
    if bound.contains(name) || BUILTIN_PLACEHOLDERS.contains(&name) {
        return None;
    }
    let root = path::root_segment(name);
    let Some((_, allowed)) = options.context_roots.iter().find(|(r, _)| r == root) else {
        let mut known: Vec<String> = bound.iter().cloned().collect();
        known.extend(BUILTIN_PLACEHOLDERS.iter().map(|s| s.to_string()));
        known.extend(options.context_roots.iter().map(|(r, _)| format!("{r}.*")));
        return Some(format!(
            "unknown placeholder `{{{name}}}` (known here: {})",
            known.join(", ")
        ));
    };
    match (allowed, path::second_segment(name)) {
        (Some(names), Some(second)) if !names.iter().any(|n| n == second) => Some(format!(
            "unknown placeholder `{{{name}}}`: `{root}` has no `{second}` (it has: {})",
            names.join(", ")
        )),
        (_, None) => Some(format!(
            "placeholder `{{{name}}}` names a whole context root; name a field"
        )),
        _ => None,
    }
}

/// An IPv6 address is judged by the IPv4 it embeds (RFC 0196): `[::ffff:7f00:1]` and
/// `[64:ff9b::7f00:1]` are 127.0.0.1. Alternative IPv4 spellings (`2130706433`,
/// `0x7f000001`, `127.1`) are already 127.0.0.1 once parsed.
fn is_loopback_host(host: &url::Host<&str>) -> bool {
    match host {
        // A scheme the url crate does not know (gopher) keeps an IP host as a name.
        url::Host::Domain(d) => {
            d.eq_ignore_ascii_case("localhost")
                || d.parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => crate::embedded_ipv4::is_loopback_v6(*ip),
    }
}

/// A probe URL whose host comes from an expansion variable is checked once per row,
/// with the row's literal values bound (an expanded value is known before discovery).
fn check_expanded_probe_url(raw: &str, rows: &[Row], options: &CheckOptions) -> Option<String> {
    let binds = |row: &Row| {
        row.iter()
            .any(|(name, _)| raw.contains(&format!("{{{name}}}")))
    };
    if rows.is_empty() || !rows.iter().any(binds) {
        return check_probe_url(raw, options);
    }
    rows.iter().find_map(|row| {
        let bound = row.iter().fold(raw.to_string(), |url, (name, value)| {
            url.replace(&format!("{{{name}}}"), value)
        });
        check_probe_url(&bound, options)
    })
}

fn check_probe_url(raw: &str, options: &CheckOptions) -> Option<String> {
    // A data: URL carries its bytes; nothing is fetched, so nothing leaves loopback. A
    // file: URL without a host names the host's own files: nothing leaves its machine.
    let local_file = raw.starts_with("file:///");
    if options.allow_external_probe_urls || raw.trim_start().starts_with("data:") || local_file {
        return None;
    }
    // Placeholders cannot be resolved before discovery; a URL whose host is templated is
    // refused, because nothing would then keep it on loopback.
    let literal = raw.replace(['{', '}'], "");
    let parsed = url::Url::parse(&literal).ok();
    let host_ok = parsed
        .as_ref()
        .and_then(|u| u.host())
        .is_some_and(|h| is_loopback_host(&h));
    let host_templated = parsed
        .as_ref()
        .and_then(|u| u.host_str())
        .is_some_and(|h| raw.contains(&format!("{{{h}}}")));
    if host_ok && !host_templated {
        None
    } else {
        Some(format!(
            "probe URL `{raw}` does not point at loopback (127.0.0.1, ::1, localhost); \
             pass --allow-external-probe-urls to send it anyway"
        ))
    }
}

/// Expansion values are literal: they are bound, never rendered. A value that holds a
/// placeholder (`{a}`, or a variable naming itself) would be sent as written, braces
/// and all, which is never what its author meant.
fn check_expansion_values(raw: &Value, base: &str, out: &mut Vec<Finding>) {
    let mut values: Vec<(String, &str)> = Vec::new();
    match raw.get("expand") {
        Some(Value::Object(map)) => {
            for (name, list) in map {
                for (i, v) in list.as_array().into_iter().flatten().enumerate() {
                    if let Some(text) = v.as_str() {
                        let name = super::position::escape_token(name);
                        values.push((format!("{base}/expand/{name}/{i}"), text));
                    }
                }
            }
        }
        Some(Value::Array(rows)) => {
            for (i, row) in rows.iter().enumerate() {
                for (name, v) in row.as_object().into_iter().flatten() {
                    if let Some(text) = v.as_str() {
                        let name = super::position::escape_token(name);
                        values.push((format!("{base}/expand/{i}/{name}"), text));
                    }
                }
            }
        }
        _ => {}
    }
    for (pointer, text) in values {
        if text.contains(['{', '}']) {
            out.push((
                pointer,
                false,
                format!(
                    "expansion value `{text}` holds a brace: expansion values are bound as \
                     written, never expanded, so a placeholder here would be sent literally"
                ),
            ));
        }
    }
}

fn check_case(
    case: &CaseSpec,
    raw: &Value,
    base: &str,
    options: &CheckOptions,
    out: &mut Vec<Finding>,
) {
    let bound: BTreeSet<String> = case
        .expand
        .as_ref()
        .map(|e| e.variables())
        .unwrap_or_default()
        .into_iter()
        .collect();
    if !check_expansion(case, raw, base, &bound, out) {
        return;
    }
    // Only a bounded expansion is built (an exploding one is reported on its own).
    let rows = case
        .expand
        .as_ref()
        .filter(|e| e.case_count() <= MAX_EXPANDED_CASES)
        .map(|e| e.rows())
        .unwrap_or_default();
    check_templates(raw, base, (&bound, &rows), options, out);
    check_expectations(case, raw, base, out);
}

/// The expansion: rows that agree, a bounded case count, literal values, `id_from`
/// names that are bound, distinct expanded ids. `false` when the expansion is too large
/// to check further.
fn check_expansion(
    case: &CaseSpec,
    raw: &Value,
    base: &str,
    bound: &BTreeSet<String>,
    out: &mut Vec<Finding>,
) -> bool {
    if let Some(super::model::Expansion::Rows(rows)) = &case.expand {
        let first: BTreeSet<&String> = rows.first().map(|r| r.keys().collect()).unwrap_or_default();
        for (i, row) in rows.iter().enumerate().skip(1) {
            if row.keys().collect::<BTreeSet<_>>() != first {
                out.push((
                    format!("{base}/expand/{i}"),
                    false,
                    format!("expansion row {i} binds different variables than row 0"),
                ));
            }
        }
    }
    if let Some(expansion) = &case.expand
        && expansion.case_count() > MAX_EXPANDED_CASES
    {
        out.push((
            format!("{base}/expand"),
            true,
            format!(
                "the expansion gives {} cases; at most {MAX_EXPANDED_CASES} are allowed per case",
                match expansion.case_count() {
                    usize::MAX => "more than 2^64".to_string(),
                    n => n.to_string(),
                }
            ),
        ));
        return false;
    }
    check_expansion_values(raw, base, out);
    if let Some(names) = &case.id_from {
        for name in names.iter().filter(|n| !bound.contains(*n)) {
            out.push((
                format!("{base}/id_from"),
                false,
                format!("`id_from` names `{name}`, which the expansion does not bind"),
            ));
        }
    }
    let mut ids: HashSet<String> = HashSet::new();
    let rows_listed = matches!(case.expand, Some(super::model::Expansion::Rows(_)));
    let rows = case.expand.as_ref().map(|e| e.rows()).unwrap_or_default();
    for (i, bindings) in rows.iter().enumerate() {
        let id = super::id::expanded_id(&case.id, bindings, case.id_from.as_deref());
        if !ids.insert(id.clone()) {
            out.push((
                if rows_listed {
                    format!("{base}/expand/{i}")
                } else {
                    format!("{base}/expand")
                },
                false,
                format!("two expansion rows give the same case id `{id}`"),
            ));
        }
    }
    true
}

/// Every templated string: placeholders that resolve, shipped fixtures, probe URLs on
/// loopback; and every expansion variable used somewhere.
fn check_templates(
    raw: &Value,
    base: &str,
    (bound, rows): (&BTreeSet<String>, &[Row]),
    options: &CheckOptions,
    out: &mut Vec<Finding>,
) {
    let mut used: HashSet<String> = HashSet::new();
    // A case that exists only behind --allow-external-probe-urls may point anywhere.
    let external = super::external_gate::gated_raw(raw);
    for (pointer, subtree) in templated_subtrees(raw) {
        let mut strings = Vec::new();
        walk_strings(subtree, format!("{base}{pointer}"), &mut strings);
        for (p, s) in strings {
            match template::placeholders(s) {
                Err(e) => out.push((p.clone(), false, format!("bad template: {e}"))),
                Ok(names) => {
                    for name in names {
                        if let Some(problem) = check_placeholder(&name, bound, options) {
                            out.push((p.clone(), false, problem));
                        }
                        used.insert(name);
                    }
                }
            }
            // A literal fixture path must name a shipped fixture; templated ones are
            // checked when the case runs.
            if p.ends_with("/fixture") && !s.contains('{') && builtin::fixture(s).is_none() {
                out.push((p.clone(), false, format!("no fixture `fixtures/{s}`")));
            }
            if p.ends_with("/$media/url")
                && !external
                && let Some(problem) = check_expanded_probe_url(s, rows, options)
            {
                out.push((p.clone(), false, problem));
            }
        }
    }
    for var in bound {
        if !used.contains(var) {
            out.push((
                format!("{base}/expand"),
                false,
                format!(
                    "expansion variable `{var}` is never used, so its cases would be identical"
                ),
            ));
        }
    }
}

/// What `request` and `expect` ask that the schema cannot check: no discovery body, the
/// witness rules, a schema that exists or compiles.
fn check_expectations(case: &CaseSpec, raw: &Value, base: &str, out: &mut Vec<Finding>) {
    if case.endpoint() == Some("discovery")
        && case.request.as_ref().is_some_and(|r| r.body.is_some())
    {
        out.push((
            format!("{base}/request/body"),
            true,
            "the discovery endpoint takes no body".into(),
        ));
    }
    super::witness_checks::check(case, raw, base, out);
    if let Some(schema) = &case.expect.schema {
        if let Some(name) = &schema.reference
            && builtin::schema(name).is_none()
        {
            out.push((
                format!("{base}/expect/schema/ref"),
                false,
                format!(
                    "no shipped schema named `{name}` (known: {})",
                    builtin::schema_names().join(", ")
                ),
            ));
        }
        if let Some(inline) = &schema.inline
            && let Err(e) = jsonschema::options().build(inline)
        {
            out.push((
                format!("{base}/expect/schema/inline"),
                false,
                format!("inline schema does not compile: {e}"),
            ));
        }
    }
}

/// Every semantic problem in a schema-valid file.
pub fn check(file: &ScenarioFile, raw: &Value, options: &CheckOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, case) in file.cases.iter().enumerate() {
        let base = format!("/cases/{i}");
        if !seen.insert(case.id.as_str()) {
            out.push((
                format!("{base}/id"),
                false,
                format!("duplicate case id `{}` in this file", case.id),
            ));
        }
        if let Some(raw_case) = raw.pointer(&base) {
            check_case(case, raw_case, &base, options, &mut out);
            if let Some(lint_case) = options.lint_case {
                out.extend(lint_case(&file.profile, case, raw_case, &base));
            }
        }
    }
    out
}

#[cfg(test)]
mod probe_url_tests {
    use super::*;

    fn strict() -> CheckOptions {
        CheckOptions::default()
    }

    #[test]
    fn loopback_and_data_urls_pass_and_others_are_refused() {
        assert_eq!(check_probe_url("http://127.0.0.1:9/a.png", &strict()), None);
        assert_eq!(check_probe_url("file:///etc/passwd", &strict()), None);
        assert!(check_probe_url("file://example.com/etc/passwd", &strict()).is_some());
        let rows = vec![
            vec![("url".to_string(), "gopher://127.0.0.1:9/_x".to_string())],
            vec![("url".to_string(), "ftp://example.com/x".to_string())],
        ];
        // Each row is checked with its own value: the second points away from loopback.
        assert!(check_expanded_probe_url("{url}", &rows, &strict()).is_some());
        assert_eq!(
            check_expanded_probe_url("{url}", &rows[..1], &strict()),
            None
        );
        assert_eq!(
            check_probe_url("data:image/png;base64,iVBORw0KGgo=", &strict()),
            None
        );
        let refused = check_probe_url("https://example.com/a.png", &strict());
        assert!(refused.is_some_and(|p| p.contains("does not point at loopback")));
        let templated = check_probe_url("http://{host}/a.png", &strict());
        assert!(templated.is_some());
    }

    #[test]
    fn an_expanded_host_is_checked_row_by_row() {
        let row = |v: &str| vec![("a".to_string(), v.to_string())];
        let url = "http://[{a}]:9/x/{nonce}";
        let loopback = [row("::ffff:7f00:1"), row("64:ff9b::7f00:1")];
        assert_eq!(check_expanded_probe_url(url, &loopback, &strict()), None);
        let public = [row("::ffff:7f00:1"), row("64:ff9b::5db8:d822")];
        let refused = check_expanded_probe_url(url, &public, &strict());
        assert!(refused.is_some_and(|p| p.contains("64:ff9b::5db8:d822")));
        // Unexpanded, the templated host is still refused.
        assert!(check_expanded_probe_url(url, &[], &strict()).is_some());
    }

    #[test]
    fn embedded_and_alternative_spellings_of_loopback_are_loopback() {
        for url in [
            "http://[::ffff:7f00:1]:9/a",
            "http://[64:ff9b::7f00:1]:9/a",
            "http://[2002:7f00:1::]:9/a",
            "http://[::7f00:1]:9/a",
            "http://2130706433:9/a",
            "http://0x7f000001:9/a",
            "http://127.1:9/a",
        ] {
            assert_eq!(check_probe_url(url, &strict()), None, "{url}");
        }
        for url in [
            "http://[64:ff9b::5db8:d822]/a",
            "http://[::ffff:a9fe:a9fe]/a",
        ] {
            assert!(check_probe_url(url, &strict()).is_some(), "{url}");
        }
    }
}
