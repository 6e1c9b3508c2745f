//! What the reference model servers (`openai.rs`: Chat and Responses, `anthropic.rs`:
//! Messages) share: the model `--model` picks, the claims the server makes for it, and
//! pointing the run at the started server.

use crate::config::{EmbeddedClaims, RunConfig};

/// The model `--model` names (default `default`), as `served` finds it; a name the
/// server does not serve is a usage error listing the `known` ones.
pub fn pick_model<M>(
    model: Option<&str>,
    default: &str,
    served: impl FnOnce(&str) -> Option<M>,
    known: impl IntoIterator<Item = &'static str>,
) -> Result<M, String> {
    let id = model.map(str::trim).unwrap_or(default);
    served(id).ok_or_else(|| {
        let known: Vec<&str> = known.into_iter().collect();
        format!(
            "--model `{id}`: the reference server serves {}",
            known.join(", ")
        )
    })
}

/// What a server declares its model `id` takes: the `accepts` types, inline data
/// always and the `by_reference` sources too when it takes media at all, `detail`
/// when asked, streaming offered.
pub fn claims(
    id: &str,
    accepts: Vec<String>,
    by_reference: &[&str],
    detail: bool,
) -> EmbeddedClaims {
    let mut sources = vec!["data".to_string()];
    if !accepts.is_empty() {
        sources.extend(by_reference.iter().map(|s| s.to_string()));
    }
    EmbeddedClaims {
        sources,
        detail,
        accepts,
        echo: false,
        streaming: true,
        by: format!("reference server ({id})"),
    }
}

/// The refusal of a user declaration for a server that declares its model itself.
pub const DECLARES_ITSELF: &str = "the reference server declares what its model takes: pick the model \
     with --model, not --accepts/--claims";

/// Points `config` at a started server's API `base`, and at the media it serves
/// unless `--media-base-url` was given.
pub fn point_at(config: &mut RunConfig, base: &str, media_base_url: String) -> Result<(), String> {
    config.media_base_url.get_or_insert(media_base_url);
    super::point(config, base, format!("reference server ({base})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_model_is_named_with_the_served_ones() {
        let served = |id: &str| (id == "a").then_some(1);
        assert_eq!(pick_model(None, "a", served, ["a", "b"]), Ok(1));
        assert_eq!(pick_model(Some(" a "), "b", served, ["a", "b"]), Ok(1));
        assert_eq!(
            pick_model(Some("c"), "a", served, ["a", "b"]),
            Err("--model `c`: the reference server serves a, b".to_string())
        );
    }

    #[test]
    fn a_text_only_model_claims_inline_data_only() {
        let text = claims("t", vec![], &["http"], false);
        assert_eq!(text.sources, ["data"]);
        let multi = claims("m", vec!["image/png".into()], &["http", "file_id"], true);
        assert_eq!(multi.sources, ["data", "http", "file_id"]);
        assert!(multi.detail);
        assert_eq!(multi.by, "reference server (m)");
    }
}
