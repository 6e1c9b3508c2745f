//! Problems found in scenario files, rendered like rustc: message, `--> file:line:col`,
//! the source line and a caret.

use super::position::Position;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as the user named it (`builtin:...` for compiled-in files).
    pub file: String,
    pub position: Position,
    pub message: String,
    /// The offending source line, for the caret display.
    pub source_line: Option<String>,
}

impl Diagnostic {
    pub fn new(file: &str, source: &str, position: Position, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            position,
            message: message.into(),
            source_line: super::position::source_lines(source)
                .nth(position.line.saturating_sub(1))
                .map(str::to_string),
        }
    }

    /// `file:line:col`, the form editors and CI annotations understand.
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.position.line, self.position.col)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.message)?;
        let gutter = self.position.line.to_string().len();
        let pad = " ".repeat(gutter);
        writeln!(f, "{pad}--> {}", self.location())?;
        if let Some(line) = &self.source_line {
            // Long lines (minified JSON) are cut around the column so the caret stays visible.
            let chars: Vec<char> = line.chars().collect();
            let col = self.position.col.saturating_sub(1).min(chars.len());
            let start = col.saturating_sub(60);
            let end = (col + 60).min(chars.len());
            let shown: String = chars[start..end].iter().collect();
            writeln!(f, "{pad} |")?;
            writeln!(f, "{} | {}", self.position.line, shown.trim_end())?;
            write!(f, "{pad} | {}^", " ".repeat(col - start))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let d = Diagnostic::new(
            "s.yaml",
            "a: 1\nbad: x\n",
            Position { line: 2, col: 6 },
            "nope",
        );
        let text = d.to_string();
        assert!(text.starts_with("error: nope\n --> s.yaml:2:6\n"), "{text}");
        assert!(text.ends_with("2 | bad: x\n  |      ^"), "{text}");
    }
}
