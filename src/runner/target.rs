//! Reaching the target: starting the embedded reference host when asked for, and the
//! URL the run shows (userinfo stripped). Shared by `run`, `list` and `calibrate`.
//! Starting an embedded host turns it into plain configuration: its URL, how reports
//! show it, the token it requires, its media base URL, media references and claims.

use crate::config::{EmbeddedClaims, RunConfig, Target};
use crate::reference::{self, RunningReference};

/// A started target: the embedded host to shut down afterwards (if any), and the URL
/// to test (`None` offline).
pub struct Started {
    pub reference: Option<RunningReference>,
    pub url: Option<url::Url>,
}

fn parse(url: &str) -> Result<url::Url, String> {
    url::Url::parse(url).map_err(|e| format!("the embedded host's URL {url}: {e}"))
}

/// Starts the embedded host when asked for, and records in `config` what a run needs
/// to know about it. `Err` is a tool problem (the embedded host could not bind).
pub async fn start_target(config: &mut RunConfig) -> Result<Started, String> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    match config.target.clone() {
        Target::Reference(reference_config) => {
            let running = reference::spawn(reference_config, addr)
                .await
                .map_err(|e| format!("cannot start the reference host: {e}"))?;
            let base_url = running.base_url();
            config.target_label = Some(format!("reference ({base_url})"));
            Ok(Started {
                url: Some(parse(&base_url)?),
                reference: Some(running),
            })
        }
        Target::AguiReference(agent_config) => {
            let declared = agent_config.declaration.clone();
            let running = reference::agui::spawn(agent_config, addr)
                .await
                .map_err(|e| format!("cannot start the AG-UI reference agent: {e}"))?;
            let endpoint = reference::agui::endpoint_url(&running);
            config.target_label = Some(format!("reference agent ({endpoint})"));
            // The agent serves its own media and holds its own file ids, so url and
            // file positives run without flags.
            if config.media_base_url.is_none() {
                config.media_base_url = Some(reference::agui::media_base_url(&endpoint));
            }
            for kind in &declared.kinds {
                if let Some(id) = reference::agui::known_file_id(kind) {
                    config.media_refs.entry(kind.clone()).or_insert(id);
                }
            }
            config.claims.embedded = Some(EmbeddedClaims {
                accepts: declared.accepts.clone(),
                sources: declared.sources.clone(),
                echo: declared.echo,
                by: declared.declared_by.clone(),
            });
            Ok(Started {
                url: Some(parse(&endpoint)?),
                reference: Some(running),
            })
        }
        Target::Offline => Ok(Started {
            reference: None,
            url: None,
        }),
        Target::Url(url) => {
            // Credentials in the URL are never sent nor shown; resolution put a warning
            // about them in the run's warnings.
            let mut shown = url.clone();
            let _ = shown.set_username("");
            let _ = shown.set_password(None);
            Ok(Started {
                reference: None,
                url: Some(shown),
            })
        }
    }
}

/// Prepares the embedded host to match the run: it requires the configured token (so
/// the auth case can run), and offers its own mediaRefs (so the mediaRef positives run
/// without flags). Other targets are left as they are.
pub fn align_reference(mut config: RunConfig) -> RunConfig {
    let token = config.token.as_ref().map(|t| t.value.clone());
    if let Target::Reference(rc) = &mut config.target {
        rc.token = token;
        for m in &rc.modalities {
            if let Some(r) = reference::known_media_ref(m) {
                config
                    .media_refs
                    .entry(m.clone())
                    .or_insert_with(|| r.to_string());
            }
        }
    }
    config
}
