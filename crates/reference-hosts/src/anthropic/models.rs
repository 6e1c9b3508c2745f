//! The models the server offers and `GET /v1/models` in Anthropic's list shape.

use serde_json::{Value, json};

/// The text-only model: an image or a document sent to it is refused (400).
pub const TEXT_MODEL: &str = "reference-claude-text";
/// The model that takes images and documents.
pub const MULTIMODAL_MODEL: &str = "reference-claude-multimodal";

/// The image `media_type`s the Messages API takes (Vision guide).
pub const IMAGE_MIMES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// One model and the content kinds it takes besides text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Model {
    pub id: &'static str,
    pub image: bool,
    pub document: bool,
}

pub const MODELS: [Model; 2] = [
    Model {
        id: TEXT_MODEL,
        image: false,
        document: false,
    },
    Model {
        id: MULTIMODAL_MODEL,
        image: true,
        document: true,
    },
];

/// `{data: [{type: model, id, display_name, created_at}], has_more, first_id, last_id}`.
pub fn list(models: &[Model]) -> Value {
    let data: Vec<Value> = models
        .iter()
        .map(|m| {
            json!({"type": "model", "id": m.id, "display_name": m.id,
                "created_at": "2026-01-01T00:00:00Z"})
        })
        .collect();
    json!({
        "data": data,
        "has_more": false,
        "first_id": models.first().map(|m| m.id),
        "last_id": models.last().map(|m| m.id),
    })
}
