//! Discovery: the agent card, fetched once from `/.well-known/agent-card.json` below
//! the target (or, when that is not there, the pre-0.3 `/.well-known/agent.json`,
//! which the run reports), read into the interfaces, the declaration and the planning
//! context of each interface (`a2a.*`).

use super::card::{self, Card, CardVersion};
use super::declaration::Declaration;
use super::interface::Interface;
use super::{CARD_PATH, OLD_CARD_PATH};
use crate::event::DiscoverySnapshot;
use crate::http::{HttpClient, HttpRequest};
use crate::outcome::Exchange;
use mmconform_json::canonical_sha256;
use serde_json::{Value, json};

/// The card as fetched, and what was read from it.
pub struct Fetched {
    pub exchange: Exchange,
    pub status: Option<u16>,
    pub body: Vec<u8>,
    /// The path it was fetched from.
    pub path: String,
    pub card: Option<Card>,
    pub declaration: Declaration,
    /// Why the card is unusable, when it is (exit 4).
    pub problem: Option<String>,
    /// What the run says once about the card.
    pub notes: Vec<String>,
    pub document: Option<Value>,
}

async fn get(client: &HttpClient, path: &str) -> (Exchange, Option<(u16, Vec<u8>, bool)>, String) {
    let request = HttpRequest {
        purpose: "agent card".into(),
        method: reqwest::Method::GET,
        path: path.to_string(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
        auth: true,
    };
    let (exchange, answer) = client.send(&request).await;
    match answer {
        Ok(r) => (
            exchange,
            Some((r.status, r.body, r.truncated)),
            String::new(),
        ),
        Err(e) => (exchange, None, e.to_string()),
    }
}

/// Fetches and reads the card below `base_path` on the client's origin; `accepts`
/// (`--accepts`) overrides its modes.
pub async fn fetch(
    client: &HttpClient,
    base_path: &str,
    origin: &url::Url,
    accepts: Option<&[String]>,
) -> Fetched {
    let mut path = format!("{base_path}{CARD_PATH}");
    let mut notes = Vec::new();
    let (mut exchange, mut answer, mut failure) = get(client, &path).await;
    if answer.as_ref().is_some_and(|(status, _, _)| *status == 404) {
        let old = format!("{base_path}{OLD_CARD_PATH}");
        let (e, a, f) = get(client, &old).await;
        if a.as_ref()
            .is_some_and(|(status, _, _)| (200..300).contains(status))
        {
            notes.push(format!(
                "the card is not at {CARD_PATH} (404); read from {OLD_CARD_PATH}, where drafts before 0.3 put it"
            ));
            (exchange, answer, failure, path) = (e, a, f, old);
        }
    }
    let url = client.url(&path);
    let (status, body, document, problem) = match answer {
        None => (
            None,
            Vec::new(),
            None,
            Some(format!("GET {url} failed: {failure}")),
        ),
        Some((status, body, truncated)) => {
            let parsed = mmconform_json::bounded::parse(&body)
                .ok()
                .filter(Value::is_object);
            let problem = if !(200..300).contains(&status) {
                Some(format!("GET {url} answered HTTP {status}: no agent card"))
            } else if parsed.is_none() {
                let cut = if truncated {
                    " (cut at the read cap; raise --max-response-bytes)"
                } else {
                    ""
                };
                Some(format!("GET {url} did not return a JSON object{cut}"))
            } else {
                None
            };
            (Some(status), body, parsed, problem)
        }
    };
    let card = document
        .as_ref()
        .filter(|_| problem.is_none())
        .map(|d| card::read(d, origin));
    let declaration = match (accepts, &card) {
        (Some(list), card) => {
            // Checked when the run opened: a list that does not read is a usage error.
            let d =
                Declaration::from_flag(list, card.as_ref()).unwrap_or_else(|_| Declaration::none());
            if let Some(c) = card {
                let modes = c
                    .input_modes
                    .as_ref()
                    .map_or("none".to_string(), |m| m.join(", "));
                notes.push(format!(
                    "--accepts overrides the card's defaultInputModes ({modes})"
                ));
            }
            d
        }
        (None, Some(card)) => Declaration::from_card(card),
        (None, None) => Declaration::none(),
    };
    if let Some(card) = &card {
        notes.extend(card.notes.iter().cloned());
        notes.extend(card.unspoken.iter().map(|u| format!("not spoken: {u}")));
        notes.extend(declaration.skills.iter().map(|s| format!("skill {s}")));
        if !declaration.not_media_types.is_empty() {
            notes.push(format!(
                "defaultInputModes holds modes that are not media types ({}); read as {}",
                declaration.not_media_types.join(", "),
                declaration.accepts.join(", ")
            ));
        }
    }
    Fetched {
        exchange,
        status,
        body,
        path,
        card,
        declaration,
        problem,
        notes,
        document,
    }
}

impl Fetched {
    /// The planning context of `interface` (`None`: the card names none mmconform
    /// speaks), tagged `tag` when it is a variant's.
    pub fn context(&self, interface: Option<&Interface>, tag: Option<&str>) -> Value {
        let mut a2a = self.declaration.facts();
        let card = self.card.as_ref();
        let facts = json!({
            "cardVersion": card.map(|c| match c.version {
                CardVersion::V1 => "1.0",
                CardVersion::V03 => "0.3",
            }),
            "cardPath": self.path,
            "interface": interface,
            "version": interface.map(|i| i.version.number()),
            "binding": interface.map(|i| i.binding.name()),
            "streaming": card.is_some_and(|c| c.streaming),
            "securityRequired": card.is_some_and(|c| c.security.required),
            "interfaces": card.map(|c| c.interfaces.iter().map(Interface::describe).collect::<Vec<_>>()),
            "tag": tag,
        });
        if let (Value::Object(map), Value::Object(more)) = (&mut a2a, facts) {
            map.extend(more);
        }
        json!({"a2a": a2a})
    }

    /// What reports show of the card.
    pub fn snapshot(&self, url: String, facts: &Value) -> DiscoverySnapshot {
        DiscoverySnapshot {
            url,
            status: self.status,
            canonical_sha256: self.document.as_ref().map(canonical_sha256),
            document: self.document.clone(),
            problem: self.problem.clone(),
            facts: facts.clone(),
            variants: Default::default(),
            notes: self.notes.clone(),
        }
    }
}
