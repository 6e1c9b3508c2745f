//! `expect.prefer`: what the requirement prefers but does not demand. Never an
//! assertion: a note when the answer is not the preferred one.

use crate::plan::predicate::Resolve;
use crate::scenario::model::Preference;
use crate::scenario::template;

/// The note to add, if the answer is not the preferred one. `Err` is a scenario defect.
pub fn note(
    prefer: &Preference,
    status: u16,
    code: Option<&str>,
    resolve: Resolve,
) -> Result<Option<String>, String> {
    let status_ok = prefer.status.is_none_or(|s| s == status);
    let code_ok = prefer
        .error_code
        .as_ref()
        .is_none_or(|c| code == Some(c.as_str()));
    if status_ok && code_ok {
        return Ok(None);
    }
    let note = match &prefer.note {
        Some(n) => template::render_text(n, resolve)?,
        None => {
            let mut wanted = Vec::new();
            if let Some(s) = prefer.status {
                wanted.push(s.to_string());
            }
            if let Some(c) = &prefer.error_code {
                wanted.push(c.clone());
            }
            format!("{} preferred", wanted.join(" "))
        }
    };
    Ok(Some(format!(
        "{note}; host answered {status} {}",
        code.unwrap_or("(no error code)")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_only_when_the_answer_is_not_preferred() {
        let p: Preference =
            serde_json::from_str(r#"{"status": 413, "error_code": "payload_too_large"}"#).unwrap();
        assert_eq!(
            note(&p, 413, Some("payload_too_large"), &|_| None).unwrap(),
            None
        );
        assert_eq!(
            note(&p, 400, None, &|_| None).unwrap().as_deref(),
            Some("413 payload_too_large preferred; host answered 400 (no error code)")
        );
    }
}
