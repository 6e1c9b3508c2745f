//! The shapes the openwop reference host is calibrated in: what it advertises, the
//! run's part spelling and protocol major, a token and a media base URL, a
//! self-hosted provider (RFC 0108), and one shape forwarding to a witness.

use crate::config::RunConfig;
use crate::protocol::openwop::options::{self, Dialect, OpenwopMajor};
use crate::protocol::options::Origin;
use crate::reference::shape::{Shape, ShapeHost, Started, calibration_token, embedded_run};
use futures_util::future::BoxFuture;
use reference_hosts::{Fault, HostFault, ReferenceConfig, UpstreamWire};
use std::sync::Arc;

/// Never fetched (the reference host judges URLs, it does not fetch them): it only
/// lets the `url` positives and the data+url shape case apply.
const CALIBRATION_MEDIA_BASE_URL: &str = "http://media.example.invalid/mmconform";
/// Never fetched either: the endpoint the self-hosted shapes configure their provider
/// with (RFC 0108), and the run's `OPENWOP_TEST_COMPAT_ENDPOINT`.
const CALIBRATION_COMPAT_ENDPOINT: &str = "http://compat.calibration.invalid:8089/v1";

#[derive(Debug, Clone)]
pub struct OpenwopShape {
    pub reference: ReferenceConfig,
    pub dialect: Dialect,
    pub openwop_major: OpenwopMajor,
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
        openwop_major: OpenwopMajor::One,
        media_base_url: false,
        token: false,
    }
}

/// `reference` with its self-hosted provider configured (RFC 0108); the run then
/// looks for the endpoint and, at v2, names the provider (`OpenwopShape::start`).
fn self_hosting(reference: ReferenceConfig) -> ReferenceConfig {
    ReferenceConfig {
        compat_endpoint: Some(CALIBRATION_COMPAT_ENDPOINT.to_string()),
        ..reference
    }
}

fn setup(name: &'static str, summary: &'static str, shape: OpenwopShape) -> Shape {
    Shape::new(name, summary, "openwop", "openwop", Arc::new(shape))
}

fn text_only() -> ReferenceConfig {
    ReferenceConfig {
        modalities: Vec::new(),
        advertise_input: false,
        max_bytes_per_part: None,
        ..ReferenceConfig::default()
    }
}

/// Every openwop shape, in the order the matrix lists them.
pub fn shapes() -> Vec<Shape> {
    let all = ReferenceConfig {
        modalities: modalities(&["text", "image", "audio", "document"]),
        ..ReferenceConfig::default()
    };
    let full = OpenwopShape {
        media_base_url: true,
        token: true,
        ..openwop(all.clone())
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
            full.clone(),
        )
        .with_schema_mutants(),
        setup(
            "witness",
            "all-modalities, forwarding `provider: compat` calls to a witness (run --witness)",
            full,
        )
        .witnessed(),
        setup(
            "text-only",
            "no aiProviders.input block (text-only host), no maxBytesPerPart",
            openwop(text_only()),
        ),
        setup(
            "implicit-text",
            "modalities [image]: text left implicit; a self-hosted provider `compat` and OPENWOP_TEST_COMPAT_ENDPOINT (RFC 0108)",
            openwop(self_hosting(ReferenceConfig {
                modalities: modalities(&["image"]),
                ..ReferenceConfig::default()
            })),
        ),
        setup(
            "suite-dialect",
            "every modality, parts spelled as the official suite does (file + dataBase64)",
            OpenwopShape {
                dialect: Dialect::Suite,
                ..openwop(all.clone())
            },
        ),
        setup(
            "openwop-v2",
            "text,image advertised, the v2 seams and OpenWOP-Version header; a self-hosted provider named by --self-hosted-provider compat",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                ..openwop(self_hosting(ReferenceConfig::default()))
            },
        ),
        setup(
            "openwop-v2-all",
            "all-modalities at openwop 2 (v2 root, v2 registry codes, a token, --media-base-url)",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                media_base_url: true,
                token: true,
                ..openwop(all)
            },
        ),
        setup(
            "openwop-v2-text-only",
            "text-only at openwop 2 (no aiProviders.input block)",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                ..openwop(text_only())
            },
        ),
    ]
}

impl OpenwopShape {
    /// The host this shape runs with `fault`; it requires the run's token, if any.
    fn host(&self, fault: Option<Fault>) -> ReferenceConfig {
        ReferenceConfig {
            fault,
            token: self.token.then(|| calibration_token().value),
            ..self.reference.clone()
        }
    }

    /// What the run is told besides the host's URL: the part spelling and major, the
    /// media base URL, the token, the self-hosted endpoint and (at v2) its id, and the
    /// host's own mediaRefs, so the mediaRef positives run.
    fn configure(&self, config: &mut RunConfig) {
        let options = &mut config.options;
        options.set(
            options::MAJOR,
            self.openwop_major.as_str(),
            Origin::Calibration,
        );
        options.set(options::DIALECT, self.dialect.as_str(), Origin::Calibration);
        if self.media_base_url {
            config.media_base_url = Some(CALIBRATION_MEDIA_BASE_URL.to_string());
        }
        config.token = self.token.then(calibration_token);
        if let Some(endpoint) = &self.reference.compat_endpoint {
            // What `OPENWOP_TEST_COMPAT_ENDPOINT` and `--self-hosted-provider` set
            // (calibration names the endpoint's needles to the redactor, as the CLI
            // does, through `Protocol::check_options`).
            let options = &mut config.options;
            options.set(options::COMPAT_ENDPOINT, endpoint, Origin::Calibration);
            // At v1 the document names the id (so a URL-shaped one is seen); the v2
            // boolean cannot, so the run names it as a user would.
            if self.openwop_major != OpenwopMajor::One {
                options.set(
                    options::SELF_HOSTED_PROVIDER,
                    reference_hosts::COMPAT_PROVIDER,
                    Origin::Calibration,
                );
            }
        }
        for modality in &self.reference.modalities {
            if let Some(media_ref) = reference_hosts::known_media_ref(modality) {
                config
                    .media_refs
                    .insert(modality.clone(), media_ref.to_string());
            }
        }
    }
}

impl ShapeHost for OpenwopShape {
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        _wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let host = ReferenceConfig {
                upstream,
                ..self.host(crate::reference::own_fault::<Fault>(fault)?)
            };
            let running = reference_hosts::spawn(host, crate::reference::loopback())
                .await
                .map_err(|e| format!("cannot start the reference host: {e}"))?;
            let base_url = running.base_url();
            let mut config = embedded_run(&base_url, format!("reference ({base_url})"))?;
            self.configure(&mut config);
            Ok(Started {
                reference: Some(running),
                config,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::shape::CALIBRATION_TOKEN;

    #[tokio::test]
    async fn the_token_reaches_the_host_and_the_run() {
        let all = shapes();
        let shape = all.iter().find(|s| s.name == "all-modalities").unwrap();
        let with_token = openwop(ReferenceConfig {
            modalities: modalities(&["text", "image", "audio", "document"]),
            ..ReferenceConfig::default()
        });
        let with_token = OpenwopShape {
            token: true,
            ..with_token
        };
        let host = with_token.host(Some(Fault::IgnoresAuth));
        assert_eq!(host.token.as_deref(), Some(CALIBRATION_TOKEN));
        assert_eq!(host.fault, Some(Fault::IgnoresAuth));
        let started = shape
            .start
            .start(None, None, UpstreamWire::Chat)
            .await
            .unwrap();
        let running = started.reference.expect("the host is embedded");
        let config = started.config;
        let label = config.target_label.clone().unwrap();
        assert_eq!(label, format!("reference ({})", running.base_url()));
        assert!(!config.env_proxy);
        assert_eq!(
            config.token.as_ref().map(|t| t.value.as_str()),
            Some(CALIBRATION_TOKEN)
        );
        assert!(config.media_refs.contains_key("audio"));
        running.shutdown().await;
    }
}
