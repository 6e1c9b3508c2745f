//! Embeds every file under `scenarios/`, `schemas/` and (JSON) `fixtures/` into the binary, so adding a
//! scenario file to the repository is enough to ship it (no Rust edit needed).
//!
//! Each built-in YAML scenario file is also parsed here, with the options the tool's own
//! loader uses, and embedded as JSON beside its text: a run then reads the built-in suite
//! with the JSON parser instead of parsing YAML at every start (the YAML parse was most of
//! the start-up). A file that does not parse gets no JSON: the tool parses its YAML at run
//! time and reports the problem at its file:line:col, as for any file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, exts, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(path);
        }
    }
}

fn table(name: &str, root: &Path, exts: &[&str], code: &mut String) {
    let dir = root.join(name);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    collect(&dir, exts, &mut files);
    let upper = name.to_uppercase();
    writeln!(code, "pub static BUILTIN_{upper}: &[(&str, &str)] = &[").unwrap();
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
        let rel = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        writeln!(
            code,
            "    ({rel:?}, include_str!({:?})),",
            file.display().to_string()
        )
        .unwrap();
    }
    writeln!(code, "];").unwrap();
}

/// `BUILTIN_SCENARIOS_JSON`: (path, JSON of the parsed file) for every YAML scenario
/// file that parses; the JSON is written to OUT_DIR and included from there.
fn parsed_scenarios(root: &Path, out_dir: &Path, code: &mut String) {
    let dir = root.join("scenarios");
    let mut files = Vec::new();
    collect(&dir, &["yaml", "yml"], &mut files);
    let json_dir = out_dir.join("scenarios-json");
    std::fs::create_dir_all(&json_dir).unwrap();
    writeln!(
        code,
        "pub static BUILTIN_SCENARIOS_JSON: &[(&str, &str)] = &["
    )
    .unwrap();
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap();
        let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
        let Ok(value) = serde_saphyr::from_str_with_options::<serde_json::Value>(&text, options)
        else {
            continue;
        };
        let rel = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let json = json_dir.join(format!("{i}.json"));
        std::fs::write(&json, serde_json::to_string(&value).unwrap()).unwrap();
        writeln!(
            code,
            "    ({rel:?}, include_str!({:?})),",
            json.display().to_string()
        )
        .unwrap();
    }
    writeln!(code, "];").unwrap();
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let mut code = String::new();
    table("scenarios", &root, &["yaml", "yml", "json"], &mut code);
    table("schemas", &root, &["json"], &mut code);
    table("fixtures", &root, &["json"], &mut code);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    parsed_scenarios(&root, &out_dir, &mut code);
    std::fs::write(out_dir.join("builtin.rs"), code).unwrap();
}
