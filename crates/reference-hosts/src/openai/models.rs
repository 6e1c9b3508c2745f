//! The models the reference server offers, what each can take, and `GET /v1/models`.

use serde_json::{Value, json};

/// The text-only model: every media part sent to it is a capability refusal.
pub const TEXT_MODEL: &str = "reference-text";
/// The model that takes images, audio and files.
pub const MULTIMODAL_MODEL: &str = "reference-multimodal";

/// The `created` both models report (fixed, so `/models` is reproducible).
const CREATED: u64 = 1_764_547_200;

/// The image types the multimodal model takes (what OpenAI documents, plus what
/// llm-provider 0015 names as portable: png, jpeg, webp; gif too).
pub const IMAGE_MIMES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// One model and the content kinds it takes besides text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Model {
    pub id: &'static str,
    pub image: bool,
    pub audio: bool,
    pub file: bool,
}

/// Every model the server knows, in the order `/models` lists them.
pub const MODELS: [Model; 2] = [
    Model {
        id: TEXT_MODEL,
        image: false,
        audio: false,
        file: false,
    },
    Model {
        id: MULTIMODAL_MODEL,
        image: true,
        audio: true,
        file: true,
    },
];

/// The model named `id`, when the server knows it.
pub fn find(id: &str) -> Option<Model> {
    MODELS.iter().copied().find(|m| m.id == id)
}

/// The models named in `ids` (all of them when empty), each once; an unknown name is
/// an error naming the known ones.
pub fn select(ids: &[String]) -> Result<Vec<Model>, String> {
    if ids.is_empty() {
        return Ok(MODELS.to_vec());
    }
    let mut selected: Vec<Model> = Vec::new();
    for id in ids {
        let model = find(id.trim()).ok_or_else(|| {
            let known: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
            format!(
                "unknown model `{id}`; the reference server has {}",
                known.join(", ")
            )
        })?;
        if !selected.contains(&model) {
            selected.push(model);
        }
    }
    Ok(selected)
}

/// One model as `GET /v1/models/{id}` answers it (OpenAI's model object).
pub fn card(model: &Model) -> Value {
    json!({"id": model.id, "object": "model", "created": CREATED, "owned_by": "mmconform"})
}

/// The `GET /v1/models` answer for `models` (OpenAI's list shape).
pub fn list(models: &[Model]) -> Value {
    let data: Vec<Value> = models.iter().map(card).collect();
    json!({"object": "list", "data": data})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_models_differ_only_in_media() {
        let text = find(TEXT_MODEL).unwrap();
        assert!(!text.image && !text.audio && !text.file);
        let multi = find(MULTIMODAL_MODEL).unwrap();
        assert!(multi.image && multi.audio && multi.file);
        assert_eq!(find("gpt-4o"), None);
    }

    #[test]
    fn selection_and_listing() {
        assert_eq!(select(&[]).unwrap().len(), 2);
        let one = select(&[TEXT_MODEL.to_owned()]).unwrap();
        assert_eq!(one, vec![find(TEXT_MODEL).unwrap()]);
        let twice = [TEXT_MODEL.to_owned(), format!(" {TEXT_MODEL}")];
        assert_eq!(select(&twice).unwrap(), one);
        let err = select(&["nope".to_owned()]).unwrap_err();
        assert!(
            err.contains("nope") && err.contains(MULTIMODAL_MODEL),
            "{err}"
        );
        let listed = list(&one);
        assert_eq!(listed["object"], "list");
        assert_eq!(listed["data"][0]["id"], TEXT_MODEL);
        assert_eq!(listed["data"][0]["object"], "model");
        assert_eq!(listed["data"].as_array().unwrap().len(), 1);
    }
}
