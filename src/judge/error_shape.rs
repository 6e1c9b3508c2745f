//! `expect.error_shape: flat`: the error body is the flat envelope
//! `{error, message, details?}` and nothing else.

use super::error_body::ErrorShape;
use crate::outcome::AssertionResult;

pub fn check(shape: ErrorShape) -> AssertionResult {
    AssertionResult::new(
        "error_shape",
        ErrorShape::Flat.to_string(),
        shape.to_string(),
        shape == ErrorShape::Flat,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_flat_passes() {
        assert!(check(ErrorShape::Flat).passed);
        assert!(!check(ErrorShape::Nested).passed);
    }
}
