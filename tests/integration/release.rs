//! What a release needs, tested where there is no GitHub and no Docker engine: the
//! shared scripts (`scripts/release/`) that the release workflow, the Dockerfile and the
//! composite action call. Asset names per platform agree with `cargo binstall`'s
//! metadata; the action's install step, against a file server on 127.0.0.1, installs a
//! release whose checksum matches, refuses a tampered one (fail closed) and falls back
//! to building when no release matches; its run step passes each line of `args` as one
//! argument; a source build's cache key follows the sources; a release build packs
//! only the version its tag names; the workflow and the Dockerfile have the structure
//! they must.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn script(name: &str) -> PathBuf {
    repository().join("scripts/release").join(name)
}

/// `lib.sh`'s function `call` with `args`, in POSIX sh.
fn lib(call: &str, args: &[&str]) -> Output {
    let source = format!(". '{}'; {call} \"$@\"", script("lib.sh").display());
    Command::new("sh")
        .arg("-c")
        .arg(source)
        .arg("lib")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| matches!(v.trim(), "true" | "1"))
}

fn curl_present() -> bool {
    let present = Command::new("curl").arg("--version").output().is_ok();
    assert!(
        present || !in_ci(),
        "curl is missing, and CI=true: the install step needs it"
    );
    if !present {
        eprintln!("WARNING: curl not found: the install step was NOT tested");
    }
    present
}

#[test]
fn every_platform_has_a_target_and_its_asset_is_the_one_binstall_fetches() {
    let platforms = [
        ("Linux", "X64", "x86_64-unknown-linux-musl"),
        ("Linux", "ARM64", "aarch64-unknown-linux-musl"),
        ("Linux", "x86_64", "x86_64-unknown-linux-musl"),
        ("Linux", "aarch64", "aarch64-unknown-linux-musl"),
        ("macOS", "X64", "x86_64-apple-darwin"),
        ("macOS", "ARM64", "aarch64-apple-darwin"),
        ("Darwin", "arm64", "aarch64-apple-darwin"),
        ("Windows", "X64", "x86_64-pc-windows-msvc"),
    ];
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(repository().join("Cargo.toml")).unwrap()).unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let template = binstall["pkg-url"].as_str().unwrap();
    let bin_dir = binstall["bin-dir"].as_str().unwrap();
    for (os, arch, target) in platforms {
        assert_eq!(
            stdout(&lib("mmconform_target_for", &[os, arch])),
            target,
            "{os} {arch}"
        );
        let asset = stdout(&lib("mmconform_asset", &["v1.2.3", target]));
        let windows = target.contains("windows");
        let suffix = if windows { ".zip" } else { ".tar.gz" };
        let rendered = template
            .replace("{ repo }", "https://h/o/mmconform")
            .replace("{ version }", "1.2.3")
            .replace("{ name }", "mmconform")
            .replace("{ target }", target)
            .replace("{ archive-suffix }", suffix);
        assert_eq!(
            rendered,
            format!("https://h/o/mmconform/releases/download/v1.2.3/{asset}")
        );
        let binary = stdout(&lib("mmconform_binary_name", &[target]));
        let inside = bin_dir
            .replace("{ name }", "mmconform")
            .replace("{ version }", "1.2.3")
            .replace("{ target }", target)
            .replace("{ bin }{ binary-ext }", &binary);
        let dir = stdout(&lib("mmconform_asset_dir", &["v1.2.3", target]));
        assert_eq!(inside, format!("{dir}/{binary}"));
        let format = match binstall.get("overrides").and_then(|o| o.get(target)) {
            Some(o) => o["pkg-fmt"].as_str().unwrap(),
            None => binstall["pkg-fmt"].as_str().unwrap(),
        };
        assert_eq!(format, if windows { "zip" } else { "tgz" }, "{target}");
    }
    assert!(
        !lib("mmconform_target_for", &["Plan9", "X64"])
            .status
            .success()
    );
    assert!(
        !lib("mmconform_target_for", &["Windows", "ARM64"])
            .status
            .success()
    );
    for (reference, release) in [
        ("v1.2.3", true),
        ("v0.10.0-rc.1", true),
        ("main", false),
        ("0123456789abcdef0123456789abcdef01234567", false),
        ("v1", false),
    ] {
        assert_eq!(
            lib("mmconform_is_release_ref", &[reference])
                .status
                .success(),
            release,
            "{reference}"
        );
    }
}

/// build.sh with `cargo` replaced by a script that "builds" a binary saying
/// `mmconform SAID` (and notes that it ran), in `dir`: its exit code, output, and
/// whether cargo ran.
fn build(dir: &Path, tag: &str, said: &str) -> (i32, String, bool) {
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let cargo = tools.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\n\
         while [ \"$1\" != --target ]; do shift; done\n\
         mkdir -p \"target/$2/release\"\n\
         printf '#!/bin/sh\\necho \"mmconform %s\"\\n' \"$FAKE_SAID\" > \"target/$2/release/mmconform\"\n\
         chmod +x \"target/$2/release/mmconform\"\n\
         touch cargo-ran\n",
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_file(dir.join("cargo-ran"));
    let out = Command::new(script("build.sh"))
        .args(["native", tag, "dist"])
        .current_dir(dir)
        .env(
            "PATH",
            format!("{}:{}", tools.display(), std::env::var("PATH").unwrap()),
        )
        .env("FAKE_SAID", said)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap_or(-1),
        text,
        dir.join("cargo-ran").exists(),
    )
}

#[test]
fn a_release_build_packs_only_the_version_its_tag_names() {
    let version = env!("CARGO_PKG_VERSION");
    let tag = format!("v{version}");
    let target = stdout(&lib(
        "mmconform_target_for",
        &[
            &stdout(&Command::new("uname").arg("-s").output().unwrap()),
            &stdout(&Command::new("uname").arg("-m").output().unwrap()),
        ],
    ));
    let dir = tempfile::tempdir().unwrap();

    let (code, said, ran) = build(dir.path(), &tag, version);
    assert_eq!(code, 0, "{said}");
    assert!(ran);
    let asset = dir
        .path()
        .join(format!("dist/mmconform-{tag}-{target}.tar.gz"));
    assert!(said.contains(&asset.display().to_string()), "{said}");
    let listing = Command::new("tar")
        .arg("-tzf")
        .arg(&asset)
        .output()
        .unwrap();
    let mut entries: Vec<String> = stdout(&listing).lines().map(str::to_string).collect();
    entries.sort();
    let inside = format!("mmconform-{tag}-{target}");
    assert_eq!(
        entries,
        [
            format!("{inside}/"),
            format!("{inside}/LICENSE"),
            format!("{inside}/README.md"),
            format!("{inside}/mmconform"),
        ]
    );

    // A tag that is not Cargo.toml's version fails before anything is built.
    let (code, said, ran) = build(dir.path(), "v9.9.9", "9.9.9");
    assert_ne!(code, 0, "{said}");
    assert!(!ran, "nothing built for a wrong tag");
    assert!(said.contains(&format!("v9.9.9 is not {tag}")), "{said}");

    // A binary that says another version than its tag is not packed.
    let before = std::fs::read_dir(dir.path().join("dist")).unwrap().count();
    let (code, said, _) = build(dir.path(), &tag, "0.0.0-stale");
    assert_ne!(code, 0, "{said}");
    assert!(
        said.contains("--version says \"mmconform 0.0.0-stale\""),
        "{said}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("dist")).unwrap().count(),
        before
    );

    // A build that is no release (the image from a checkout) is packed unchecked.
    let (code, said, _) = build(dir.path(), "image", "anything");
    assert_eq!(code, 0, "{said}");
    assert!(
        dir.path()
            .join(format!("dist/mmconform-image-{target}.tar.gz"))
            .is_file()
    );
}

#[test]
fn the_package_version_is_read_from_the_package_section() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("Cargo.toml");
    std::fs::write(
        &manifest,
        "[workspace.package]\nversion = \"9.0.0\"\n\n[package]\nname = \"x\"\nversion = \"1.2.3\"\n\n[dependencies]\nversion = \"7\"\n",
    )
    .unwrap();
    let path = manifest.to_str().unwrap();
    assert_eq!(stdout(&lib("mmconform_package_version", &[path])), "1.2.3");
    assert!(
        lib("mmconform_check_version", &["v1.2.3", path])
            .status
            .success()
    );
    let wrong = lib("mmconform_check_version", &["v1.2.4", path]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("v1.2.4 is not v1.2.3"));
    assert_eq!(
        stdout(&lib(
            "mmconform_package_version",
            &[repository().join("Cargo.toml").to_str().unwrap()]
        )),
        env!("CARGO_PKG_VERSION")
    );
}

/// A file server on 127.0.0.1: GET of a path in `files`, 404 otherwise.
fn serve(files: HashMap<String, Vec<u8>>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            // The request's headers, up to the blank line.
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                header.clear();
            }
            log.lock().unwrap().push(path.clone());
            let mut stream = &stream;
            let _ = match files.get(&path) {
                Some(body) => stream
                    .write_all(
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        )
                        .as_bytes(),
                    )
                    .and_then(|()| stream.write_all(body)),
                None => stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                ),
            };
        }
    });
    (base, asked)
}

/// A release v1.2.3 for Linux x86_64 packed by package.sh and summed by checksums.sh:
/// the asset's name and bytes, and SHA256SUMS.
fn release(dir: &Path) -> (String, Vec<u8>, Vec<u8>) {
    let fake = dir.join("mmconform");
    std::fs::write(&fake, "#!/bin/sh\necho 'mmconform 1.2.3 (released)'\n").unwrap();
    let out = Command::new(script("package.sh"))
        .arg(&fake)
        .args(["x86_64-unknown-linux-musl", "v1.2.3"])
        .arg(dir.join("dist"))
        .output()
        .unwrap();
    let asset = PathBuf::from(stdout(&out));
    let sums = Command::new(script("checksums.sh"))
        .arg(dir.join("dist"))
        .output()
        .unwrap();
    stdout(&sums);
    let name = asset.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name, "mmconform-v1.2.3-x86_64-unknown-linux-musl.tar.gz");
    (
        name,
        std::fs::read(&asset).unwrap(),
        std::fs::read(dir.join("dist/SHA256SUMS")).unwrap(),
    )
}

/// install.sh REF BASE DEST on a Linux x86_64 runner: its exit code and output.
fn install(reference: &str, base: &str, dest: &Path) -> (i32, String) {
    let out = Command::new(script("install.sh"))
        .args([reference, base])
        .arg(dest)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_install_step_checks_the_release_and_falls_back_without_one() {
    if !curl_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (asset, bytes, sums) = release(dir.path());
    let tampered_sums =
        String::from_utf8(sums.clone())
            .unwrap()
            .replacen(|c: char| c.is_ascii_hexdigit(), "0", 8);
    let files = HashMap::from([
        (format!("/good/v1.2.3/{asset}"), bytes.clone()),
        ("/good/v1.2.3/SHA256SUMS".to_string(), sums.clone()),
        (format!("/tampered/v1.2.3/{asset}"), bytes.clone()),
        (
            "/tampered/v1.2.3/SHA256SUMS".to_string(),
            tampered_sums.into_bytes(),
        ),
        (format!("/unsummed/v1.2.3/{asset}"), bytes.clone()),
    ]);
    let (base, asked) = serve(files);

    let dest = dir.path().join("good");
    let (code, said) = install("v1.2.3", &format!("{base}/good"), &dest);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("SHA-256 checked"), "{said}");
    let ran = Command::new(dest.join("bin/mmconform")).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout),
        "mmconform 1.2.3 (released)\n"
    );

    for case in ["tampered", "unsummed"] {
        let dest = dir.path().join(case);
        let (code, said) = install("v1.2.3", &format!("{base}/{case}"), &dest);
        assert_eq!(code, 1, "{case}: fail closed: {said}");
        assert!(
            !dest.join("bin/mmconform").exists(),
            "{case}: nothing installed"
        );
        assert!(said.contains("not installed"), "{said}");
    }

    // No release for the tag: build from source.
    let (code, said) = install("v9.9.9", &format!("{base}/good"), &dir.path().join("none"));
    assert_eq!(code, 10, "{said}");
    assert!(said.contains("building from source"), "{said}");
    // A commit SHA is never a release, and nothing is asked for it.
    let before = asked.lock().unwrap().len();
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let (code, _) = install(sha, &format!("{base}/good"), &dir.path().join("sha"));
    assert_eq!(code, 10);
    // A local `uses: ./` has no ref at all.
    let (code, _) = install("", &format!("{base}/good"), &dir.path().join("local"));
    assert_eq!(code, 10);
    assert_eq!(asked.lock().unwrap().len(), before);
}

/// The action's run step with `MMCONFORM_ARGS`, and `mmconform` from `path`.
fn run_step(args: &str, path: &str, output: &Path, dir: &Path) -> Output {
    Command::new("bash")
        .arg(script("run.sh"))
        .current_dir(dir)
        .env("PATH", path)
        .env("MMCONFORM_TARGET", "reference")
        .env("MMCONFORM_PROFILE", "")
        .env("MMCONFORM_ACTION_CONFIG", "")
        .env("MMCONFORM_TOKEN", "")
        .env("MMCONFORM_ARGS", args)
        .env("MMCONFORM_JUNIT", "junit.xml")
        .env("MMCONFORM_REPORT", "report.json")
        .env("GITHUB_OUTPUT", output)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

const ARGS: &str = "--strict\n  --filter\n  source:\"RFC 0091 §A\"\r\n\n--filter=level:MUST\n";

#[test]
fn each_line_of_args_is_one_argument() {
    let dir = tempfile::tempdir().unwrap();
    let fake_dir = dir.path().join("fake");
    std::fs::create_dir(&fake_dir).unwrap();
    let fake = fake_dir.join("mmconform");
    std::fs::write(
        &fake,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > argv.txt\nexit 3\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", fake_dir.display(), std::env::var("PATH").unwrap());
    let output = dir.path().join("github-output");
    let out = run_step(ARGS, &path, &output, dir.path());
    assert_eq!(
        out.status.code(),
        Some(3),
        "mmconform's exit code is the step's"
    );
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "exit-code=3\n");
    let argv = std::fs::read_to_string(dir.path().join("argv.txt")).unwrap();
    assert_eq!(
        argv.lines().collect::<Vec<_>>(),
        [
            "run",
            "--junit",
            "junit.xml",
            "--report",
            "report.json",
            "--target",
            "reference",
            "--strict",
            "--filter",
            "source:\"RFC 0091 §A\"",
            "--filter=level:MUST"
        ]
    );
}

#[test]
fn the_run_step_hands_the_real_binary_a_filter_with_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let built = PathBuf::from(env!("CARGO_BIN_EXE_mmconform"));
    let path = format!(
        "{}:{}",
        built.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let output = dir.path().join("github-output");
    let out = run_step(ARGS, &path, &output, dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    let selected: Vec<&Value> = (report["cases"].as_array().unwrap().iter())
        .filter(|c| c["outcome"] != "excluded")
        .collect();
    assert!(!selected.is_empty());
    for case in selected {
        assert!(
            case["requirement"]["source"]
                .as_str()
                .unwrap()
                .contains("RFC 0091 §A"),
            "{case}"
        );
        assert_eq!(case["requirement"]["level"], "MUST");
    }
}

fn yaml(path: &str) -> Value {
    serde_saphyr::from_str(&std::fs::read_to_string(repository().join(path)).unwrap()).unwrap()
}

fn runs(job: &Value) -> String {
    (job["steps"].as_array().unwrap().iter())
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_release_workflow_builds_every_platform_and_publishes_checksums() {
    let workflow = yaml(".github/workflows/release.yml");
    assert_eq!(workflow["on"]["push"]["tags"], serde_json::json!(["v*"]));
    let build = &workflow["jobs"]["build"];
    let targets: BTreeSet<&str> = (build["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter())
    .map(|m| m["target"].as_str().unwrap())
    .collect();
    assert_eq!(
        targets,
        BTreeSet::from([
            "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc"
        ])
    );
    assert!(
        runs(build).contains(
            "scripts/release/build.sh \"${{ matrix.target }}\" \"$GITHUB_REF_NAME\" dist"
        )
    );
    let publish = &workflow["jobs"]["publish"];
    assert_eq!(publish["needs"], "build");
    assert_eq!(publish["permissions"]["contents"], "write");
    let script = runs(publish);
    assert!(
        script.contains("scripts/release/checksums.sh dist"),
        "{script}"
    );
    assert!(
        script.contains("gh release create \"$GITHUB_REF_NAME\" --verify-tag"),
        "{script}"
    );
    let image = &workflow["jobs"]["image"];
    let push = (image["steps"].as_array().unwrap().iter())
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("docker/build-push-action@"))
        })
        .unwrap();
    assert_eq!(push["with"]["platforms"], "linux/amd64,linux/arm64");
    for job in workflow["jobs"].as_object().unwrap().values() {
        for step in job["steps"].as_array().unwrap() {
            if let Some(uses) = step["uses"].as_str() {
                let (_, version) = uses.split_once('@').unwrap();
                assert!(
                    version.starts_with('v') || version.len() == 40,
                    "{uses} is not pinned"
                );
            }
        }
    }
}

#[test]
fn the_action_installs_the_release_of_its_ref_and_builds_only_without_one() {
    let action = yaml("action.yml");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let release = &steps[0];
    assert_eq!(release["id"], "release");
    assert!(
        release["run"]
            .as_str()
            .unwrap()
            .contains("scripts/release/install.sh\" \"$REF\" \"$BASE\" \"$ROOT\"")
    );
    assert_eq!(release["env"]["REF"], "${{ github.action_ref }}");
    let build = steps
        .iter()
        .find(|s| {
            s["run"]
                .as_str()
                .is_some_and(|r| r.contains("cargo +stable install"))
        })
        .unwrap();
    assert_eq!(
        build["if"],
        "steps.release.outputs.installed != 'true' && steps.cache.outputs.cache-hit != 'true'"
    );
    let run = steps.iter().find(|s| s["id"] == "run").unwrap();
    assert_eq!(run["run"], "\"$GITHUB_ACTION_PATH/scripts/release/run.sh\"");
    // An input left empty must not blank a variable mmconform reads (a job's own
    // $MMCONFORM_CONFIG): the step sets none of the man page's ENVIRONMENT.
    let read = read_by_mmconform();
    assert!(read.contains(&"MMCONFORM_CONFIG".to_string()), "{read:?}");
    for variable in run["env"].as_object().unwrap().keys() {
        assert!(!read.contains(variable), "the run step sets {variable}");
    }
    assert!(
        action["inputs"]["args"]["description"]
            .as_str()
            .unwrap()
            .contains("one argument per line")
    );
}

/// The variables the man page's ENVIRONMENT section lists.
fn read_by_mmconform() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .arg("man")
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&out.stdout).into_owned();
    let section = &page[page.find(".SH ENVIRONMENT").unwrap()..];
    let section = &section[..section[4..].find(".SH ").map_or(section.len(), |i| i + 4)];
    (section.lines())
        .filter_map(|l| l.strip_prefix("\\fB")?.strip_suffix("\\fR"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_image_is_the_release_binary_alone_run_as_non_root() {
    let text = std::fs::read_to_string(repository().join("Dockerfile")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let from: Vec<&&str> = lines.iter().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(from.len(), 2, "a build stage and the image");
    assert!(from[0].ends_with(" AS build"), "{}", from[0]);
    assert!(
        from[1].contains("distroless/static") || from[1].trim() == "FROM scratch",
        "{}",
        from[1]
    );
    let last = text.rfind("\nFROM ").unwrap();
    let (build, image) = text.split_at(last);
    assert!(
        build.contains("scripts/release/build.sh native"),
        "the release's build script"
    );
    let copies: Vec<&str> = image.lines().filter(|l| l.starts_with("COPY")).collect();
    assert_eq!(
        copies,
        ["COPY --from=build /out/mmconform /usr/local/bin/mmconform"]
    );
    let user = image.lines().find_map(|l| l.strip_prefix("USER ")).unwrap();
    let uid: u32 = user.split(':').next().unwrap().parse().unwrap();
    assert_ne!(uid, 0, "not root");
    assert!(image.contains("ENTRYPOINT [\"/usr/local/bin/mmconform\"]"));
    let ignored = std::fs::read_to_string(repository().join(".dockerignore")).unwrap();
    for path in ["target/", ".git/"] {
        assert!(
            ignored.lines().any(|l| l == path),
            "{path} is sent to the builder"
        );
    }
}

#[test]
fn the_source_build_s_cache_key_follows_the_sources_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        ("Cargo.toml", "[package]\n"),
        ("Cargo.lock", ""),
        ("src/main.rs", "fn main() {}\n"),
        ("scenarios/a.yaml", "a: 1\n"),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    let key = || {
        let out = Command::new(script("sources-key.sh"))
            .arg(root)
            .output()
            .unwrap();
        stdout(&out)
    };
    let first = key();
    assert_eq!(first.len(), 16, "{first}");
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()), "{first}");
    assert_eq!(key(), first, "the same sources, the same key");
    std::fs::create_dir_all(root.join("target")).unwrap();
    std::fs::write(root.join("target/build.log"), "noise").unwrap();
    assert_eq!(key(), first, "build output is no source");
    std::fs::write(root.join("scenarios/a.yaml"), "a: 2\n").unwrap();
    let changed = key();
    assert_ne!(changed, first, "a changed scenario is another build");
    std::fs::rename(root.join("scenarios/a.yaml"), root.join("scenarios/b.yaml")).unwrap();
    assert_ne!(key(), changed, "a renamed file is another build");
}
