//! `--set KEY=VALUE` overrides, applied to the parsed TOML document before it is deserialized.
//!
//! A key is a dotted path (`links.access.rate`, `flows.bulk.tcp.min_rto`); array elements are
//! addressed as `timeline[0].at` or `timeline.0.at`. Missing intermediate tables are created
//! (`flows.bulk.tcp.window` works without a `[flows.bulk.tcp]` table), except new entries of
//! `nodes`, `links` and `flows` (`flows.other.from = ...`, `nodes.zz = {}`), which would only turn
//! a misspelt name into a confusing error or a silent extra node.
//! The value is parsed as a TOML value if it is one (`2`, `true`, `0.01`, `"x"`, `[1, 2]`,
//! `{ kind = "none" }`), otherwise it is taken as a string (`2Mbps`). A key the format does not
//! know is then rejected by the normal deserialization, with its path.

use crate::error::{err, list, Result};
use toml::{Table, Value};

/// One step of a key path.
#[derive(Debug, PartialEq)]
enum Segment {
    /// A table key (an all-digit key also indexes an array).
    Key(String),
    /// `[N]`: an array index.
    Index(usize),
}

/// Split `a.b[2].c` into segments.
fn parse_key(key: &str) -> Result<Vec<Segment>> {
    let bad = |why: &str| err(key, format!("invalid override key: {why}"));
    if key.trim().is_empty() {
        return Err(bad("the key is empty"));
    }
    let mut segs = Vec::new();
    for part in key.split('.') {
        let (name, mut rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if name.is_empty() && (segs.is_empty() || rest.is_empty()) {
            return Err(bad("empty segment (two dots, or a leading or trailing dot)"));
        }
        if !name.is_empty() {
            segs.push(Segment::Key(name.to_owned()));
        }
        while !rest.is_empty() {
            let (idx, after) = rest.split_once(']').ok_or_else(|| bad("`[` without `]`"))?;
            let idx = idx.parse().map_err(|_| bad("an index in `[...]` must be a non-negative integer"))?;
            segs.push(Segment::Index(idx));
            rest = match after.strip_prefix('[') {
                Some(r) => r,
                None if after.is_empty() => "",
                None => return Err(bad("unexpected text after `]`")),
            };
        }
    }
    Ok(segs)
}

/// The value of an override: a TOML value if it parses as one, else the plain string.
pub(crate) fn parse_value(text: &str) -> Value {
    match toml::from_str::<Table>(&format!("v = {text}")) {
        Ok(mut t) if t.len() == 1 => t.remove("v").unwrap_or_else(|| Value::String(text.to_owned())),
        _ => Value::String(text.to_owned()),
    }
}

/// TOML type name for messages.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a datetime",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

/// Collections whose entries an override may change but not create.
const NAMED: &[(&str, &str)] = &[("nodes", "node"), ("links", "link"), ("flows", "flow")];

/// Set `key` to `value` in `root`.
fn set(root: &mut Value, key: &str, value: Value) -> Result<()> {
    let segs = parse_key(key)?;
    let mut cur = root;
    let mut walked: Vec<String> = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        let here =
            if walked.is_empty() { "the document".to_owned() } else { format!("`{}`", walked.join(".")) };
        cur = match (cur, seg) {
            (Value::Table(t), Segment::Key(k)) => {
                if !t.contains_key(k) {
                    if let [top] = walked.as_slice() {
                        if let Some((_, what)) = NAMED.iter().find(|n| n.0 == top) {
                            let msg =
                                format!("no {what} named `{k}` in the scenario ({top}: {})", list(t.keys()));
                            return Err(err(key, msg));
                        }
                    }
                }
                if last {
                    t.insert(k.clone(), value);
                    return Ok(());
                }
                if !t.contains_key(k) {
                    t.insert(k.clone(), Value::Table(Table::new()));
                }
                t.get_mut(k).expect("present or just inserted")
            }
            (Value::Array(a), seg) => {
                let idx = match seg {
                    Segment::Index(n) => *n,
                    Segment::Key(k) => k.parse().map_err(|_| {
                        err(key, format!("{here} is an array; expected an index, found `{k}`"))
                    })?,
                };
                let len = a.len();
                let slot = a.get_mut(idx).ok_or_else(|| {
                    err(key, format!("index {idx} is out of range: {here} has {len} entries"))
                })?;
                if last {
                    *slot = value;
                    return Ok(());
                }
                slot
            }
            (Value::Table(_), Segment::Index(n)) => {
                return Err(err(key, format!("{here} is a table, not an array; cannot index it with [{n}]")));
            }
            (other, _) => {
                let msg = format!("{here} is {}, not a table; cannot set a key inside it", type_name(other));
                return Err(err(key, msg));
            }
        };
        walked.push(match seg {
            Segment::Key(k) => k.clone(),
            Segment::Index(n) => n.to_string(),
        });
    }
    unreachable!("parse_key returns at least one segment")
}

/// Apply all overrides in order (a later one wins over an earlier one on the same key).
pub(crate) fn apply(doc: &mut Table, overrides: &[(String, String)]) -> Result<()> {
    let mut root = Value::Table(std::mem::take(doc));
    let result = overrides.iter().try_for_each(|(k, v)| set(&mut root, k.trim(), parse_value(v.trim())));
    if let Value::Table(t) = root {
        *doc = t;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    fn over(d: &mut Table, k: &str, v: &str) -> Result<()> {
        apply(d, &[(k.to_owned(), v.to_owned())])
    }

    #[test]
    fn parses_keys() {
        use Segment::*;
        assert_eq!(parse_key("a.b").unwrap(), vec![Key("a".into()), Key("b".into())]);
        assert_eq!(parse_key("t[0].at").unwrap(), vec![Key("t".into()), Index(0), Key("at".into())]);
        assert_eq!(parse_key("t.0.at").unwrap(), vec![Key("t".into()), Key("0".into()), Key("at".into())]);
        assert_eq!(parse_key("m[1][2]").unwrap(), vec![Key("m".into()), Index(1), Index(2)]);
        for bad in ["", "a..b", ".a", "a.", "t[x]", "t[0", "t[0]x", "[0]"] {
            assert!(parse_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_values() {
        assert_eq!(parse_value("2"), Value::Integer(2));
        assert_eq!(parse_value("true"), Value::Boolean(true));
        assert_eq!(parse_value("0.01"), Value::Float(0.01));
        assert_eq!(parse_value("\"x\""), Value::String("x".into()));
        assert_eq!(parse_value("2Mbps"), Value::String("2Mbps".into()));
        assert_eq!(parse_value("sack"), Value::String("sack".into()));
        assert_eq!(parse_value("1\nb = 2"), Value::String("1\nb = 2".into()));
        assert!(matches!(parse_value("[1, 2]"), Value::Array(a) if a.len() == 2));
        assert!(matches!(parse_value("{kind = \"none\"}"), Value::Table(_)));
    }

    #[test]
    fn sets_and_creates() {
        let mut d = doc("[flows.bulk]\nfrom = \"a\"\n[[timeline]]\nat = \"1s\"");
        over(&mut d, "flows.bulk.tcp.window", "40pkt").unwrap();
        assert_eq!(d["flows"]["bulk"]["tcp"]["window"].as_str(), Some("40pkt"));
        over(&mut d, "timeline[0].at", "2s").unwrap();
        assert_eq!(d["timeline"][0]["at"].as_str(), Some("2s"));
        over(&mut d, "timeline.0.at", "3s").unwrap();
        assert_eq!(d["timeline"][0]["at"].as_str(), Some("3s"));
        over(&mut d, "seed", "7").unwrap();
        assert_eq!(d["seed"].as_integer(), Some(7));
    }

    #[test]
    fn rejects_bad_paths() {
        let mut d = doc("duration = \"1s\"\n[flows.bulk]\nfrom = \"a\"\n[[timeline]]\nat = \"1s\"");
        let e = over(&mut d, "duration.x", "1").unwrap_err();
        assert_eq!(e.path, "duration.x");
        assert!(e.message.contains("`duration` is a string, not a table"), "{e}");
        let e = over(&mut d, "timeline[3].at", "1s").unwrap_err();
        assert!(e.message.contains("out of range"), "{e}");
        let e = over(&mut d, "flows.bluk.tcp.window", "1pkt").unwrap_err();
        assert_eq!(e.path, "flows.bluk.tcp.window");
        assert!(e.message.contains("no flow named `bluk`") && e.message.contains("`bulk`"), "{e}");
        for (k, v) in [("flows.other", "{ from = \"a\" }"), ("nodes.zz", "{}"), ("links.l2", "{}")] {
            let e = over(&mut d, k, v).unwrap_err();
            assert!(e.message.starts_with("no ") && e.message.contains("named"), "{k}: {e}");
        }
        assert_eq!(d["flows"].as_table().unwrap().len(), 1);
        let e = over(&mut d, "", "1").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
    }
}
