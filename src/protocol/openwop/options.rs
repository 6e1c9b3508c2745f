//! openwop's own options: the protocol major a run judges (`--openwop-major`), the
//! part spelling (`--dialect`), and RFC 0108's self-hosted provider (its id,
//! `--self-hosted-provider` or the project file's `self_hosted_provider`; the endpoint
//! it is configured with, `OPENWOP_TEST_COMPAT_ENDPOINT`, a secret).

use crate::protocol::options::{OptionSpec, Origin, ProtocolOptions};

/// How request bodies spell parts: the spec's, or the official suite's
/// (`file` + `dataBase64` for documents; docs/wire.md, "Content parts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Spec,
    Suite,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Spec => "spec",
            Dialect::Suite => "suite",
        }
    }
}

/// Which openwop major a run judges (`--openwop-major`). `Auto` reads the v1 document
/// and runs the v1 suite, and the v2 suite too when the host lists a 2.x version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenwopMajor {
    Auto,
    One,
    Two,
}

impl OpenwopMajor {
    /// The major discovery is first fetched for (auto starts at v1, the no-header default).
    pub fn first(self) -> u8 {
        match self {
            OpenwopMajor::Two => 2,
            OpenwopMajor::Auto | OpenwopMajor::One => 1,
        }
    }

    /// As the flag spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            OpenwopMajor::Auto => "auto",
            OpenwopMajor::One => "1",
            OpenwopMajor::Two => "2",
        }
    }

    /// As reports record it: `auto`, `1`, `2`.
    pub fn as_json(self) -> serde_json::Value {
        match self {
            OpenwopMajor::Auto => serde_json::json!("auto"),
            other => serde_json::json!(other.first()),
        }
    }
}

/// A provider id the user (or the embedded host) named, and who named it, as reports say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedProvider {
    pub id: String,
    /// `--self-hosted-provider`, `the reference host (--target reference)`, ...
    pub named_by: String,
    /// Only where the document names none (the embedded host's own id at v2); the
    /// user's flag wins over the document.
    pub fallback: bool,
}

pub const MAJOR: &str = "openwop-major";
pub const DIALECT: &str = "dialect";
pub const SELF_HOSTED_PROVIDER: &str = "self-hosted-provider";
pub const COMPAT_ENDPOINT: &str = "compat-endpoint";

pub use super::self_hosted::ENDPOINT_VAR;

/// The options, in the order `--help` lists them.
pub static OPTIONS: [OptionSpec; 4] = [
    OptionSpec {
        values: &[
            ("auto", "v1, and v2 too when the host lists a 2.x version"),
            ("1", "The v1 suite only"),
            (
                "2",
                "The v2 suite only (discovery with `OpenWOP-Version: 2`, the v2 seams)",
            ),
        ],
        default: Some("auto"),
        ..OptionSpec::flag(
            MAJOR,
            "auto|1|2",
            "the protocol major: `auto` runs the v1 suite, and the v2 suite too (case ids `...@v2`) when the host lists a 2.x version; `1` or `2` runs that one.",
        )
    },
    OptionSpec {
        project_key: Some("self_hosted_provider"),
        ..OptionSpec::flag(
            SELF_HOSTED_PROVIDER,
            "ID",
            "RFC 0108: the id of the host's self-hosted provider. Needed at major 2, where `aiProviders.selfHosted` is a boolean; at major 1 it overrides `selfHosted[0]`. The endpoint itself comes from OPENWOP_TEST_COMPAT_ENDPOINT.",
        )
    },
    OptionSpec {
        values: &[
            ("spec", "RFC 0091 spelling: `document` parts with `data`"),
            (
                "suite",
                "The official openwop suite's spelling: `file` parts with `dataBase64`",
            ),
        ],
        default: Some("spec"),
        ..OptionSpec::flag(
            DIALECT,
            "DIALECT",
            "request-body spelling of content parts.",
        )
    },
    OptionSpec {
        flag: false,
        env: Some(ENDPOINT_VAR),
        ..OptionSpec::flag(
            COMPAT_ENDPOINT,
            "URL",
            "run: the self-hosted endpoint the openwop host is configured with, looked for in its answers (RFC 0108; never printed)",
        )
    },
];

/// The options of an openwop run, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenwopOptions {
    pub major: OpenwopMajor,
    pub dialect: Dialect,
    /// RFC 0108: the self-hosted provider the user (or the embedded reference host)
    /// names, needed at v2 where `selfHosted` is a boolean.
    pub self_hosted_provider: Option<NamedProvider>,
    /// RFC 0108: the self-hosted endpoint the host is configured with, looked for in
    /// every answer; a secret: never printed.
    pub compat_endpoint: Option<String>,
}

impl OpenwopOptions {
    /// Reads `options`. `Err` is a usage error (exit 2).
    pub fn read(options: &ProtocolOptions) -> Result<OpenwopOptions, String> {
        let major = match options.value(MAJOR).unwrap_or("auto") {
            "auto" => OpenwopMajor::Auto,
            "1" => OpenwopMajor::One,
            "2" => OpenwopMajor::Two,
            other => return Err(format!("--openwop-major `{other}`: use auto, 1 or 2")),
        };
        let dialect = match options.value(DIALECT).unwrap_or("spec") {
            "spec" => Dialect::Spec,
            "suite" => Dialect::Suite,
            other => return Err(format!("--dialect `{other}`: use spec or suite")),
        };
        Ok(OpenwopOptions {
            major,
            dialect,
            self_hosted_provider: self_hosted_provider(options)?,
            compat_endpoint: compat_endpoint(options)?,
        })
    }

    #[cfg(test)]
    /// What a run with no options judges: v1 and v2 where listed, the spec's spelling.
    pub fn defaults() -> OpenwopOptions {
        OpenwopOptions {
            major: OpenwopMajor::Auto,
            dialect: Dialect::Spec,
            self_hosted_provider: None,
            compat_endpoint: None,
        }
    }
}

/// `--self-hosted-provider`: an id, never empty, and who named it.
fn self_hosted_provider(options: &ProtocolOptions) -> Result<Option<NamedProvider>, String> {
    let Some(given) = options.get(SELF_HOSTED_PROVIDER) else {
        return Ok(None);
    };
    let id = given.value.trim();
    if id.is_empty() {
        return Err("--self-hosted-provider must name a provider id".into());
    }
    let (named_by, fallback) = match given.origin {
        Origin::Reference => ("the reference host (--target reference)", true),
        Origin::Calibration => ("--self-hosted-provider (calibration)", false),
        _ => ("--self-hosted-provider", false),
    };
    Ok(Some(NamedProvider {
        id: id.to_string(),
        named_by: named_by.into(),
        fallback,
    }))
}

/// `OPENWOP_TEST_COMPAT_ENDPOINT`: an http(s) URL with a host. A bad value is a usage
/// error that does not echo it: it is a secret.
fn compat_endpoint(options: &ProtocolOptions) -> Result<Option<String>, String> {
    let Some(raw) = options
        .value(COMPAT_ENDPOINT)
        .filter(|v| !v.trim().is_empty())
    else {
        return Ok(None);
    };
    match url::Url::parse(raw.trim()) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {
            Ok(Some(raw.trim().to_string()))
        }
        _ => Err(format!(
            "{ENDPOINT_VAR} must be an http(s) URL with a host (its value is not shown)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_with_their_defaults_and_who_named_the_provider() {
        let mut options = ProtocolOptions::default();
        assert_eq!(
            OpenwopOptions::read(&options),
            Ok(OpenwopOptions::defaults())
        );
        options.set(MAJOR, "2", Origin::CommandLine);
        options.set(DIALECT, "suite", Origin::CommandLine);
        options.set(SELF_HOSTED_PROVIDER, " compat ", Origin::Reference);
        let read = OpenwopOptions::read(&options).unwrap();
        assert_eq!(
            (read.major, read.dialect),
            (OpenwopMajor::Two, Dialect::Suite)
        );
        let named = read.self_hosted_provider.unwrap();
        assert_eq!(named.id, "compat");
        assert!(named.fallback);
        options.set(SELF_HOSTED_PROVIDER, " ", Origin::CommandLine);
        assert!(OpenwopOptions::read(&options).is_err());
    }

    #[test]
    fn a_bad_endpoint_is_refused_without_being_echoed() {
        let mut options = ProtocolOptions::default();
        options.set(COMPAT_ENDPOINT, "not a url secret", Origin::Environment);
        let e = OpenwopOptions::read(&options).unwrap_err();
        assert!(e.contains(ENDPOINT_VAR) && !e.contains("secret"), "{e}");
        options.set(
            COMPAT_ENDPOINT,
            "http://10.0.0.5:8089/v1",
            Origin::Environment,
        );
        assert_eq!(
            OpenwopOptions::read(&options)
                .unwrap()
                .compat_endpoint
                .as_deref(),
            Some("http://10.0.0.5:8089/v1")
        );
    }
}
