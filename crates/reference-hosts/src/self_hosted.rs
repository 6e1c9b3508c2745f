//! RFC 0108, the self-hosted provider: with an endpoint configured
//! ([`ReferenceConfig::compat_endpoint`]) the host advertises `compat` as self-hosted
//! and serves calls naming it (forwarded when an upstream model is configured, answered
//! by the host itself otherwise). The endpoint is operator configuration: it never
//! appears on the wire, and the host never connects to it. Five faults break one rule
//! each: the endpoint leaks into answers, the provider is advertised but refused, its
//! id is its URL, it is missing from the provider list (`discovery.rs`), and its calls
//! skip the modality check.

use serde_json::{Value, json};

use super::error_body::{ErrorCode, Rejection};
use super::forward::COMPAT_PROVIDER;
use super::{Fault, ReferenceConfig};

/// The id the host advertises as self-hosted: `compat`, or (`self-hosted-url-id`) the
/// endpoint itself. `None` when no endpoint is configured (nothing is advertised).
pub fn id(config: &ReferenceConfig) -> Option<&str> {
    let endpoint = config.compat_endpoint.as_deref()?;
    Some(if config.faulted(Fault::SelfHostedUrlId) {
        endpoint
    } else {
        COMPAT_PROVIDER
    })
}

/// Whether `body` is a call through the self-hosted provider.
pub fn named(config: &ReferenceConfig, body: &Value) -> bool {
    id(config).is_some_and(|id| body.get("provider").and_then(Value::as_str) == Some(id))
}

/// The configuration a call is validated with: a self-hosted call under
/// `self-hosted-accepts-unadvertised` skips the modality check (its unadvertised parts
/// are dropped, as `silently-drops-unadvertised` does for every call).
pub fn validation_config(config: &ReferenceConfig, self_hosted: bool) -> ReferenceConfig {
    if self_hosted && config.faulted(Fault::SelfHostedAcceptsUnadvertised) {
        ReferenceConfig {
            fault: Some(Fault::SilentlyDropsUnadvertised),
            ..config.clone()
        }
    } else {
        config.clone()
    }
}

/// `self-hosted-not-configured`: the advertised provider is refused as unconfigured.
pub fn refusal(config: &ReferenceConfig, self_hosted: bool) -> Option<Rejection> {
    (self_hosted && config.faulted(Fault::SelfHostedNotConfigured)).then(|| {
        Rejection::new(
            ErrorCode::ProviderNotConfigured,
            "the provider has no configured endpoint",
        )
        .with_detail("provider", COMPAT_PROVIDER)
    })
}

/// A self-hosted call's answer, with the provider named; `self-hosted-endpoint-leaks`
/// adds the endpoint.
pub fn answer(config: &ReferenceConfig, mut answer: Value) -> Value {
    answer["provider"] = json!(id(config));
    if let Some(endpoint) = leaked(config) {
        answer["endpoint"] = json!(endpoint);
    }
    answer
}

/// A self-hosted call's refusal; `self-hosted-endpoint-leaks` names the endpoint in
/// its details.
pub fn refused(config: &ReferenceConfig, rejection: Rejection) -> Rejection {
    match leaked(config) {
        Some(endpoint) => rejection.with_detail("endpoint", endpoint),
        None => rejection,
    }
}

fn leaked(config: &ReferenceConfig) -> Option<&str> {
    config
        .compat_endpoint
        .as_deref()
        .filter(|_| config.faulted(Fault::SelfHostedEndpointLeaks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configured(fault: Option<Fault>) -> ReferenceConfig {
        ReferenceConfig {
            compat_endpoint: Some("http://compat.example.invalid:8089/v1".into()),
            fault,
            ..ReferenceConfig::default()
        }
    }

    #[test]
    fn only_a_configured_host_has_a_self_hosted_provider() {
        assert_eq!(id(&ReferenceConfig::default()), None);
        let host = configured(None);
        assert_eq!(id(&host), Some("compat"));
        assert!(named(&host, &json!({"provider": "compat"})));
        assert!(!named(&host, &json!({"provider": "reference"})));
        let answer = answer(&host, json!({"ok": true}));
        assert_eq!(answer, json!({"ok": true, "provider": "compat"}));
        assert!(refusal(&host, true).is_none());
    }

    #[test]
    fn each_fault_breaks_its_one_rule() {
        let leaks = configured(Some(Fault::SelfHostedEndpointLeaks));
        assert!(
            answer(&leaks, json!({}))["endpoint"]
                .as_str()
                .unwrap()
                .contains("compat.example.invalid")
        );
        let refused = refused(&leaks, Rejection::new(ErrorCode::ValidationError, "x"));
        assert!(refused.details.unwrap().contains_key("endpoint"));
        let url_id = configured(Some(Fault::SelfHostedUrlId));
        assert_eq!(id(&url_id), Some("http://compat.example.invalid:8089/v1"));
        let unconfigured = configured(Some(Fault::SelfHostedNotConfigured));
        assert_eq!(
            refusal(&unconfigured, true).unwrap().code,
            ErrorCode::ProviderNotConfigured
        );
        assert!(refusal(&unconfigured, false).is_none());
        let lax = configured(Some(Fault::SelfHostedAcceptsUnadvertised));
        assert_eq!(
            validation_config(&lax, true).fault,
            Some(Fault::SilentlyDropsUnadvertised)
        );
        assert_eq!(validation_config(&lax, false).fault, lax.fault);
    }
}
