use super::*;
use crate::scenario::load::LoadedFile;

/// The built-in packs, loaded as a run loads them.
fn builtin() -> Vec<LoadedFile> {
    crate::scenario::builtin::load_files(&crate::registry::check_options(false))
        .expect("the built-in packs load")
}

/// Every case of `files`, by id.
fn by_id(files: &[LoadedFile]) -> BTreeMap<&str, Known<'_>> {
    files
        .iter()
        .flat_map(|f| {
            f.file.cases.iter().map(|spec| {
                (
                    spec.id.as_str(),
                    Known {
                        profile: f.file.profile.as_str(),
                        spec,
                    },
                )
            })
        })
        .collect()
}

#[test]
fn every_door_has_every_pair_or_says_why_not() {
    let table = table().unwrap();
    let files = builtin();
    let problems = problems(&table, &by_id(&files));
    assert!(
        problems.is_empty(),
        "{} problem(s) with scenarios/malformations.toml:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_committed_parity_page_is_up_to_date() {
    use super::super::parity_page::{PAGE, REGENERATE, markdown};
    let table = table().unwrap();
    let files = builtin();
    let generated = markdown(&table, &by_id(&files));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PAGE);
    if std::env::var_os("UPDATE_PARITY_TABLE").is_some() {
        crate::report::write_atomically(&path, generated.as_bytes()).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{PAGE} is out of date: run `{REGENERATE}` and commit the result"
    );
}

/// A small pack of one door, parsed from YAML, for the checks' own tests.
fn pack(yaml: &str) -> Vec<LoadedFile> {
    let file = serde_saphyr::from_str(yaml).expect("test pack parses");
    vec![LoadedFile {
        name: "test.yaml".into(),
        sha256: String::new(),
        file,
    }]
}

const PACK: &str = r#"
mmconform: 1
profile: door
cases:
  - id: door.malformed.no-crash.x
    title: t
    requirement: { source: s, level: MUST, text: t }
    request: { endpoint: e, body: {} }
    expect: { stream: { not: [crashed, broken] }, witness: withheld-or-repaired }
  - id: door.malformed.refused.x
    title: t
    requirement: { source: s, level: SHOULD, text: t }
    request: { endpoint: e, body: {} }
    expect: { status: 400 }
  - id: door.malformed.no-crash.weak
    title: t
    requirement: { source: s, level: SHOULD, text: t }
    request: { endpoint: e, body: {} }
    expect: { stream: { not: [crashed, broken] }, witness: withheld-or-repaired }
  - id: door.malformed.no-crash.blind
    title: t
    requirement: { source: s, level: MUST, text: t }
    request: { endpoint: e, body: {} }
    expect: { stream: { not: [crashed, broken] } }
  - id: door.malformed.refused.lenient
    title: t
    requirement: { source: s, level: SHOULD, text: t }
    request: { endpoint: e, body: {} }
    expect: { status: [200, 400] }
"#;

fn table_with(cells: &str) -> Table {
    toml::from_str(&format!(
        "[[class]]\nid = \"x\"\ntitle = \"x\"\n\n[[door]]\nprofile = \"door\"\nname = \"Door\"\n\
         covers = [\"door.malformed.*\"]\n[door.others]\n\"door.malformed.no-crash.weak\" = \"w\"\n\
         \"door.malformed.no-crash.blind\" = \"b\"\n\"door.malformed.refused.lenient\" = \"l\"\n\
         [door.cells]\n{cells}\n"
    ))
    .unwrap()
}

fn problems_of(cells: &str) -> Vec<String> {
    let files = pack(PACK);
    problems(&table_with(cells), &by_id(&files))
}

#[test]
fn a_full_pair_is_no_problem() {
    let ok = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.x", refused = "door.malformed.refused.x" }"#,
    );
    assert!(ok.is_empty(), "{ok:?}");
    let reason = problems_of(r#"x = { cannot = "no such field" }"#);
    assert_eq!(
        reason,
        [
            "door: `door.malformed.no-crash.x` judges a malformation but is in no cell (put it in its class's pair, or in `others` with why)",
            "door: `door.malformed.refused.x` judges a malformation but is in no cell (put it in its class's pair, or in `others` with why)"
        ]
    );
}

#[test]
fn a_door_that_can_express_a_class_but_lacks_its_pair_fails() {
    let half = problems_of(r#"x = { refused = "door.malformed.refused.x" }"#);
    assert!(
        half.iter()
            .any(|p| p == "door `x`: a refused case but no no-crash twin"),
        "{half:?}"
    );
    let silent = problems_of("");
    assert!(
        silent.iter().any(|p| p.contains("says nothing about `x`")),
        "{silent:?}"
    );
    let both = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.x", refused = "door.malformed.refused.x", cannot = "why" }"#,
    );
    assert!(both.iter().any(|p| p.contains("both a pair and a reason")));
}

#[test]
fn each_case_must_do_its_role() {
    let weak = problems_of(
        r#"x = { no-crash = ["door.malformed.no-crash.x", "door.malformed.no-crash.weak"], refused = "door.malformed.refused.x" }"#,
    );
    assert!(
        weak.iter().any(|p| p.contains("is SHOULD, not MUST")),
        "{weak:?}"
    );
    let blind = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.blind", refused = "door.malformed.refused.x" }"#,
    );
    assert!(
        blind.iter().any(|p| p.contains("withheld-or-repaired")),
        "{blind:?}"
    );
    let lenient = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.x", refused = "door.malformed.refused.lenient" }"#,
    );
    assert!(
        lenient
            .iter()
            .any(|p| p.contains("does not expect a refusal")),
        "{lenient:?}"
    );
    let unwitnessed = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.blind", refused = "door.malformed.refused.x", unwitnessed = "no nonce" }"#,
    );
    assert!(
        unwitnessed.iter().all(|p| !p.contains("withheld")),
        "{unwitnessed:?}"
    );
    let claimed = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.x", refused = "door.malformed.refused.x", unwitnessed = "no nonce" }"#,
    );
    assert!(
        claimed.iter().any(|p| p.contains("yet the table says")),
        "{claimed:?}"
    );
    let missing = problems_of(
        r#"x = { no-crash = "door.malformed.no-crash.gone", refused = "door.malformed.refused.x" }"#,
    );
    assert!(
        missing
            .iter()
            .any(|p| p.contains("no case `door.malformed.no-crash.gone`"))
    );
}

#[test]
fn the_page_shows_every_door_and_class() {
    let files = pack(PACK);
    let page = super::super::parity_page::markdown(
        &table_with(
            r#"x = { no-crash = "door.malformed.no-crash.x", refused = "door.malformed.refused.x" }"#,
        ),
        &by_id(&files),
    );
    assert!(page.contains("| malformation | Door (`door`) |"), "{page}");
    assert!(page.contains(
        "| x (`x`) | no-crash: `door.malformed.no-crash.x`<br>refused: `door.malformed.refused.x` |"
    ));
    assert!(page.contains("- `door.malformed.no-crash.weak`: w"));
}
