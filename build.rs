//! Embeds every file under `scenarios/`, `schemas/` and (JSON) `fixtures/` into the binary, so adding a
//! scenario file to the repository is enough to ship it (no Rust edit needed).

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

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let mut code = String::new();
    table("scenarios", &root, &["yaml", "yml", "json"], &mut code);
    table("schemas", &root, &["json"], &mut code);
    table("fixtures", &root, &["json"], &mut code);
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("builtin.rs");
    std::fs::write(out, code).unwrap();
}
