//! The matrix's columns: input reports grouped by host (see [`super::identity`]).

use super::identity::{DigestOf, HostKey, advertised, host_key, protocol};
use super::input::InputReport;
use serde::Serialize;

/// One host: every report about it, and what they say about it.
#[derive(Debug, Clone, Serialize)]
pub struct Host {
    /// `H1`, `H2`, ... in the order hosts first appear among the inputs.
    pub id: String,
    pub origin: String,
    pub digest: Option<String>,
    pub digest_of: DigestOf,
    /// What it advertised (openwop discovery) or was declared to accept (AG-UI).
    pub advertised: Vec<String>,
    /// Wire protocol(s) of its runs.
    pub protocols: Vec<String>,
    /// Dates (UTC) its runs started.
    pub dates: Vec<String>,
    pub tool_versions: Vec<String>,
    /// `default`, `require`, `strict` or `strict+require`, per distinct run mode.
    pub modes: Vec<String>,
    /// The targets as the reports show them (the embedded hosts' ports differ per run).
    pub targets: Vec<String>,
    /// The input reports (`#n`) about this host; more than one counts once.
    pub reports: Vec<usize>,
}

impl Host {
    /// The first 12 hex digits of the digest, or `-`.
    pub fn short_digest(&self) -> String {
        self.digest
            .as_deref()
            .map_or_else(|| "-".to_string(), |d| d.chars().take(12).collect())
    }

    /// `H1 reference 7523aebb21d9`.
    pub fn label(&self) -> String {
        format!("{} {} {}", self.id, self.origin, self.short_digest())
    }

    fn key(&self) -> HostKey {
        HostKey {
            origin: self.origin.clone(),
            digest: self.digest.clone(),
            digest_of: self.digest_of,
        }
    }
}

fn push_unique(list: &mut Vec<String>, value: String) {
    if !list.contains(&value) {
        list.push(value);
    }
}

/// Groups the inputs by host, in input order.
pub fn group(inputs: &[InputReport]) -> Vec<Host> {
    let mut hosts: Vec<Host> = Vec::new();
    for input in inputs {
        let report = &input.report;
        let key = host_key(report);
        let at = match hosts.iter().position(|h| h.key() == key) {
            Some(i) => i,
            None => {
                hosts.push(Host {
                    id: format!("H{}", hosts.len() + 1),
                    origin: key.origin.clone(),
                    digest: key.digest.clone(),
                    digest_of: key.digest_of,
                    advertised: advertised(report, &input.reading),
                    protocols: Vec::new(),
                    dates: Vec::new(),
                    tool_versions: Vec::new(),
                    modes: Vec::new(),
                    targets: Vec::new(),
                    reports: Vec::new(),
                });
                hosts.len() - 1
            }
        };
        let host = &mut hosts[at];
        let run = &report["run"];
        let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
        push_unique(&mut host.protocols, protocol(report, &input.reading));
        push_unique(
            &mut host.dates,
            text(&run["started_at"]).chars().take(10).collect(),
        );
        push_unique(&mut host.tool_versions, text(&run["tool_version"]));
        push_unique(
            &mut host.modes,
            crate::report::mode_label(run["strict"] == true, run["require"] == true).to_string(),
        );
        push_unique(&mut host.targets, text(&run["target"]));
        host.reports.push(input.index);
    }
    hosts
}

/// One sentence per host with several reports: they count once.
pub fn counted_once(hosts: &[Host]) -> Vec<String> {
    hosts
        .iter()
        .filter(|h| h.reports.len() > 1)
        .map(|h| {
            let reports: Vec<String> = h.reports.iter().map(|r| format!("#{r}")).collect();
            format!(
                "{}: reports {} are of the same host (origin {}, {} digest {}); it counts once",
                h.id,
                reports.join(", "),
                h.origin,
                match h.digest_of {
                    DigestOf::Discovery => "discovery",
                    DigestOf::Declaration => "declaration",
                    DigestOf::Nothing => "no",
                },
                h.short_digest()
            )
        })
        .collect()
}
