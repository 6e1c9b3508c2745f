//! The shapes the reference host is calibrated in. One shape cannot exercise every
//! case (a host advertising audio never runs the "unadvertised audio" negative), so the
//! catalogue holds several, and every case must run in at least one of them.

use crate::config::{RunConfig, Target, Token};
use crate::profile::openwop::Dialect;
use crate::reference::{Fault, ReferenceConfig};
use crate::runner::target::align_reference;
use std::path::PathBuf;

/// Not a secret: the token the `with-token` shapes require, so the auth case runs.
const CALIBRATION_TOKEN: &str = "mmconform-calibration-token";
/// Never fetched (the reference host judges URLs, it does not fetch them): it only
/// lets the `url` positives and the data+url shape case apply.
const CALIBRATION_MEDIA_BASE_URL: &str = "http://media.example.invalid/mmconform";

/// One shape of the faithful host plus the run options that go with it.
#[derive(Debug, Clone)]
pub struct Setup {
    pub name: &'static str,
    /// What the shape exercises, for the matrix header.
    pub summary: &'static str,
    pub reference: ReferenceConfig,
    pub dialect: Dialect,
    pub openwop_major: u8,
    pub media_base_url: bool,
    pub token: bool,
}

fn modalities(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn setup(name: &'static str, summary: &'static str, reference: ReferenceConfig) -> Setup {
    Setup {
        name,
        summary,
        reference,
        dialect: Dialect::Spec,
        openwop_major: 1,
        media_base_url: false,
        token: false,
    }
}

/// Every calibration shape, in the order the matrix lists them.
pub fn setups() -> Vec<Setup> {
    let all = ReferenceConfig {
        modalities: modalities(&["text", "image", "audio", "document"]),
        ..ReferenceConfig::default()
    };
    vec![
        setup(
            "default",
            "text,image advertised, maxBytesPerPart 65536 (what `run --target reference` judges)",
            ReferenceConfig::default(),
        ),
        Setup {
            media_base_url: true,
            token: true,
            ..setup(
                "all-modalities",
                "text,image,audio,document advertised, a bearer token, --media-base-url",
                all.clone(),
            )
        },
        setup(
            "text-only",
            "no aiProviders.input block (text-only host), no maxBytesPerPart",
            ReferenceConfig {
                modalities: Vec::new(),
                advertise_input: false,
                max_bytes_per_part: None,
                ..ReferenceConfig::default()
            },
        ),
        setup(
            "implicit-text",
            "modalities [image]: text left implicit",
            ReferenceConfig {
                modalities: modalities(&["image"]),
                ..ReferenceConfig::default()
            },
        ),
        Setup {
            dialect: Dialect::Suite,
            ..setup(
                "suite-dialect",
                "every modality, parts spelled as the official suite does (file + dataBase64)",
                all,
            )
        },
        Setup {
            openwop_major: 2,
            ..setup(
                "openwop-v2",
                "text,image advertised, the v2 seams and OpenWOP-Version header",
                ReferenceConfig::default(),
            )
        },
    ]
}

impl Setup {
    /// The run configuration for this shape with `fault` (or none) and, for schema
    /// faults, a directory of replacement schemas.
    pub fn run_config(
        &self,
        fault: Option<Fault>,
        schemas_dir: Option<PathBuf>,
        concurrency: usize,
    ) -> RunConfig {
        let reference = ReferenceConfig {
            fault,
            ..self.reference.clone()
        };
        let mut config = RunConfig::new(Target::Reference(reference));
        config.dialect = self.dialect;
        config.openwop_major = self.openwop_major;
        config.concurrency = concurrency;
        config.schemas_dir = schemas_dir;
        if self.media_base_url {
            config.media_base_url = Some(CALIBRATION_MEDIA_BASE_URL.to_string());
        }
        if self.token {
            config.token = Some(Token {
                value: CALIBRATION_TOKEN.to_string(),
                origin: "calibration".to_string(),
            });
        }
        align_reference(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_token_reaches_the_host() {
        let all = setups();
        let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        let with_token = all.iter().find(|s| s.token).unwrap();
        let config = with_token.run_config(Some(Fault::IgnoresAuth), None, 4);
        match &config.target {
            Target::Reference(rc) => {
                assert_eq!(rc.token.as_deref(), Some(CALIBRATION_TOKEN));
                assert_eq!(rc.fault, Some(Fault::IgnoresAuth));
            }
            other => panic!("not a reference target: {other:?}"),
        }
        assert!(config.media_refs.contains_key("audio"));
    }
}
