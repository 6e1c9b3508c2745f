//! The shapes the reference hosts are calibrated in. One shape cannot exercise every
//! case (a host advertising audio never runs the "unadvertised audio" negative), so the
//! catalogue holds several per profile, and every case must run in at least one of them.

use super::variant::Variant;
use crate::config::{RunConfig, Target, Token};
use crate::protocol::openwop::Dialect;
use crate::reference::agui::AgentConfig;
use crate::reference::{Fault, ReferenceConfig};
use crate::runner::target::align_reference;
use std::path::PathBuf;

/// Not a secret: the token the `with-token` shapes require, so the auth case runs.
const CALIBRATION_TOKEN: &str = "mmconform-calibration-token";
/// Never fetched (the reference host judges URLs, it does not fetch them): it only
/// lets the `url` positives and the data+url shape case apply.
const CALIBRATION_MEDIA_BASE_URL: &str = "http://media.example.invalid/mmconform";

/// One shape of a faithful host plus the run options that go with it.
#[derive(Debug, Clone)]
pub struct Setup {
    pub name: &'static str,
    /// What the shape exercises, for the matrix header.
    pub summary: &'static str,
    pub shape: Shape,
}

#[derive(Debug, Clone)]
pub enum Shape {
    /// The openwop reference host.
    Openwop(OpenwopShape),
    /// The AG-UI reference agent declaring these MIME prefixes.
    Agui(&'static [&'static str]),
}

#[derive(Debug, Clone)]
pub struct OpenwopShape {
    pub reference: ReferenceConfig,
    pub dialect: Dialect,
    pub openwop_major: u8,
    pub media_base_url: bool,
    pub token: bool,
}

fn modalities(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn openwop(reference: ReferenceConfig) -> OpenwopShape {
    OpenwopShape {
        reference,
        dialect: Dialect::Spec,
        openwop_major: 1,
        media_base_url: false,
        token: false,
    }
}

fn setup(name: &'static str, summary: &'static str, shape: OpenwopShape) -> Setup {
    Setup {
        name,
        summary,
        shape: Shape::Openwop(shape),
    }
}

fn agui(name: &'static str, summary: &'static str, accepts: &'static [&'static str]) -> Setup {
    Setup {
        name,
        summary,
        shape: Shape::Agui(accepts),
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
            openwop(ReferenceConfig::default()),
        ),
        setup(
            "all-modalities",
            "text,image,audio,document advertised, a bearer token, --media-base-url",
            OpenwopShape {
                media_base_url: true,
                token: true,
                ..openwop(all.clone())
            },
        ),
        setup(
            "text-only",
            "no aiProviders.input block (text-only host), no maxBytesPerPart",
            openwop(ReferenceConfig {
                modalities: Vec::new(),
                advertise_input: false,
                max_bytes_per_part: None,
                ..ReferenceConfig::default()
            }),
        ),
        setup(
            "implicit-text",
            "modalities [image]: text left implicit",
            openwop(ReferenceConfig {
                modalities: modalities(&["image"]),
                ..ReferenceConfig::default()
            }),
        ),
        setup(
            "suite-dialect",
            "every modality, parts spelled as the official suite does (file + dataBase64)",
            OpenwopShape {
                dialect: Dialect::Suite,
                ..openwop(all)
            },
        ),
        setup(
            "openwop-v2",
            "text,image advertised, the v2 seams and OpenWOP-Version header",
            OpenwopShape {
                openwop_major: 2,
                ..openwop(ReferenceConfig::default())
            },
        ),
        agui(
            "agui-default",
            "AG-UI agent accepting image/, audio/wav, application/pdf (what `--profile agui` judges)",
            &crate::reference::agui::DEFAULT_ACCEPTS,
        ),
        agui(
            "agui-av",
            "AG-UI agent accepting image/, audio/, video/ (no documents)",
            &["image/", "audio/", "video/"],
        ),
        agui(
            "agui-documents",
            "AG-UI agent accepting application/pdf only",
            &["application/pdf"],
        ),
        agui(
            "agui-exact-types",
            "AG-UI agent accepting exact types image/png, audio/mpeg, video/webm, text/plain",
            &["image/png", "audio/mpeg", "video/webm", "text/plain"],
        ),
        agui(
            "agui-webp",
            "AG-UI agent accepting image/webp only",
            &["image/webp"],
        ),
    ]
}

impl Setup {
    /// The protocol whose cases this shape runs.
    pub fn profile(&self) -> &'static str {
        match self.shape {
            Shape::Openwop(_) => crate::protocol::openwop::PROFILE,
            Shape::Agui(_) => crate::protocol::agui::PROFILE,
        }
    }

    /// The run configuration for this shape's faithful host, or the host broken by
    /// `variant`; schema mutants come in as a directory of replacement schemas.
    pub fn run_config(
        &self,
        variant: Option<&Variant>,
        schemas_dir: Option<PathBuf>,
        concurrency: usize,
    ) -> Result<RunConfig, String> {
        let mut config = match &self.shape {
            Shape::Openwop(shape) => {
                let fault = match variant {
                    Some(Variant::Host(fault)) => Some(*fault),
                    _ => None,
                };
                shape.run_config(fault)
            }
            Shape::Agui(accepts) => {
                let fault = match variant {
                    Some(Variant::AguiHost(fault)) => Some(*fault),
                    _ => None,
                };
                let accepts: Vec<String> = accepts.iter().map(|a| a.to_string()).collect();
                let agent = AgentConfig::new(&accepts, fault)?;
                let mut config = RunConfig::new(Target::AguiReference(agent));
                config.protocol = crate::protocol::agui::PROFILE;
                config
            }
        };
        config.concurrency = concurrency;
        config.schemas_dir = schemas_dir;
        Ok(config)
    }
}

impl OpenwopShape {
    fn run_config(&self, fault: Option<Fault>) -> RunConfig {
        let reference = ReferenceConfig {
            fault,
            ..self.reference.clone()
        };
        let mut config = RunConfig::new(Target::Reference(reference));
        config.dialect = self.dialect;
        config.openwop_major = self.openwop_major;
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
        let with_token = all
            .iter()
            .find(|s| matches!(&s.shape, Shape::Openwop(o) if o.token))
            .unwrap();
        let config = with_token
            .run_config(Some(&Variant::Host(Fault::IgnoresAuth)), None, 4)
            .unwrap();
        match &config.target {
            Target::Reference(rc) => {
                assert_eq!(rc.token.as_deref(), Some(CALIBRATION_TOKEN));
                assert_eq!(rc.fault, Some(Fault::IgnoresAuth));
            }
            other => panic!("not a reference target: {other:?}"),
        }
        assert!(config.media_refs.contains_key("audio"));
    }

    #[test]
    fn agui_shapes_run_the_agent_with_its_declaration_and_fault() {
        use crate::reference::agui::AguiFault;
        let all = setups();
        let webp = all.iter().find(|s| s.name == "agui-webp").unwrap();
        assert_eq!(webp.profile(), "agui");
        let config = webp
            .run_config(
                Some(&Variant::AguiHost(AguiFault::IgnoresMimePrefix)),
                None,
                2,
            )
            .unwrap();
        match (&config.target, config.protocol) {
            (Target::AguiReference(agent), "agui") => {
                assert_eq!(agent.fault, Some(AguiFault::IgnoresMimePrefix));
                assert_eq!(agent.declaration.accepts, vec!["image/webp".to_string()]);
            }
            other => panic!("not an agui reference run: {other:?}"),
        }
        // An openwop fault means nothing to the agent: it runs faithfully.
        let config = webp
            .run_config(Some(&Variant::Host(Fault::IgnoresAuth)), None, 2)
            .unwrap();
        assert!(matches!(&config.target, Target::AguiReference(a) if a.fault.is_none()));
    }
}
