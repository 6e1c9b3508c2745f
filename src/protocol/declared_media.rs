//! What a declaration of accepted media says, as every protocol without capability
//! discovery reads one (`--accepts`, a claim file, a runtime's `acceptsInbound`): MIME
//! prefixes (`image/` accepts every image type; a full type such as `audio/wav`
//! accepts exactly that type, parameters ignored), the source kinds declared, and the
//! protocol's part kinds split into declared and undeclared.

use mmconform_media as media;

/// One MIME prefix, normalised: lower case, `image/*` written `image/`.
pub fn parse_prefix(raw: &str) -> Result<String, String> {
    let lowered = raw.trim().to_ascii_lowercase();
    let prefix = lowered.strip_suffix('*').unwrap_or(&lowered);
    let token = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, '!' | '#' | '$' | '&' | '^' | '_' | '.' | '+' | '-')
            })
    };
    match prefix.split_once('/') {
        Some((top, sub)) if token(top) && (sub.is_empty() || token(sub)) => Ok(prefix.to_string()),
        _ => Err(format!(
            "`{raw}` is not a MIME prefix (write `image/` for every image type, or a full type such as `audio/wav`)"
        )),
    }
}

/// Every non-blank entry of `--accepts` (or a claim file's `accepts`) as a prefix, in
/// order, each once.
pub fn parse_prefixes(accepts: &[String]) -> Result<Vec<String>, String> {
    let mut prefixes: Vec<String> = Vec::new();
    for raw in accepts.iter().filter(|a| !a.trim().is_empty()) {
        let prefix = parse_prefix(raw)?;
        if !prefixes.contains(&prefix) {
            prefixes.push(prefix);
        }
    }
    Ok(prefixes)
}

/// The declared source kinds, each one of `known`, in order, each once.
pub fn parse_sources(sources: &[String], known: &[&str]) -> Result<Vec<String>, String> {
    let mut list: Vec<String> = Vec::new();
    for raw in sources.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        if !known.contains(&raw) {
            return Err(format!(
                "unknown source kind `{raw}` (use {})",
                known.join(", ")
            ));
        }
        if !list.iter().any(|s| s == raw) {
            list.push(raw.to_string());
        }
    }
    Ok(list)
}

/// The protocol's part `kinds` split into those some prefix declares (by `kind_of`, the
/// protocol's MIME -> part kind) and the rest, which must be refused.
pub fn split_kinds(
    kinds: &[&str],
    prefixes: &[String],
    kind_of: fn(&str) -> &'static str,
) -> (Vec<String>, Vec<String>) {
    kinds
        .iter()
        .map(|k| k.to_string())
        .partition(|k| prefixes.iter().any(|p| kind_of(p) == k))
}

/// Whether `mime` is accepted by `prefix`: a prefix ending in `/` takes every type
/// below it, a full type exactly itself (parameters ignored).
pub fn prefix_accepts(prefix: &str, mime: &str) -> bool {
    let essence = media::mime_essence(mime);
    if prefix.ends_with('/') {
        essence.starts_with(prefix)
    } else {
        essence == prefix
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_normalised_and_checked() {
        assert_eq!(parse_prefix(" Image/* ").unwrap(), "image/");
        assert_eq!(parse_prefix("audio/wav").unwrap(), "audio/wav");
        assert_eq!(
            parse_prefix("application/vnd.ms-excel").unwrap(),
            "application/vnd.ms-excel"
        );
        for bad in ["image", "/png", "image/p ng", "", "*"] {
            assert!(parse_prefix(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_prefix_accepts_its_subtypes_and_a_full_type_only_itself() {
        assert!(prefix_accepts("image/", "image/png"));
        assert!(prefix_accepts("audio/wav", "Audio/WAV; rate=8000"));
        assert!(!prefix_accepts("audio/wav", "audio/wave"));
        assert!(!prefix_accepts("image/", "video/mp4"));
    }
}
