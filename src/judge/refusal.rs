//! `expect.capability_refusal`: a well-formed request the model cannot take (an image
//! to a text-only model) is refused as such. 404 says the route or the model does not
//! exist, which sends a client looking for the wrong problem, so it fails by that name.
//! Whether the answer was a 4xx at all is the classification's to judge.

use crate::outcome::AssertionResult;

pub fn check(status: u16) -> AssertionResult {
    let actual = if status == 404 {
        "404 Not Found: a capability refusal answered as if the route or model did not exist"
            .to_string()
    } else {
        status.to_string()
    };
    AssertionResult::new(
        "capability_refusal",
        "a refusal that is not 404 (400 with the error envelope is what OpenAI answers)".into(),
        actual,
        status != 404,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_404_fails_and_is_named() {
        assert!(check(400).passed && check(422).passed);
        let a = check(404);
        assert!(!a.passed);
        assert!(a.actual.starts_with("404 Not Found"), "{}", a.actual);
    }
}
