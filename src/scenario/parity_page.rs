//! `docs/guide/malformations.md`, rendered from the malformation table
//! (`scenarios/malformations.toml`, read by [`super::parity`]) and the packs: a test
//! fails when the committed page differs, and the same test writes it when
//! `UPDATE_PARITY_TABLE` is set (`make parity-table`).

use super::parity::{Cell, Ids, Known, Table};
use crate::outcome::Level;
use std::collections::BTreeMap;

/// The command that writes the page.
pub const REGENERATE: &str = "make parity-table";

/// Where the page lives in the repository.
pub const PAGE: &str = "docs/guide/malformations.md";

/// The whole page.
pub fn markdown(table: &Table, cases: &BTreeMap<&str, Known>) -> String {
    let mut page = format!(
        "# Malformation parity\n\n\
         <!-- Generated from scenarios/malformations.toml by `{REGENERATE}`; do not edit by hand. -->\n\n\
         The same malformed input gets the same verdict on every door. Each malformation is \
         judged on every door that can express it by a pair of cases:\n\n\
         - **no-crash** (MUST): no 5xx, no answer that is not the protocol, and with \
         `--witness` never forwarded to the model as malformed (`witness: \
         withheld-or-repaired`). A gateway that repairs the input into a valid call is warned \
         (SHOULD) with what it changed; a part it dropped is said as dropped.\n\
         - **refused** (SHOULD): answered with a refusal (a 4xx, or the door's error event), \
         never a success.\n\n\
         A case that is both is a MUST refusal that also expects `witness: withheld`. Where a \
         door cannot express a malformation, the cell says why. A test fails when a door can \
         express one and lacks its pair, or when a malformed case of a door is in no cell: a \
         new case or a new door (one `[[door]]` in `scenarios/malformations.toml`) goes into \
         the table, then `{REGENERATE}` writes this page.\n\n"
    );
    page.push_str("| malformation |");
    for door in &table.doors {
        page.push_str(&format!(" {} (`{}`) |", door.name, door.profile));
    }
    page.push_str("\n|---|");
    page.push_str(&"---|".repeat(table.doors.len()));
    page.push('\n');
    for class in &table.classes {
        page.push_str(&format!("| {} (`{}`) |", cell_text(&class.title), class.id));
        for door in &table.doors {
            let shown = door
                .cells
                .get(&class.id)
                .map_or_else(|| "(nothing yet)".to_string(), |c| cell(c, cases));
            page.push_str(&format!(" {shown} |"));
        }
        page.push('\n');
    }
    let others: Vec<String> = table
        .doors
        .iter()
        .flat_map(|d| {
            d.others
                .iter()
                .map(|(id, why)| format!("- `{id}`: {why}\n"))
        })
        .collect();
    if !others.is_empty() {
        page.push_str("\nMalformed-input cases that judge no one class:\n\n");
        page.push_str(&others.concat());
    }
    page
}

/// One door's cell: its cases by role, or why it has none.
fn cell(cell: &Cell, cases: &BTreeMap<&str, Known>) -> String {
    if let Some(why) = &cell.cannot {
        return format!("*cannot:* {}", cell_text(why));
    }
    let (no_crash, refused) = (ids(&cell.no_crash), ids(&cell.refused));
    if no_crash == refused {
        return format!("both: {}", listed(&refused, cases));
    }
    let plain = |ids: &[&str]| {
        ids.iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let unwitnessed = cell
        .unwitnessed
        .as_ref()
        .map(|why| format!(" (unwitnessed: {})", cell_text(why)))
        .unwrap_or_default();
    format!(
        "no-crash: {}{unwitnessed}<br>refused: {}",
        plain(&no_crash),
        listed(&refused, cases)
    )
}

fn ids(ids: &Option<Ids>) -> Vec<&str> {
    ids.as_ref().map(Ids::list).unwrap_or_default()
}

/// `` `id` `` for each refused case, with its level when it is stronger than a refusal
/// needs (MUST).
fn listed(ids: &[&str], cases: &BTreeMap<&str, Known>) -> String {
    ids.iter()
        .map(|id| match cases.get(id).map(|k| k.spec.requirement.level) {
            Some(Level::Must) => format!("`{id}` (MUST)"),
            _ => format!("`{id}`"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text made safe for one Markdown table cell: one line, `|` escaped.
fn cell_text(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}
