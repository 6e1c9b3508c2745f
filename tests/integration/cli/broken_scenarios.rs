//! The broken-scenario corpus: every file under tests/fixtures/broken/ plus generated
//! ones (huge, deeply nested, exploding) must exit 2 with `file:line:col`, without a
//! panic and quickly, before anything is sent. `expectations.tsv` beside the files
//! says where each problem is and what the message says.

use crate::common::{bin, fixture};
use std::path::Path;
use std::time::{Duration, Instant};

struct Expectation {
    file: String,
    location: String,
    message: String,
}

fn expectations() -> Vec<Expectation> {
    let text = std::fs::read_to_string(fixture("broken/expectations.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split('\t');
            let mut next = || fields.next().unwrap_or_else(|| panic!("bad line {l:?}"));
            Expectation {
                file: next().to_string(),
                location: next().to_string(),
                message: next().to_string(),
            }
        })
        .collect()
}

/// Runs `lint` on `path` and checks the contract: exit 2, no panic, in time, and the
/// expected `file:line:col` with the message among the diagnostics.
fn assert_refused(path: &Path, location: &str, message: &str) {
    let started = Instant::now();
    let out = bin()
        .arg("lint")
        .arg(path)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = path.display();
    assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name} panicked: {stderr}");
    assert!(elapsed < Duration::from_secs(20), "{name} took {elapsed:?}");
    // The diagnostic's message line precedes its `--> file:line:col` line.
    let lines: Vec<&str> = stderr.lines().collect();
    let at = format!("--> {name}:{location}");
    let found = lines.windows(2).any(|w| {
        w[1].trim_start().starts_with(&at) && w[0].starts_with("error: ") && w[0].contains(message)
    });
    assert!(
        found,
        "{name}: expected `{message}` at {location} in\n{stderr}"
    );
}

#[test]
fn every_broken_file_exits_2_with_file_line_col() {
    let expected = expectations();
    let dir = fixture("broken");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expectations.tsv")
        .collect();
    files.sort();
    let listed: Vec<&str> = expected.iter().map(|e| e.file.as_str()).collect();
    for file in &files {
        assert!(
            listed.contains(&file.as_str()),
            "{file} has no line in expectations.tsv"
        );
    }
    assert!(files.len() >= 30, "the corpus has {} files", files.len());
    for e in &expected {
        assert_refused(&dir.join(&e.file), &e.location, &e.message);
    }
}

fn generated(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const HEAD: &str = "mmconform: 1\nprofile: openwop\ncases:\n";

fn case(i: usize, level: &str) -> String {
    format!(
        "  - id: gen.case-{i}\n    title: t\n    requirement: {{ source: s, level: {level}, text: t }}\n    request: {{ endpoint: ai-call }}\n    expect: {{ status: 200 }}\n"
    )
}

#[test]
fn generated_huge_deep_and_exploding_files_exit_2_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Over the size limit: refused before parsing.
    let huge = format!("{HEAD}{}", "# padding\n".repeat(220_000));
    let path = generated(d, "huge.yaml", &huge);
    assert_refused(&path, "1:1", "scenario files are limited to 2097152 bytes");

    // Just under it, thousands of cases, the one mistake on the last line but four.
    let count = 7_000;
    let mut big = HEAD.to_string();
    for i in 0..count {
        big.push_str(&case(i, "MUST"));
    }
    big.push_str(&case(count, "MUSTY"));
    assert!(big.len() < 2 * 1024 * 1024);
    let line = big.lines().count() - 2;
    let path = generated(d, "many-cases.yaml", &big);
    assert_refused(&path, &format!("{line}:38"), "is not one of \"MUST\"");

    // One line of nearly 2 MiB: the caret display cuts around the column.
    let long = format!(
        "{{\"mmconform\": 1, \"profile\": \"openwop\", \"pad\": \"{}\", \"cases\": [}}",
        "x".repeat(1_900_000)
    );
    let path = generated(d, "one-long-line.json", &long);
    assert_refused(&path, &format!("1:{}", long.len()), "invalid JSON");

    // 100 000 levels deep, in both syntaxes and both collection kinds.
    let deep = 100_000;
    let path = generated(
        d,
        "deep-sequences.yaml",
        format!("{HEAD}{}{}", "[".repeat(deep), "]".repeat(deep)),
    );
    assert_refused(&path, "4:", "recursion limit exceeded");
    let path = generated(
        d,
        "deep-mappings.yaml",
        format!("{HEAD}{}1{}", "{a: ".repeat(deep), "}".repeat(deep)),
    );
    assert_refused(&path, "4:", "recursion limit exceeded");
    let path = generated(
        d,
        "deep.json",
        format!(
            "{{\"mmconform\": 1, \"cases\": {}{}}}",
            "[".repeat(deep),
            "]".repeat(deep)
        ),
    );
    assert_refused(&path, "1:", "recursion limit exceeded");

    // A product of six 30-value lists names 729 million cases.
    let values = (0..30)
        .map(|i| format!("v{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let vars = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|v| format!("{v}: [{values}]"))
        .collect::<Vec<_>>()
        .join(", ");
    let path = generated(
        d,
        "product.yaml",
        format!(
            "{HEAD}  - id: gen.product\n    title: \"{{a}}{{b}}{{c}}{{d}}{{e}}{{f}}\"\n    requirement: {{ source: s, level: MUST, text: t }}\n    expand: {{ {vars} }}\n    request: {{ endpoint: ai-call }}\n    expect: {{ status: 200 }}\n"
        ),
    );
    assert_refused(&path, "7:5", "the expansion gives 729000000 cases");
}

#[test]
fn a_broken_file_stops_run_and_list_before_any_request() {
    for file in [
        "alias-bomb.yaml",
        "expansion-explosion.yaml",
        "circular-alias.yaml",
    ] {
        let path = fixture("broken").join(file);
        for command in ["run", "list"] {
            let out = bin()
                .args([command, "--target", "http://127.0.0.1:9", "--scenarios"])
                .arg(&path)
                .timeout(Duration::from_secs(60))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} {file}: {stderr}");
            assert!(stderr.contains("nothing was sent"), "{stderr}");
        }
    }
}
