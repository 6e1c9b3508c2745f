//! What a started program's environment holds. By default only an allow-list of
//! mmconform's own variables: what a program needs to find itself, its tools and its
//! settings (the search path, home, user, locale, terminal, temporary folder, the XDG
//! folders, Node's and npm's settings, the TLS trust store, the agent CLIs' settings
//! folders), never a credential: a name that looks secret
//! ([`crate::redact::environment::looks_secret`]) is left out even when it matches.
//! `--target-env NAME` passes one more, `--target-env NAME=VALUE` sets one,
//! `--target-unset NAME` removes one, and `--target-inherit-env` passes everything
//! (the behaviour before the allow-list, for those who need it).

use crate::redact::environment::looks_secret;

/// Variables passed on by name.
const ALLOWED: [&str; 33] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "TZ",
    "TMPDIR",
    "LD_LIBRARY_PATH",
    // TLS trust: a bridge reaching a model through a corporate proxy's CA.
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    // Node, npm and the version managers real bridges run under.
    "NODE_PATH",
    "NODE_OPTIONS",
    "NVM_DIR",
    "NVM_BIN",
    "NVM_INC",
    "COREPACK_HOME",
    "PNPM_HOME",
    "VOLTA_HOME",
    "BUN_INSTALL",
    "FNM_DIR",
    "VIRTUAL_ENV",
    // The agent CLIs' own settings folders (Claude Code, Codex, Gemini CLI).
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
];

/// Variables passed on by prefix: the locale (`LC_ALL`, `LC_CTYPE`...), the XDG
/// folders, npm's settings (`npm_config_cache`, `npm_config_prefix`...).
const ALLOWED_PREFIXES: [&str; 3] = ["LC_", "XDG_", "npm_config_"];

/// Whether mmconform passes `name` on by default.
pub fn allowed(name: &str) -> bool {
    let listed = ALLOWED.contains(&name)
        || ALLOWED_PREFIXES
            .iter()
            .any(|prefix| name.starts_with(prefix));
    listed && !looks_secret(name)
}

/// How a started program's environment is made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// Pass all of mmconform's environment (`--target-inherit-env`), not the allow-list.
    pub inherit_all: bool,
    /// Passed on besides the allow-list (`--target-env NAME`).
    pub pass: Vec<String>,
    /// Set, last, over anything inherited (`--target-env NAME=VALUE`, the protocol's own
    /// `MMCONFORM_*` variables).
    pub set: Vec<(String, String)>,
    /// Removed (`--target-unset`).
    pub unset: Vec<String>,
}

impl Environment {
    /// This environment with `name=value` set as well.
    pub fn with(mut self, name: &str, value: &str) -> Environment {
        self.set.push((name.to_string(), value.to_string()));
        self
    }

    /// Gives `command` this environment (and nothing else of mmconform's).
    pub fn apply(&self, command: &mut tokio::process::Command) {
        if !self.inherit_all {
            command.env_clear();
            for (name, value) in std::env::vars_os() {
                let passed = name
                    .to_str()
                    .is_some_and(|n| allowed(n) || self.pass.iter().any(|p| p == n));
                if passed {
                    command.env(name, value);
                }
            }
        }
        for name in &self.unset {
            command.env_remove(name);
        }
        command.envs(self.set.iter().map(|(k, v)| (k, v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allow_list_holds_what_programs_need_and_no_credential() {
        for name in [
            "PATH",
            "HOME",
            "LC_ALL",
            "XDG_CONFIG_HOME",
            "npm_config_cache",
            "CODEX_HOME",
        ] {
            assert!(allowed(name), "{name}");
        }
        for name in [
            "OPENAI_API_KEY",
            "GH_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "npm_config__authToken",
            "npm_config_//registry.npmjs.org/:_authToken",
            "HTTPS_PROXY",
            "MMCONFORM_TARGET_CMD",
        ] {
            assert!(!allowed(name), "{name}");
        }
    }

    #[tokio::test]
    async fn a_program_sees_the_allow_list_what_is_passed_and_set_and_not_the_rest() {
        // The test process's own PATH and HOME are there; a variable this process holds
        // but does not pass is not (CARGO is set by cargo for every test run).
        let env = Environment {
            pass: vec!["CARGO_PKG_NAME".into()],
            set: vec![("MMCONFORM_CASE".into(), "c1".into())],
            unset: vec!["HOME".into()],
            ..Environment::default()
        };
        let mut command = tokio::process::Command::new("sh");
        command.args([
            "-c",
            "echo \"$PATH|${HOME-unset}|$CARGO_PKG_NAME|$MMCONFORM_CASE|${CARGO-absent}\"",
        ]);
        env.apply(&mut command);
        let out = command.output().await.unwrap();
        let line = String::from_utf8(out.stdout).unwrap();
        let fields: Vec<&str> = line.trim().split('|').collect();
        assert!(!fields[0].is_empty(), "{line}");
        assert_eq!(
            &fields[1..],
            ["unset", "mmconform", "c1", "absent"],
            "{line}"
        );

        let everything = Environment {
            inherit_all: true,
            ..Environment::default()
        };
        let mut command = tokio::process::Command::new("sh");
        command.args(["-c", "echo \"${CARGO-absent}\""]);
        everything.apply(&mut command);
        let out = command.output().await.unwrap();
        assert_ne!(String::from_utf8(out.stdout).unwrap().trim(), "absent");
    }
}
