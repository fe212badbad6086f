//! What the checkers read of a proof's JSON, over two trees: `serde_json::Value` (the tests'
//! answers) and [`Compact`], a proof file read with a tenth of the memory (a long run's proof
//! of millions of nodes: `Value`'s maps keep their keys as strings and a table each).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;

/// A JSON tree as the checkers read it.
pub trait Json: Sized {
    fn get(&self, key: &str) -> Option<&Self>;
    fn as_array(&self) -> Option<&[Self]>;
    fn as_str(&self) -> Option<&str>;
    fn is_null(&self) -> bool;
}

impl Json for Value {
    fn get(&self, key: &str) -> Option<&Self> {
        Value::get(self, key)
    }
    fn as_array(&self) -> Option<&[Self]> {
        Value::as_array(self).map(Vec::as_slice)
    }
    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }
    fn is_null(&self) -> bool {
        Value::is_null(self)
    }
}

/// The keys of a proof (src/prove/tree.rs, docs/json.md) and of `--json`'s answer around it;
/// a [`Compact`] tree keeps these only (asking it for another key is a checker's bug: it
/// panics rather than answer "absent").
const KEYS: [&str; 12] = [
    "proof", "leaf", "threat", "quiet", "pass", "replies", "stone", "stones", "next", "six",
    "attack", "defenses",
];

/// A JSON tree of a proof, compact: keys by their index in [`KEYS`] (the others dropped),
/// short strings (a point's name) inline, numbers and booleans not kept.
pub enum Compact {
    Null,
    /// A number or a boolean (no proof reads one).
    Other,
    Short(u8, [u8; 14]),
    Long(Box<str>),
    Array(Box<[Compact]>),
    Object(Box<[(u8, Compact)]>),
}

impl Json for Compact {
    fn get(&self, key: &str) -> Option<&Self> {
        let k = KEYS
            .iter()
            .position(|&k| k == key)
            .unwrap_or_else(|| panic!("the compact tree does not keep the key {key}"));
        match self {
            Compact::Object(entries) => entries.iter().find(|e| e.0 as usize == k).map(|e| &e.1),
            _ => None,
        }
    }
    fn as_array(&self) -> Option<&[Self]> {
        match self {
            Compact::Array(items) => Some(items),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<&str> {
        match self {
            Compact::Short(len, bytes) => std::str::from_utf8(&bytes[..*len as usize]).ok(),
            Compact::Long(s) => Some(s),
            _ => None,
        }
    }
    fn is_null(&self) -> bool {
        matches!(self, Compact::Null)
    }
}

impl<'de> Deserialize<'de> for Compact {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CompactVisitor)
    }
}

struct CompactVisitor;

impl<'de> Visitor<'de> for CompactVisitor {
    type Value = Compact;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Compact, E> {
        Ok(Compact::Null)
    }
    fn visit_none<E>(self) -> Result<Compact, E> {
        Ok(Compact::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Compact, E> {
        Ok(Compact::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Compact, E> {
        Ok(Compact::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Compact, E> {
        Ok(Compact::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Compact, E> {
        Ok(Compact::Other)
    }
    fn visit_str<E>(self, s: &str) -> Result<Compact, E> {
        let mut bytes = [0; 14];
        Ok(if s.len() <= bytes.len() {
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Compact::Short(s.len() as u8, bytes)
        } else {
            Compact::Long(s.into())
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Compact, A::Error> {
        let start = ITEMS.with_borrow(Vec::len);
        while let Some(item) = seq.next_element()? {
            ITEMS.with_borrow_mut(|items| items.push(item));
        }
        Ok(Compact::Array(
            ITEMS.with_borrow_mut(|items| items.drain(start..).collect()),
        ))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Compact, A::Error> {
        let start = ENTRIES.with_borrow(Vec::len);
        while let Some(key) = map.next_key::<String>()? {
            let value: Compact = map.next_value()?;
            if let Some(k) = KEYS.iter().position(|&k| k == key) {
                let twice = ENTRIES.with_borrow(|e| e[start..].iter().any(|e| e.0 as usize == k));
                if twice {
                    ENTRIES.with_borrow_mut(|e| e.truncate(start));
                    return Err(serde::de::Error::custom(format!("the key {key} twice")));
                }
                ENTRIES.with_borrow_mut(|e| e.push((k as u8, value)));
            }
        }
        Ok(Compact::Object(
            ENTRIES.with_borrow_mut(|e| e.drain(start..).collect()),
        ))
    }
}

thread_local! {
    /// The items of the arrays and objects being read, innermost last: each is boxed once at
    /// its exact length (a `Vec` grown and shrunk for each left millions of small free chunks
    /// in the heap, and the check that followed ran 3× slower in glibc's allocator).
    static ITEMS: RefCell<Vec<Compact>> = const { RefCell::new(Vec::new()) };
    static ENTRIES: RefCell<Vec<(u8, Compact)>> = const { RefCell::new(Vec::new()) };
}
