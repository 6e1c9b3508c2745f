//! The element tree of a generated HTML page, from html5gum's WHATWG tokens.
//!
//! mmconform writes every end tag, so the page must nest exactly: an end tag that does
//! not close the innermost open element, an element never closed, or any tokenizer
//! parse error is reported rather than repaired the way a browser would.

use html5gum::{Token, Tokenizer};
use std::collections::BTreeMap;

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

#[derive(Debug, Default)]
pub struct Element {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub children: Vec<Node>,
}

#[derive(Debug)]
pub enum Node {
    Element(Element),
    Text(String),
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The document (an unnamed root element) and its doctype, or every problem found.
pub fn parse(html: &str) -> Result<(Element, String), Vec<String>> {
    let mut stack = vec![Element::default()];
    let mut problems = Vec::new();
    let mut doctype = String::new();
    for token in Tokenizer::new(html).flatten() {
        match token {
            Token::StartTag(tag) => {
                let element = Element {
                    name: text(&tag.name),
                    attrs: tag
                        .attributes
                        .iter()
                        .map(|(k, v)| (text(k), text(&v.value)))
                        .collect(),
                    children: Vec::new(),
                };
                if tag.self_closing || VOID.contains(&element.name.as_str()) {
                    stack
                        .last_mut()
                        .unwrap()
                        .children
                        .push(Node::Element(element));
                } else {
                    stack.push(element);
                }
            }
            Token::EndTag(tag) => {
                let name = text(&tag.name);
                if stack.len() < 2 || stack.last().unwrap().name != name {
                    problems.push(format!(
                        "</{name}> does not close the open <{}>",
                        stack.last().unwrap().name
                    ));
                    continue;
                }
                let done = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(Node::Element(done));
            }
            Token::String(s) => stack
                .last_mut()
                .unwrap()
                .children
                .push(Node::Text(text(&s.value))),
            Token::Doctype(d) => doctype = text(&d.name),
            Token::Comment(_) => {}
            Token::Error(e) => problems.push(format!("parse error: {:?}", e.value)),
        }
    }
    if stack.len() > 1 {
        let open: Vec<&str> = stack[1..].iter().map(|e| e.name.as_str()).collect();
        problems.push(format!("never closed: {}", open.join(" > ")));
    }
    if problems.is_empty() {
        Ok((stack.pop().unwrap(), doctype))
    } else {
        Err(problems)
    }
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    pub fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|x| x == class))
    }

    /// Child elements named `name`.
    pub fn kids(&self, name: &str) -> Vec<&Element> {
        self.children
            .iter()
            .filter_map(|n| match n {
                Node::Element(e) if e.name == name => Some(e),
                _ => None,
            })
            .collect()
    }

    /// Every descendant element, depth first.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        for node in &self.children {
            if let Node::Element(e) = node {
                out.push(e);
                out.extend(e.descendants());
            }
        }
        out
    }

    /// Descendant elements named `name`.
    pub fn all(&self, name: &str) -> Vec<&Element> {
        self.descendants()
            .into_iter()
            .filter(|e| e.name == name)
            .collect()
    }

    /// The text content, entity references decoded by the tokenizer.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for node in &self.children {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => out.push_str(&e.text()),
            }
        }
        out
    }
}
