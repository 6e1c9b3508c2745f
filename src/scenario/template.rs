//! `{placeholder}` substitution in scenario strings.
//!
//! A placeholder names an expansion variable (`{modality}`), a built-in (`{nonce}`,
//! `{case_id}`) or a path into the evaluation context (`{openwop.maxBytesPerPart}`).
//! `{{` and `}}` stand for literal braces. A string that is exactly one placeholder takes
//! the placeholder's JSON value (so `"{openwop.maxBytesPerPart}"` can become a number).

use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    Placeholder(String),
}

/// Splits a template string; errors name the byte offset of the problem.
pub fn parse(template: &str) -> Result<Vec<Segment>, String> {
    let mut segments = Vec::new();
    let mut literal = String::new();
    let mut chars = template.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for (_, n) in chars.by_ref() {
                    if n == '}' {
                        closed = true;
                        break;
                    }
                    name.push(n);
                }
                if !closed {
                    return Err(format!(
                        "unclosed `{{` at offset {i} (write `{{{{` for a literal brace)"
                    ));
                }
                let name = name.trim().to_string();
                if name.is_empty() || name.contains('{') {
                    return Err(format!("empty or nested placeholder at offset {i}"));
                }
                if !literal.is_empty() {
                    segments.push(Segment::Literal(std::mem::take(&mut literal)));
                }
                segments.push(Segment::Placeholder(name));
            }
            '}' => {
                return Err(format!(
                    "stray `}}` at offset {i} (write `}}}}` for a literal brace)"
                ));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        segments.push(Segment::Literal(literal));
    }
    Ok(segments)
}

/// Every placeholder name in a template string.
pub fn placeholders(template: &str) -> Result<Vec<String>, String> {
    Ok(parse(template)?
        .into_iter()
        .filter_map(|s| match s {
            Segment::Placeholder(name) => Some(name),
            Segment::Literal(_) => None,
        })
        .collect())
}

/// Renders a template string. `resolve` answers a placeholder's value or `None` if unknown.
pub fn render(template: &str, resolve: &dyn Fn(&str) -> Option<Value>) -> Result<Value, String> {
    let segments = parse(template)?;
    if let [Segment::Placeholder(name)] = segments.as_slice() {
        return resolve(name).ok_or_else(|| format!("placeholder `{{{name}}}` has no value here"));
    }
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Literal(text) => out.push_str(&text),
            Segment::Placeholder(name) => match resolve(&name) {
                Some(Value::String(s)) => out.push_str(&s),
                Some(other) => out.push_str(&other.to_string()),
                None => return Err(format!("placeholder `{{{name}}}` has no value here")),
            },
        }
    }
    Ok(Value::String(out))
}

/// Renders a template string that must produce text.
pub fn render_text(
    template: &str,
    resolve: &dyn Fn(&str) -> Option<Value>,
) -> Result<String, String> {
    Ok(match render(template, resolve)? {
        Value::String(s) => s,
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(name: &str) -> Option<Value> {
        match name {
            "modality" => Some(json!("image")),
            "limit" => Some(json!(4096)),
            _ => None,
        }
    }

    #[test]
    fn substitutes_and_keeps_literal_braces() {
        assert_eq!(
            render("a {modality} {{x}}", &resolve).unwrap(),
            json!("a image {x}")
        );
        assert_eq!(render("{limit}", &resolve).unwrap(), json!(4096));
        assert_eq!(render("n={limit}", &resolve).unwrap(), json!("n=4096"));
    }

    #[test]
    fn reports_bad_templates() {
        assert!(parse("{open").unwrap_err().contains("unclosed"));
        assert!(parse("x}").unwrap_err().contains("stray"));
        assert!(parse("{}").unwrap_err().contains("empty"));
        assert!(
            render("{missing}", &resolve)
                .unwrap_err()
                .contains("missing")
        );
        assert_eq!(placeholders("{a} and {b.c}").unwrap(), vec!["a", "b.c"]);
    }
}
