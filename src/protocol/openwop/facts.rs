//! Facts derived from an openwop discovery document, as scenario predicates see them
//! under `openwop.*`. Capability families are read from the document ROOT only
//! (RFC 0073): a wrapper-only advertisement counts as no advertisement, and is itself
//! reported by a discovery case.

use serde_json::{Map, Value, json};

/// Names available under `openwop.` (checked by `lint`).
pub const FACT_NAMES: [&str; 22] = [
    "major",
    // The `OpenWOP-Version` header of the discovery answer (set by `discovery::fetch`).
    "answeredVersion",
    "protocolVersions",
    "preferredVersion",
    "listsV2",
    "aiProvidersAtRoot",
    "aiProvidersInWrapper",
    "aiSupported",
    "inputAdvertised",
    "modalities",
    "nonTextAdvertised",
    "unadvertised",
    "firstAdvertised",
    "firstUnadvertised",
    "maxBytesPerPart",
    "maxRequestBodyBytes",
    "limitProbeFits",
    // RFC 0108 (`self_hosted.rs`): advertised, the id and who named it, or why none is known.
    "selfHosted",
    "selfHostedId",
    "selfHostedIdFrom",
    "selfHostedIdListed",
    "selfHostedGap",
];

/// The non-text modalities RFC 0091 defines (a closed enum).
pub const NON_TEXT_MODALITIES: [&str; 3] = ["image", "audio", "document"];

/// Request overhead besides the base64 payload, generously rounded up.
const PROBE_OVERHEAD_BYTES: u64 = 1024;

/// Room above the smallest generated file of the probe's type: a picture's compressed
/// size varies a little with the nonce it shows, and nonces grow with the case index.
const PROBE_PART_MARGIN_BYTES: u64 = 512;

/// The smallest cap the limit probe can test: a valid file of exactly that many bytes
/// must exist for the type it sends (the first advertised modality's default: a PNG of
/// about 450 B, a WAV of about 24 KiB, a PDF of about 650 B). Under it the probe does
/// not apply; a cap of 0 also fails the advertisement schema case.
fn smallest_probe_part(first_advertised: Option<&str>) -> u64 {
    let mime = mmconform_media::default_mime(first_advertised.unwrap_or("image"));
    let longest_nonce = "ffffffffffffffff-c16383";
    mmconform_media::generate(mime, longest_nonce).len() as u64 + PROBE_PART_MARGIN_BYTES
}

fn ai_supported(ai: &Value) -> bool {
    match ai.get("supported") {
        Some(Value::Bool(b)) => *b,
        Some(Value::Array(items)) => !items.is_empty(),
        _ => ai
            .get("providers")
            .and_then(Value::as_array)
            .is_some_and(|p| !p.is_empty()),
    }
}

/// The `<major>.<minor>` strings a document lists in `protocolVersions` (both majors'
/// documents carry it on a v2-era host; a v1-only host has none).
fn protocol_versions(document: Option<&Value>) -> Vec<String> {
    document
        .and_then(|d| d.get("protocolVersions"))
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `version` names major `major` (`2`, `2.0`, `2.13`).
pub fn is_major(version: &str, major: u8) -> bool {
    let head = version.split('.').next().unwrap_or_default();
    head.parse::<u8>().ok() == Some(major)
}

/// Derives `openwop.*` facts. `major` is the major the run targets (the document was
/// fetched for it); `max_probe_bytes` bounds the limit probe's part size. v1 and v2
/// documents keep `aiProviders.input` at the same place; AI support is v1's
/// `supported` or v2's `providers` (presence of the record is the v2 claim).
pub fn derive(document: Option<&Value>, major: u8, max_probe_bytes: u64) -> Value {
    let versions = protocol_versions(document);
    let root_ai = document
        .and_then(|d| d.get("aiProviders"))
        .filter(|v| v.is_object());
    let wrapped_ai = document
        .and_then(|d| d.get("capabilities"))
        .and_then(|c| c.get("aiProviders"));
    let input = root_ai
        .and_then(|ai| ai.get("input"))
        .filter(|v| v.is_object());
    let advertised: Vec<String> = input
        .and_then(|i| i.get("modalities"))
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    // `text` is implicit (RFC 0091 §B).
    let mut modalities = vec!["text".to_string()];
    for m in &advertised {
        if !modalities.contains(m) {
            modalities.push(m.clone());
        }
    }
    let non_text: Vec<&String> = modalities.iter().filter(|m| *m != "text").collect();
    let unadvertised: Vec<&str> = NON_TEXT_MODALITIES
        .iter()
        .copied()
        .filter(|m| !modalities.iter().any(|a| a == m))
        .collect();
    let max_bytes = input
        .and_then(|i| i.get("maxBytesPerPart"))
        .and_then(Value::as_u64);
    let max_body = document
        .and_then(|d| d.pointer("/limits/maxRequestBodyBytes"))
        .and_then(Value::as_u64);
    let first_advertised = non_text
        .iter()
        .find(|m| NON_TEXT_MODALITIES.contains(&m.as_str()))
        .map(|m| m.as_str());
    let limit_probe_fits = limit_probe_fits(
        max_bytes,
        max_body,
        max_probe_bytes,
        smallest_probe_part(first_advertised),
    );

    let mut facts = Map::new();
    facts.insert("major".into(), json!(major));
    // Known only from the answer's headers: `discovery::fetch` fills it in.
    facts.insert("answeredVersion".into(), Value::Null);
    facts.insert(
        "listsV2".into(),
        json!(versions.iter().any(|v| is_major(v, 2))),
    );
    facts.insert("protocolVersions".into(), json!(versions));
    facts.insert(
        "preferredVersion".into(),
        document
            .and_then(|d| d.get("preferredVersion"))
            .filter(|v| v.is_string())
            .cloned()
            .unwrap_or(Value::Null),
    );
    facts.insert("aiProvidersAtRoot".into(), json!(root_ai.is_some()));
    facts.insert("aiProvidersInWrapper".into(), json!(wrapped_ai.is_some()));
    facts.insert(
        "aiSupported".into(),
        json!(root_ai.is_some_and(ai_supported)),
    );
    facts.insert("inputAdvertised".into(), json!(input.is_some()));
    facts.insert("modalities".into(), json!(modalities));
    facts.insert("nonTextAdvertised".into(), json!(non_text));
    facts.insert("unadvertised".into(), json!(unadvertised));
    facts.insert(
        "firstAdvertised".into(),
        // Only a modality RFC 0091 defines can carry a well-formed positive part.
        first_advertised.map(|m| json!(m)).unwrap_or(Value::Null),
    );
    // `video` can never be advertised (closed enum), so every host has an unadvertised type.
    facts.insert(
        "firstUnadvertised".into(),
        json!(unadvertised.first().copied().unwrap_or("video")),
    );
    facts.insert(
        "maxBytesPerPart".into(),
        max_bytes.map(|n| json!(n)).unwrap_or(Value::Null),
    );
    facts.insert(
        "maxRequestBodyBytes".into(),
        max_body.map(|n| json!(n)).unwrap_or(Value::Null),
    );
    facts.insert("limitProbeFits".into(), json!(limit_probe_fits));
    Value::Object(facts)
}

/// Whether the `maxBytesPerPart` probe can be sent: the cap is at least the smallest
/// file every probe type has, and cap + 1 bytes (base64 and the request around them)
/// fit `--max-probe-bytes` and `limits.maxRequestBodyBytes`. The host chooses these
/// numbers: a huge one makes the probe not fit, it never overflows (a wrapped sum would
/// make a 2^64-1 cap look tiny).
fn limit_probe_fits(
    max_bytes: Option<u64>,
    max_body: Option<u64>,
    max_probe_bytes: u64,
    smallest_part: u64,
) -> bool {
    max_bytes.is_some_and(|n| {
        let Some(over) = n.checked_add(1) else {
            return false;
        };
        let encoded = over
            .div_ceil(3)
            .checked_mul(4)
            .and_then(|e| e.checked_add(PROBE_OVERHEAD_BYTES));
        n >= smallest_part
            && over <= max_probe_bytes
            && encoded.is_some_and(|encoded| max_body.is_none_or(|body| encoded <= body))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_root_only_and_makes_text_implicit() {
        let doc = json!({"aiProviders": {"supported": ["x"], "input": {"modalities": ["image"], "maxBytesPerPart": 4096}}});
        let f = derive(Some(&doc), 1, 1 << 20);
        assert_eq!(f["modalities"], json!(["text", "image"]));
        assert_eq!(f["unadvertised"], json!(["audio", "document"]));
        assert_eq!(f["firstAdvertised"], json!("image"));
        assert_eq!(f["firstUnadvertised"], json!("audio"));
        assert_eq!(f["aiSupported"], json!(true));
        assert_eq!(f["limitProbeFits"], json!(true));

        let wrapped = json!({"capabilities": {"aiProviders": {"supported": true, "input": {"modalities": ["image"]}}}});
        let f = derive(Some(&wrapped), 1, 1 << 20);
        assert_eq!(f["aiProvidersAtRoot"], json!(false));
        assert_eq!(f["aiProvidersInWrapper"], json!(true));
        assert_eq!(f["modalities"], json!(["text"]));
        assert_eq!(f["firstAdvertised"], Value::Null);
    }

    #[test]
    fn a_v2_root_gives_the_same_planning_facts() {
        let doc = json!({
            "protocolVersions": ["1.4", "2.0"], "preferredVersion": "1.4",
            "aiProviders": {"status": "experimental", "since": "2.0", "until": "3.0",
                "witness": "witnessable-gated", "providers": ["reference"],
                "input": {"modalities": ["text", "audio"], "maxBytesPerPart": 4096}}
        });
        let f = derive(Some(&doc), 2, 1 << 20);
        assert_eq!(f["major"], json!(2));
        assert_eq!(f["listsV2"], json!(true));
        assert_eq!(f["preferredVersion"], json!("1.4"));
        assert_eq!(f["aiSupported"], json!(true));
        assert_eq!(f["modalities"], json!(["text", "audio"]));
        assert_eq!(f["firstUnadvertised"], json!("image"));
        let v1_only = derive(Some(&json!({"protocolVersion": "1.0"})), 1, 1 << 20);
        assert_eq!(v1_only["listsV2"], json!(false));
        assert_eq!(v1_only["protocolVersions"], json!([]));
        assert!(is_major("2", 2) && is_major("2.13", 2) && !is_major("12.0", 2));
    }

    #[test]
    fn every_modality_advertised_still_leaves_video_unadvertised() {
        let doc = json!({"aiProviders": {"supported": true, "input": {"modalities": ["text", "image", "audio", "document"]}}});
        let f = derive(Some(&doc), 1, 1 << 20);
        assert_eq!(f["unadvertised"], json!([]));
        assert_eq!(f["firstUnadvertised"], json!("video"));
    }

    #[test]
    fn limit_probe_must_fit_the_body_limit_and_the_probe_cap() {
        let doc = json!({"limits": {"maxRequestBodyBytes": 4000}, "aiProviders": {"input": {"maxBytesPerPart": 2048}}});
        assert_eq!(
            derive(Some(&doc), 1, 1 << 20)["limitProbeFits"],
            json!(true)
        );
        let doc = json!({"limits": {"maxRequestBodyBytes": 3000}, "aiProviders": {"input": {"maxBytesPerPart": 2048}}});
        assert_eq!(
            derive(Some(&doc), 1, 1 << 20)["limitProbeFits"],
            json!(false)
        );
        let doc = json!({"aiProviders": {"input": {"maxBytesPerPart": 2048}}});
        assert_eq!(derive(Some(&doc), 1, 500)["limitProbeFits"], json!(false));
        // Too small for any valid file of every type the probe may send, or absurdly
        // large: the probe does not apply, and nothing overflows.
        let doc = json!({"aiProviders": {"input": {"maxBytesPerPart": 500}}});
        assert_eq!(
            derive(Some(&doc), 1, 1 << 20)["limitProbeFits"],
            json!(false)
        );
        // The probe sends the first advertised modality: a WAV needs far more room.
        let audio = json!({"aiProviders": {"input": {"modalities": ["text", "audio"], "maxBytesPerPart": 4096}}});
        assert_eq!(
            derive(Some(&audio), 1, 1 << 20)["limitProbeFits"],
            json!(false)
        );
        let audio = json!({"aiProviders": {"input": {"modalities": ["text", "audio"], "maxBytesPerPart": 65536}}});
        assert_eq!(
            derive(Some(&audio), 1, 1 << 20)["limitProbeFits"],
            json!(true)
        );
        let doc = json!({"aiProviders": {"input": {"maxBytesPerPart": u64::MAX}}});
        assert_eq!(
            derive(Some(&doc), 1, u64::MAX)["limitProbeFits"],
            json!(false)
        );
    }
}
