//! Which values of mmconform's own environment are secrets to mask.
//!
//! A started program (a bridge, an ACP agent) can learn mmconform's environment: what
//! it inherits, and anything it reads from `/proc/<parent>/environ`. So whatever the
//! program was given, every variable whose name says it holds a credential is masked in
//! every output, as CI systems mask theirs: a name containing one of
//! [`SECRET_NAME_PARTS`] (any case), plus the names the user adds (`--mask-env`,
//! `mask_env` in the project file). Values shorter than [`MIN_MASKED_CHARS`] are left
//! alone: masking `1` or `true` would mangle every report and hide nothing.

/// Parts of a variable name that make its value a secret (`OPENAI_API_KEY`,
/// `GH_TOKEN`, `MY_APP_SECRET`, `PGPASSWORD`, `GOOGLE_APPLICATION_CREDENTIALS`).
pub const SECRET_NAME_PARTS: [&str; 8] = [
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "CREDENTIAL",
    "AUTH",
    "PRIVATE",
];

/// Values shorter than this are never masked (they would match ordinary words).
pub const MIN_MASKED_CHARS: usize = 6;

/// Whether a variable's name says its value is a secret.
pub fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAME_PARTS.iter().any(|part| upper.contains(part))
}

/// Whether a variable's name says its value is a model name (`MODEL`,
/// `ANTHROPIC_MODEL`, `GEMINI_MODEL`) and nothing secret-looking: such a `--target-env`
/// value is not masked, because a report must name the model each call used (agents
/// change behaviour with it).
pub fn names_a_model(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    (upper == "MODEL" || upper.ends_with("_MODEL")) && !looks_secret(name)
}

/// Whether a value is long enough to be masked.
pub fn maskable(value: &str) -> bool {
    value.chars().count() >= MIN_MASKED_CHARS
}

/// The secrets of an environment, and what the user should hear about them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct EnvSecrets {
    pub values: Vec<String>,
    /// A name the user asked to mask that is unset, or whose value is too short.
    pub warnings: Vec<String>,
}

/// The values to mask among `vars` (name, value): those whose names look secret, and
/// those named in `named` (`--mask-env`).
pub fn secrets<I>(vars: I, named: &[String]) -> EnvSecrets
where
    I: IntoIterator<Item = (String, String)>,
{
    let mut out = EnvSecrets::default();
    let mut seen = Vec::new();
    for (name, value) in vars {
        let asked = named.contains(&name);
        if asked {
            seen.push(name.clone());
        }
        if !(asked || looks_secret(&name)) {
            continue;
        }
        if maskable(&value) {
            out.values.push(value);
        } else if asked {
            out.warnings.push(format!(
                "--mask-env {name}: its value is shorter than {MIN_MASKED_CHARS} characters, so it is not masked"
            ));
        }
    }
    for name in named.iter().filter(|n| !seen.contains(n)) {
        out.warnings.push(format!(
            "--mask-env {name}: no such variable in this environment, nothing to mask"
        ));
    }
    out.values.sort();
    out.values.dedup();
    out
}

/// [`secrets`] of this process's environment (variables that are not UTF-8 cannot be
/// written into a UTF-8 report as they are, and are skipped).
pub fn of_this_process(named: &[String]) -> EnvSecrets {
    let vars = std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)));
    secrets(vars, named)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn names_that_say_key_token_secret_password_credential_auth_private_are_secrets() {
        for name in [
            "OPENAI_API_KEY",
            "GH_TOKEN",
            "MY_APP_SECRET",
            "PGPASSWORD",
            "FTP_PASSWD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "npm_config__auth",
            "SSH_PRIVATE",
            "api_key",
        ] {
            assert!(looks_secret(name), "{name}");
        }
        for name in ["PATH", "HOME", "LANG", "TERM", "CODEX_HOME"] {
            assert!(!looks_secret(name), "{name}");
        }
    }

    #[test]
    fn a_model_variable_names_a_model_unless_its_name_looks_secret() {
        for name in ["MODEL", "ANTHROPIC_MODEL", "gemini_model", "OPENAI_MODEL"] {
            assert!(names_a_model(name), "{name}");
        }
        for name in [
            "MODEL_KEY",
            "ANTHROPIC_AUTH_MODEL",
            "MODELS",
            "MODEL_DIR",
            "HOME",
        ] {
            assert!(!names_a_model(name), "{name}");
        }
    }

    #[test]
    fn secret_values_are_collected_short_ones_skipped_and_named_ones_added() {
        let env = vars(&[
            ("OPENAI_API_KEY", "sk-live-0123456789"),
            ("GH_TOKEN", "ghp_abcdef"),
            ("SHORT_KEY", "1"),
            ("HOME", "/home/someone"),
            ("DEPLOY_HOOK", "https://hooks.example/x1"),
            ("TINY", "abc"),
        ]);
        let named = vec!["DEPLOY_HOOK".to_string(), "TINY".into(), "ABSENT".into()];
        let found = secrets(env, &named);
        assert_eq!(
            found.values,
            [
                "ghp_abcdef",
                "https://hooks.example/x1",
                "sk-live-0123456789"
            ]
        );
        assert_eq!(found.warnings.len(), 2, "{:?}", found.warnings);
        assert!(found.warnings[0].contains("TINY") && found.warnings[0].contains("shorter"));
        assert!(found.warnings[1].contains("ABSENT"));
    }
}
