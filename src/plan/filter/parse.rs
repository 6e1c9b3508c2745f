//! The `--filter` grammar, a small recursive-descent parser over characters (so an
//! error can name its column):
//!
//! ```text
//! expr    = and ( ("or" | "|" | "||") and )*
//! and     = unary ( ("and" | "&" | "&&") unary )*
//! unary   = ("not" | "!") unary | primary
//! primary = "(" expr ")" | NAME "(" arg ")" | KEY ":" value | "\"" text "\"" | word
//! arg     = [ "=" | "~" | "#" ] ( "\"" text "\"" | text with balanced parentheses )
//! ```
//!
//! NAME is `id`, `level`, `source`, `profile` or `outcome`; KEY the same names in
//! today's `key:value` form. A word runs to whitespace, a parenthesis, `&` or `|`.

use super::{Expr, Matcher};
use crate::outcome::{Level, Outcome};

const FUNCTIONS: [&str; 5] = ["id", "level", "source", "profile", "outcome"];

/// Where and why an expression does not parse.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

impl ParseError {
    /// The message, then the expression with a caret under the column.
    pub fn render(&self, flag: &str, text: &str) -> String {
        let pad = " ".repeat(self.column.saturating_sub(1));
        format!(
            "{flag} `{text}`: {} (column {})\n    {text}\n    {pad}^",
            self.message, self.column
        )
    }
}

pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        at: 0,
    };
    parser.skip_space();
    if parser.at == parser.chars.len() {
        return Err(parser.error(0, "an empty filter selects nothing: give a term".into()));
    }
    let expr = parser.or()?;
    parser.skip_space();
    match parser.peek() {
        None => Ok(expr),
        Some(')') => Err(parser.error(parser.at, "`)` without its `(`".into())),
        Some(_) => Err(parser.error(
            parser.at,
            "expected `and`, `or` or the end after a term".into(),
        )),
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn error(&self, at: usize, message: String) -> ParseError {
        ParseError {
            column: at + 1,
            message,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// The keyword `word` at the cursor, standing alone (followed by a space, a
    /// parenthesis, `!` or the end); consumed when it is.
    fn keyword(&mut self, word: &str) -> bool {
        let n = word.chars().count();
        let Some(slice) = self.chars.get(self.at..self.at + n) else {
            return false;
        };
        let same = slice.iter().collect::<String>().eq_ignore_ascii_case(word);
        let after = self.chars.get(self.at + n).copied();
        let alone = after.is_none_or(|c| c.is_whitespace() || matches!(c, '(' | ')' | '!'));
        if same && alone {
            self.at += n;
        }
        same && alone
    }

    /// `sym` or `sym sym` (`&`/`&&`, `|`/`||`).
    fn symbol(&mut self, sym: char) -> bool {
        if self.peek() != Some(sym) {
            return false;
        }
        self.at += 1;
        if self.peek() == Some(sym) {
            self.at += 1;
        }
        true
    }

    fn or(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.and()?;
        loop {
            self.skip_space();
            let at = self.at;
            if !(self.keyword("or") || self.symbol('|')) {
                return Ok(left);
            }
            let right = self.operand(at, "or")?;
            left = Expr::Or(Box::new(left), Box::new(self.and_rest(right)?));
        }
    }

    fn and(&mut self) -> Result<Expr, ParseError> {
        let first = self.unary()?;
        self.and_rest(first)
    }

    fn and_rest(&mut self, mut left: Expr) -> Result<Expr, ParseError> {
        loop {
            self.skip_space();
            let at = self.at;
            if !(self.keyword("and") || self.symbol('&')) {
                return Ok(left);
            }
            let right = self.operand(at, "and")?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
    }

    /// The term after an operator at `at`.
    fn operand(&mut self, at: usize, operator: &str) -> Result<Expr, ParseError> {
        self.skip_space();
        if self.peek().is_none_or(|c| c == ')') {
            return Err(self.error(at, format!("`{operator}` needs a term after it")));
        }
        self.unary()
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        self.skip_space();
        let at = self.at;
        if self.peek() == Some('!') || self.keyword("not") {
            if self.peek() == Some('!') {
                self.at += 1;
            }
            self.skip_space();
            if self.peek().is_none_or(|c| c == ')') {
                return Err(self.error(at, "`not` needs a term after it".into()));
            }
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        self.skip_space();
        let start = self.at;
        match self.peek() {
            Some('(') => {
                self.at += 1;
                self.skip_space();
                if self.peek() == Some(')') {
                    return Err(self.error(start, "empty parentheses".into()));
                }
                let inner = self.or()?;
                self.skip_space();
                if self.peek() != Some(')') {
                    return Err(self.error(start, "this `(` is never closed".into()));
                }
                self.at += 1;
                Ok(inner)
            }
            Some(')') => Err(self.error(start, "`)` without its `(`".into())),
            Some('&' | '|') => Err(self.error(start, "expected a term before the operator".into())),
            Some('"') => {
                let text = self.quoted()?;
                Ok(Expr::Id(Matcher::Auto(text)))
            }
            _ => self.word_or_call(start),
        }
    }

    /// A quoted string at the cursor (`\"` and `\\` escaped), without its quotes.
    fn quoted(&mut self) -> Result<String, ParseError> {
        let open = self.at;
        self.at += 1;
        let mut text = String::new();
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                '"' => return Ok(text),
                '\\' if matches!(self.peek(), Some('"' | '\\')) => {
                    text.extend(self.peek());
                    self.at += 1;
                }
                c => text.push(c),
            }
        }
        Err(self.error(open, "this quote is never closed".into()))
    }

    fn word_or_call(&mut self, start: usize) -> Result<Expr, ParseError> {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '(' | ')' | '&' | '|') {
                break;
            }
            if c == '"' {
                // `source:"RFC 0091 §A"`: the quoted part belongs to the word.
                let quoted = self.quoted()?;
                word.push('"');
                word.push_str(&quoted);
                word.push('"');
                continue;
            }
            word.push(c);
            self.at += 1;
        }
        if self.peek() == Some('(') && !word.is_empty() {
            return self.call(start, &word);
        }
        if ["and", "or"].iter().any(|k| word.eq_ignore_ascii_case(k)) {
            return Err(self.error(start, format!("expected a term before `{word}`")));
        }
        if let Some((key, value)) = word.split_once(':')
            && FUNCTIONS.contains(&key)
        {
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            return self.term(start + key.chars().count() + 1, key, None, value);
        }
        // `levl:MUST`: a key misspelled (ids hold `:` only after a `.`).
        if let Some((key, _)) = word.split_once(':')
            && !key.is_empty()
            && key.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        {
            return Err(self.error(
                start,
                format!(
                    "unknown --filter key `{key}` (known: id, level, source, profile, outcome){}",
                    crate::suggest::hint(key, FUNCTIONS)
                ),
            ));
        }
        Ok(Expr::Id(Matcher::Auto(word)))
    }

    /// `name(arg)`, the cursor on its `(`.
    fn call(&mut self, start: usize, name: &str) -> Result<Expr, ParseError> {
        if !FUNCTIONS.contains(&name) {
            return Err(self.error(
                start,
                format!(
                    "unknown term `{name}(` (known: id, level, source, profile, outcome){}",
                    crate::suggest::hint(name, FUNCTIONS)
                ),
            ));
        }
        let open = self.at;
        self.at += 1;
        self.skip_space();
        let prefix = match self.peek() {
            Some(c @ ('=' | '~' | '#')) => {
                self.at += 1;
                Some(c)
            }
            _ => None,
        };
        self.skip_space();
        let arg_at = self.at;
        let arg = if self.peek() == Some('"') {
            self.quoted()?
        } else {
            self.balanced(open)?
        };
        self.skip_space();
        if self.peek() != Some(')') {
            return Err(self.error(open, format!("this `{name}(` is never closed")));
        }
        self.at += 1;
        if arg.is_empty() {
            return Err(self.error(arg_at, format!("`{name}()` needs a value")));
        }
        self.term(arg_at, name, prefix, &arg)
    }

    /// Text up to the `)` that closes the call opened at `open` (parentheses inside it
    /// balanced, as in `source(AgentRuntime #385 (abortSignal))`), trimmed.
    fn balanced(&mut self, open: usize) -> Result<String, ParseError> {
        let mut depth = 0usize;
        let mut text = String::new();
        while let Some(c) = self.peek() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => return Ok(text.trim().to_string()),
                ')' => depth -= 1,
                _ => {}
            }
            text.push(c);
            self.at += 1;
        }
        Err(self.error(open, "this `(` is never closed".into()))
    }

    /// The term `name` with `value` (at column `at`).
    fn term(
        &self,
        at: usize,
        name: &str,
        prefix: Option<char>,
        value: &str,
    ) -> Result<Expr, ParseError> {
        if value.is_empty() {
            return Err(self.error(at, format!("`{name}` needs a value")));
        }
        let matcher = |default: fn(String) -> Matcher| match prefix {
            Some('=') => Matcher::Exact(value.into()),
            Some('~') => Matcher::Contains(value.into()),
            Some('#') => Matcher::Glob(value.into()),
            _ => default(value.into()),
        };
        match name {
            "id" => Ok(Expr::Id(matcher(Matcher::Auto))),
            "source" => Ok(Expr::Source(matcher(Matcher::Contains))),
            "profile" => Ok(Expr::Profile(matcher(Matcher::Exact))),
            "level" => level(value).map(Expr::Level).map_err(|m| self.error(at, m)),
            _ => outcome(value)
                .map(Expr::Outcome)
                .map_err(|m| self.error(at, m)),
        }
    }
}

/// Today's `key:value` with the whole rest of the text as the value (`source:RFC 0091
/// §A`, spaces unquoted), for a text that does not parse as an expression.
pub fn whole_text_term(text: &str) -> Option<Expr> {
    let (key, value) = text.split_once(':')?;
    let key = key.trim();
    if !FUNCTIONS.contains(&key) {
        return None;
    }
    let value = value.trim().trim_matches('"');
    let parser = Parser {
        chars: Vec::new(),
        at: 0,
    };
    parser.term(0, key, None, value).ok()
}

fn level(value: &str) -> Result<Level, String> {
    match value.to_ascii_uppercase().as_str() {
        "MUST" => Ok(Level::Must),
        "SHOULD" => Ok(Level::Should),
        "MAY" => Ok(Level::May),
        other => Err(format!(
            "unknown level `{other}` (use MUST, SHOULD or MAY){}",
            crate::suggest::hint(other, ["MUST", "SHOULD", "MAY"])
        )),
    }
}

fn outcome(value: &str) -> Result<Outcome, String> {
    let names = Outcome::ALL.map(Outcome::as_str);
    Outcome::ALL
        .into_iter()
        .find(|o| o.as_str().eq_ignore_ascii_case(value))
        .ok_or_else(|| {
            format!(
                "unknown outcome `{value}` (use {}){}",
                names.join(", "),
                crate::suggest::hint(value, names)
            )
        })
}
