//! Maps JSON pointers in a scenario document to `line:col` in its source text.
//!
//! Schema validation reports *where in the data* a problem is (an instance path);
//! users need *where in the file*. YAML is a superset of JSON, so one walk over the
//! YAML parser's events indexes both `.yaml` and `.json` files.

use granit_parser::{Event, Parser, Span};
use std::collections::HashMap;

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub col: usize,
}

impl Position {
    pub const START: Position = Position { line: 1, col: 1 };
}

#[derive(Debug, Default)]
pub struct PositionIndex {
    /// Where each node's value starts.
    nodes: HashMap<String, Position>,
    /// Where the mapping key that holds each node starts.
    keys: HashMap<String, Position>,
}

enum Frame {
    Map {
        path: String,
        key: Option<(String, Position)>,
    },
    Seq {
        path: String,
        next: usize,
    },
}

/// The lines of a source text as the YAML parser counts them: `\r\n`, `\n` and a lone
/// `\r` each end a line (`str::lines` ignores a lone `\r`, which would make a
/// diagnostic's line number point past the lines it can show).
pub fn source_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\r', '\n']) {
            None => {
                rest = None;
                (!current.is_empty()).then_some(current)
            }
            Some(i) => {
                let skip = if current[i..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = Some(&current[i + skip..]).filter(|r| !r.is_empty());
                Some(&current[..i])
            }
        }
    })
}

/// The position of byte `offset` in `text`, counting lines as [`source_lines`] does and
/// columns in characters (a parser that counts only `\n`, or counts bytes, is mapped here).
pub fn position_at(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind(['\r', '\n']).map_or(0, |i| i + 1);
    let mut line = 1;
    let mut chars = before.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')) {
            line += 1;
        }
    }
    Position {
        line,
        col: before[line_start..].chars().count() + 1,
    }
}

/// The byte offset of a 1-based `line` and byte `column` counted the way serde_json
/// counts them (only `\n` ends a line).
pub fn offset_of_newline_position(text: &str, line: usize, column: usize) -> usize {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    (start + column.saturating_sub(1)).min(text.len())
}

/// Escapes one JSON pointer reference token (RFC 6901).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn position_of(span: &Span) -> Position {
    // granit-parser lines are 1-based and columns 0-based.
    Position {
        line: span.start.line().max(1),
        col: span.start.col() + 1,
    }
}

impl PositionIndex {
    /// Best effort: a source that stops parsing yields the positions seen so far.
    pub fn build(source: &str) -> PositionIndex {
        let mut index = PositionIndex::default();
        let mut stack: Vec<Frame> = Vec::new();
        let mut parser = Parser::new_from_str(source);
        while let Some(Ok((event, span))) = parser.next_event() {
            let pos = position_of(&span);
            match event {
                Event::Scalar(text, ..) => {
                    if let Some(Frame::Map {
                        key: key @ None, ..
                    }) = stack.last_mut()
                    {
                        *key = Some((text.into_owned(), pos));
                    } else if let Some(path) = index.place_value(&mut stack, pos) {
                        index.nodes.insert(path, pos);
                    }
                }
                Event::Alias(..) => {
                    if let Some(path) = index.place_value(&mut stack, pos) {
                        index.nodes.insert(path, pos);
                    }
                }
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    let is_map = matches!(event, Event::MappingStart(..));
                    if let Some(Frame::Map {
                        key: key @ None, ..
                    }) = stack.last_mut()
                    {
                        // A complex (collection) key: index its contents under a placeholder name.
                        *key = Some(("?".to_string(), pos));
                    }
                    let path = index.place_value(&mut stack, pos).unwrap_or_default();
                    index.nodes.entry(path.clone()).or_insert(pos);
                    stack.push(if is_map {
                        Frame::Map { path, key: None }
                    } else {
                        Frame::Seq { path, next: 0 }
                    });
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    stack.pop();
                }
                Event::StreamEnd => break,
                _ => {}
            }
        }
        index
    }

    /// Works out the pointer of a value that starts now, and advances its parent.
    fn place_value(&mut self, stack: &mut [Frame], _pos: Position) -> Option<String> {
        match stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Seq { path, next }) => {
                let p = format!("{path}/{next}");
                *next += 1;
                Some(p)
            }
            Some(Frame::Map { path, key }) => {
                let (name, key_pos) = key.take()?;
                let p = format!("{path}/{}", escape_token(&name));
                self.keys.insert(p.clone(), key_pos);
                Some(p)
            }
        }
    }

    /// Where the value at `pointer` starts, or its nearest indexed ancestor.
    pub fn node(&self, pointer: &str) -> Position {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.nodes.get(p) {
                return *pos;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return Position::START,
            }
        }
    }

    /// Where the key holding `pointer` starts (falls back to the value, then ancestors).
    pub fn key(&self, pointer: &str) -> Position {
        self.keys
            .get(pointer)
            .copied()
            .unwrap_or_else(|| self.node(pointer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "mmconform: 1\ncases:\n  - id: a\n    expect:\n      status: 200\n  - id: b\n    tags: [x, y]\n";

    #[test]
    fn indexes_nested_yaml_values_and_keys() {
        let idx = PositionIndex::build(YAML);
        assert_eq!(idx.node("/mmconform"), Position { line: 1, col: 12 });
        assert_eq!(idx.key("/mmconform"), Position { line: 1, col: 1 });
        assert_eq!(
            idx.node("/cases/0/expect/status"),
            Position { line: 5, col: 15 }
        );
        assert_eq!(idx.key("/cases/1/id"), Position { line: 6, col: 5 });
        assert_eq!(idx.node("/cases/1/tags/1"), Position { line: 7, col: 15 });
    }

    #[test]
    fn falls_back_to_nearest_ancestor() {
        let idx = PositionIndex::build(YAML);
        assert_eq!(
            idx.node("/cases/0/expect/nothing/deeper"),
            Position { line: 5, col: 7 }
        );
        assert_eq!(idx.node("/nope"), Position::START);
    }

    #[test]
    fn indexes_json_sources() {
        let json = "{\n  \"a\": {\"b\": [1, {\"c/d\": true}]}\n}";
        let idx = PositionIndex::build(json);
        assert_eq!(idx.node("/a/b/1/c~1d"), Position { line: 2, col: 26 });
        assert_eq!(idx.key("/a/b"), Position { line: 2, col: 9 });
    }

    #[test]
    fn lines_end_at_lone_carriage_returns_too() {
        let text = "a\rb\r\nc\nd";
        assert_eq!(source_lines(text).collect::<Vec<_>>(), ["a", "b", "c", "d"]);
        assert_eq!(source_lines("x\n").count(), 1);
        assert_eq!(source_lines("").count(), 0);
        assert_eq!(
            position_at(text, text.find('d').unwrap()),
            Position { line: 4, col: 1 }
        );
        assert_eq!(position_at("é\rxy", 5), Position { line: 2, col: 3 });
        assert_eq!(offset_of_newline_position("ab\ncd", 2, 2), 4);
    }

    #[test]
    fn survives_broken_input() {
        let idx = PositionIndex::build("a: [1, 2\nb: {");
        assert_eq!(idx.node("/zzz"), Position::START);
    }
}
