//! Reading a `--claims FILE`, which the declaration-based protocols (AG-UI, OpenAI)
//! share: `.json` as JSON, anything else as YAML, errors as `file:line:col: message`.

use serde::de::DeserializeOwned;
use std::path::Path;

/// The claim file at `path`, parsed into the protocol's own claim shape `T`.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("--claims {shown}: {e}"))?;
    let is_json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        return serde_json::from_str(&text)
            .map_err(|e| format!("{shown}:{}:{}: {e}", e.line(), e.column()));
    }
    let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
    serde_saphyr::from_str_with_options(&text, options).map_err(|e| {
        let (line, col) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((1, 1));
        let message = e.to_string();
        let first = message.lines().next().unwrap_or("invalid YAML");
        format!("{shown}:{line}:{col}: {first}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Claims {
        accepts: Vec<String>,
    }

    #[test]
    fn yaml_and_json_are_read_and_errors_name_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let yaml = dir.path().join("c.yaml");
        std::fs::write(&yaml, "accepts: [image/]\n").unwrap();
        assert_eq!(read::<Claims>(&yaml).unwrap().accepts, ["image/"]);
        let json = dir.path().join("c.JSON");
        std::fs::write(&json, r#"{"accepts": ["audio/"]}"#).unwrap();
        assert_eq!(read::<Claims>(&json).unwrap().accepts, ["audio/"]);
        std::fs::write(&yaml, "accepts: [image/]\naccept: x\n").unwrap();
        let err = read::<Claims>(&yaml).unwrap_err();
        assert!(err.starts_with(&format!("{}:2:", yaml.display())), "{err}");
        let missing = read::<Claims>(&dir.path().join("none.yaml")).unwrap_err();
        assert!(missing.starts_with("--claims "), "{missing}");
    }
}
