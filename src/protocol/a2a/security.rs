//! The card's security schemes (1.0 §4.5, proto `SecurityScheme`; 0.3: OpenAPI-style
//! `{type: http|apiKey|oauth2|openIdConnect|mutualTLS}`) and requirements (1.0
//! `securityRequirements`, 0.3 `security`): which credential the run's token is sent
//! as. A bearer token goes in `Authorization`; an API key in the header its scheme
//! names. The token itself is never read here.

use serde::Serialize;
use serde_json::Value;

/// One declared scheme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scheme {
    pub name: String,
    /// `bearer`, `apiKey`, `oauth2`, `openIdConnect`, `mutualTLS`, or what the card
    /// wrote.
    pub kind: String,
    /// An API key's header (`X-API-Key`), when it travels in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
}

/// What the card says about authentication.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Security {
    pub schemes: Vec<Scheme>,
    /// The card requires one of its schemes on every call (it lists requirements).
    pub required: bool,
}

impl Security {
    pub fn read(card: &Value) -> Security {
        let schemes = card
            .get("securitySchemes")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, scheme)| read_scheme(name, scheme))
            .collect();
        let listed = |key: &str| {
            card.get(key)
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        };
        Security {
            schemes,
            required: listed("securityRequirements") || listed("security"),
        }
    }

    #[cfg(test)]
    /// The header an API key goes in, when the card's only usable scheme is one; `None`
    /// sends the token as a bearer token.
    pub fn api_key_header(&self) -> Option<&str> {
        if self.schemes.iter().any(|s| s.kind == "bearer") {
            return None;
        }
        self.schemes.iter().find_map(|s| s.header.as_deref())
    }

    #[cfg(test)]
    /// `bearer, apiKey (X-API-Key)`; `none`.
    pub fn summary(&self) -> String {
        if self.schemes.is_empty() {
            return "none".into();
        }
        self.schemes
            .iter()
            .map(|s| match &s.header {
                Some(h) => format!("{} ({h})", s.kind),
                None => s.kind.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn read_scheme(name: &str, scheme: &Value) -> Scheme {
    let text = |pointer: &str| scheme.pointer(pointer).and_then(Value::as_str);
    let (kind, header) = if let Some(http) = scheme.get("httpAuthSecurityScheme") {
        let bearer = http
            .get("scheme")
            .and_then(Value::as_str)
            .is_some_and(|s| s.eq_ignore_ascii_case("bearer"));
        (if bearer { "bearer" } else { "http" }.to_string(), None)
    } else if let Some(key) = scheme.get("apiKeySecurityScheme") {
        let in_header = key.get("location").and_then(Value::as_str) == Some("header");
        let header = key
            .get("name")
            .and_then(Value::as_str)
            .filter(|_| in_header);
        ("apiKey".to_string(), header.map(str::to_string))
    } else if scheme.get("oauth2SecurityScheme").is_some() {
        ("oauth2".to_string(), None)
    } else if scheme.get("openIdConnectSecurityScheme").is_some() {
        ("openIdConnect".to_string(), None)
    } else if scheme.get("mtlsSecurityScheme").is_some() {
        ("mutualTLS".to_string(), None)
    } else {
        match text("/type") {
            Some("http") if text("/scheme").is_some_and(|s| s.eq_ignore_ascii_case("bearer")) => {
                ("bearer".to_string(), None)
            }
            Some("apiKey") => {
                let header = (text("/in") == Some("header"))
                    .then(|| text("/name"))
                    .flatten();
                ("apiKey".to_string(), header.map(str::to_string))
            }
            Some(other) => (other.to_string(), None),
            None => ("(unknown)".to_string(), None),
        }
    };
    Scheme {
        name: name.to_string(),
        kind,
        header,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_spellings_are_read() {
        let v1 = Security::read(&json!({
            "securitySchemes": {"b": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
            "securityRequirements": [{"schemes": {"b": {"list": []}}}]
        }));
        assert_eq!(v1.summary(), "bearer");
        assert!(v1.required);
        assert_eq!(v1.api_key_header(), None);
        let v03 = Security::read(&json!({
            "securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
            "security": [{"k": []}]
        }));
        assert_eq!(v03.api_key_header(), Some("X-API-Key"));
        assert_eq!(v03.summary(), "apiKey (X-API-Key)");
        let open = Security::read(&json!({}));
        assert!(!open.required && open.schemes.is_empty());
    }
}
