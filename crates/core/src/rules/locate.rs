//! Finds where a node of a YAML document starts, by its path (`procedures[2].modifiers[0].when`).
//!
//! serde gives locations for syntax and shape errors; the checks that run after deserialising
//! (unknown references, overlapping die ranges…) use this index, built from saphyr-parser's
//! event stream, to point at the offending line and column.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser};

/// One step of a path into a YAML document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A mapping key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

/// A path into a YAML document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct YamlPath(pub Vec<Seg>);

impl YamlPath {
    /// The document root.
    pub fn root() -> YamlPath {
        YamlPath(Vec::new())
    }

    /// This path extended by a key.
    pub fn key(&self, key: &str) -> YamlPath {
        let mut v = self.0.clone();
        v.push(Seg::Key(key.to_string()));
        YamlPath(v)
    }

    /// This path extended by an index.
    pub fn index(&self, index: usize) -> YamlPath {
        let mut v = self.0.clone();
        v.push(Seg::Index(index));
        YamlPath(v)
    }
}

impl std::fmt::Display for YamlPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for seg in &self.0 {
            match seg {
                Seg::Key(k) => {
                    if !first {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        Ok(())
    }
}

enum Frame {
    Map { key: Option<String> },
    Seq { next: usize },
}

/// Start positions (1-based line and column) of every node, by path.
#[derive(Debug, Default)]
pub struct YamlIndex {
    positions: HashMap<YamlPath, (usize, usize)>,
}

impl YamlIndex {
    /// Indexes a document. A document that does not parse yields an empty index.
    pub fn build(text: &str) -> YamlIndex {
        let mut positions = HashMap::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut path: Vec<Seg> = Vec::new();
        for item in Parser::new_from_str(text) {
            let Ok((event, span)) = item else { break };
            let pos = (span.start.line(), span.start.col() + 1);
            let is_node = matches!(
                event,
                Event::Scalar(..)
                    | Event::MappingStart(..)
                    | Event::SequenceStart(..)
                    | Event::Alias(_)
            );
            // A scalar in key position is a key, not a node.
            if let (Some(Frame::Map { key }), Event::Scalar(value, ..)) = (stack.last_mut(), &event)
                && key.is_none()
            {
                *key = Some(value.to_string());
                continue;
            }
            if is_node {
                // Work out this node's path from its parent.
                let seg = match stack.last_mut() {
                    Some(Frame::Map { key }) => key.take().map(Seg::Key),
                    Some(Frame::Seq { next }) => {
                        let i = *next;
                        *next += 1;
                        Some(Seg::Index(i))
                    }
                    None => None,
                };
                if let Some(seg) = &seg {
                    path.push(seg.clone());
                }
                positions.entry(YamlPath(path.clone())).or_insert(pos);
                match event {
                    Event::MappingStart(..) => stack.push(Frame::Map { key: None }),
                    Event::SequenceStart(..) => stack.push(Frame::Seq { next: 0 }),
                    _ => {
                        if seg.is_some() {
                            path.pop();
                        }
                    }
                }
                continue;
            }
            if matches!(event, Event::MappingEnd | Event::SequenceEnd) {
                stack.pop();
                if !stack.is_empty() {
                    path.pop();
                }
            }
        }
        YamlIndex { positions }
    }

    /// The position of a path, or of its nearest indexed ancestor; (0, 0) if none.
    pub fn locate(&self, path: &YamlPath) -> (usize, usize) {
        let mut p = path.0.clone();
        loop {
            if let Some(&pos) = self.positions.get(&YamlPath(p.clone())) {
                return pos;
            }
            if p.pop().is_none() {
                return (0, 0);
            }
        }
    }
}
