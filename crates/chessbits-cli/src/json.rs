//! A small JSON writer for `--json` outputs (the tool has no serde dependency): build a
//! [`Json`] value and print it with `{}`.

use std::fmt;

/// A JSON value. Objects keep their keys in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    UInt(u64),
    /// Written with up to 6 decimals; NaN and infinities are written as `null`.
    Float(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs.
    pub fn obj<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// A string, or `null` for `None`.
    pub fn opt_str(value: Option<impl Into<String>>) -> Json {
        value.map_or(Json::Null, |v| Json::Str(v.into()))
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}

impl From<u64> for Json {
    fn from(n: u64) -> Json {
        Json::UInt(n)
    }
}

impl From<u32> for Json {
    fn from(n: u32) -> Json {
        Json::UInt(u64::from(n))
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Json {
        Json::UInt(n as u64)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Float(x)
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::UInt(n) => write!(f, "{n}"),
            Json::Float(x) if x.is_finite() => {
                let text = format!("{x:.6}");
                let text = text.trim_end_matches('0').trim_end_matches('.');
                f.write_str(if text.is_empty() || text == "-" { "0" } else { text })
            }
            Json::Float(_) => f.write_str("null"),
            Json::Str(s) => f.write_str(&json_string(s)),
            Json::Arr(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Obj(pairs) => {
                f.write_str("{")?;
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{value}", json_string(key))?;
                }
                f.write_str("}")
            }
        }
    }
}

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_json() {
        let value = Json::obj([
            ("a", Json::from(1u64)),
            ("b", Json::Arr(vec![Json::Null, Json::Bool(true), Json::Float(-3.0)])),
            ("c", Json::from("q\"\\\n\u{1}é")),
            ("d", Json::Float(0.5)),
            ("e", Json::Float(2.0)),
            ("f", Json::Float(f64::NAN)),
        ]);
        assert_eq!(
            value.to_string(),
            r#"{"a":1,"b":[null,true,-3],"c":"q\"\\\n\u0001é","d":0.5,"e":2,"f":null}"#
        );
    }
}
