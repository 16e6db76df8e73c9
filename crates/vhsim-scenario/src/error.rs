//! The one error type of scenario loading: a key path and a message.

use std::fmt;

/// A scenario that cannot be loaded: what is wrong, and where.
///
/// `path` is the dotted key path of the offending value (`links.access.forward.error.p`,
/// `flows.bulk.tcp.window`, `timeline[2].at`), or empty when the error concerns the whole file
/// (e.g. a TOML syntax error, whose message then carries the line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted key path of the offending value; empty for whole-file errors.
    pub path: String,
    /// What is wrong and what is allowed instead.
    pub message: String,
}

impl ScenarioError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Longest quoted value an error message repeats in full (characters).
pub const MAX_QUOTED: usize = 60;

/// Longest error message, after quoted values are cut (characters): with the key path (at
/// most `2 * MAX_QUOTED`) in front, an error stays under 500 characters (issue #27).
const MAX_MESSAGE: usize = 320;

/// What [`fit_name_list`] adds after the names it keeps, at most (characters).
const LIST_NOTE: usize = 70;

/// `text` if it has at most `max` characters, else its head, `…` and its length, so that a
/// message about a 1 MB value stays one readable line.
pub fn shorten(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max.saturating_sub(20).max(8)).collect();
    format!("{head}… ({n} characters)")
}

/// `message` with a list of allowed names (serde's "expected one of `a`, `b`, ...") too long for
/// [`MAX_MESSAGE`] reduced to the names closest to the one it rejects (its first backquoted
/// name), whole, and a count of the others, rather than cut in the middle of a name by the cap
/// (issue #27: SCTP's 34 keys).
fn fit_name_list(message: &str) -> String {
    const MARK: &str = ", expected one of ";
    let Some(at) = message.find(MARK) else { return message.to_owned() };
    let (head, rest) = (&message[..at], &message[at + MARK.len()..]);
    let (list, tail) = rest.split_once('\n').map_or((rest, ""), |(l, t)| (l, t));
    if message.chars().count() <= MAX_MESSAGE {
        return message.to_owned();
    }
    let names: Option<Vec<&str>> =
        list.split(", ").map(|n| n.strip_prefix('`').and_then(|n| n.strip_suffix('`'))).collect();
    let Some(names) = names else { return message.to_owned() };
    let budget =
        MAX_MESSAGE.saturating_sub(head.chars().count() + MARK.len() + tail.chars().count() + LIST_NOTE);
    // The name given, as far as a distance needs it (a pasted megabyte is no better a guess).
    let given: String = head.split('`').nth(1).unwrap_or("").chars().take(64).collect();
    let mut order: Vec<(usize, usize)> =
        names.iter().enumerate().map(|(i, n)| (edit_distance(&given, n), i)).collect();
    order.sort_unstable();
    let mut shown = Vec::new();
    let mut length = 0;
    for (_, i) in order {
        let cost = names[i].chars().count() + 4;
        if length + cost > budget && !shown.is_empty() {
            break;
        }
        length += cost;
        shown.push(format!("`{}`", names[i]));
    }
    let more = names.len() - shown.len();
    let tail = if tail.is_empty() { String::new() } else { format!("\n{tail}") };
    format!(
        "{head}, expected one of {}, or {more} more (the closest shown; `vhsim schema` lists all {}){tail}",
        shown.join(", "),
        names.len()
    )
}

/// Levenshtein distance between `a` and `b`, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Cut every long `"..."` or `` `...` `` span of `message`.
fn shorten_quoted(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(8 * MAX_MESSAGE));
    let mut i = 0;
    while i < chars.len() {
        let q = chars[i];
        out.push(q);
        i += 1;
        if q != '"' && q != '`' {
            continue;
        }
        // The closing quote (a `\"` inside a Debug-formatted string is not one).
        let mut j = i;
        while j < chars.len() && !(chars[j] == q && (q == '`' || chars[j - 1] != '\\')) {
            j += 1;
        }
        if j == chars.len() {
            continue; // unpaired: leave the rest to the length cap
        }
        let inner: String = chars[i..j].iter().collect();
        out.push_str(&shorten(&inner, MAX_QUOTED));
        out.push(q);
        i = j + 1;
    }
    out
}

/// `message` cut to [`MAX_MESSAGE`] characters: its head and its tail.
fn cap(message: String) -> String {
    let n = message.chars().count();
    if n <= MAX_MESSAGE {
        return message;
    }
    let head: String = message.chars().take(MAX_MESSAGE / 2).collect();
    let tail: String = message.chars().skip(n - MAX_MESSAGE / 4).collect();
    format!("{head} … {tail}")
}

impl ScenarioError {
    /// The same error with long values cut (see [`shorten`]); applied to every error that
    /// leaves the crate.
    pub(crate) fn tidy(self) -> Self {
        ScenarioError {
            path: shorten(&self.path, 2 * MAX_QUOTED),
            message: cap(fit_name_list(&shorten_quoted(&self.message))),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = ScenarioError> = std::result::Result<T, E>;

/// Join a parent path and a key (`"links.a"` + `"rate"` = `"links.a.rate"`).
pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Build an error, for `return Err(err(path, format!(..)))`.
pub(crate) fn err(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(path, message)
}

/// `a, b, c` with each name in backquotes, or `(none)`.
pub(crate) fn list<I, S>(names: I) -> String
where
    I: IntoIterator<Item = S>,
    S: fmt::Display,
{
    let v: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
    if v.is_empty() {
        "(none)".to_owned()
    } else {
        v.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_short_ones_kept() {
        assert_eq!(shorten("abc", 5), "abc");
        let cut = shorten(&"x".repeat(1000), 60);
        assert!(cut.starts_with("xxxx") && cut.ends_with("… (1000 characters)") && cut.len() < 80, "{cut}");
        let e = ScenarioError::new(
            "a".repeat(500),
            format!("\"{}\" is not a rate; expected `{}`", "9".repeat(10_000), "b".repeat(70)),
        );
        let t = e.tidy();
        assert!(t.path.len() < 150 && t.path.ends_with("(500 characters)"), "{}", t.path);
        assert!(t.message.contains("(10000 characters)\" is not a rate; expected `"), "{}", t.message);
        assert!(t.message.contains("(70 characters)`") && t.message.len() < 300, "{}", t.message);
        let short = ScenarioError::new("links.a.rate", "\"10Mbs\" has an unknown unit \"Mbs\"");
        assert_eq!(short.clone().tidy(), short);
    }

    #[test]
    fn long_name_lists_keep_whole_names_closest_first() {
        // Issue #27: SCTP's 34 keys made the message longer than the cap, which cut the list
        // in the middle of a name.
        let keys: Vec<String> = (0..34).map(|i| format!("option_number_{i}")).collect();
        let list = keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        let e = ScenarioError::new(
            "flows.f.sctp.option_numbr_7",
            format!("unknown field `option_numbr_7`, expected one of {list}"),
        )
        .tidy();
        let m = &e.message;
        assert!(m.starts_with("unknown field `option_numbr_7`, expected one of `option_number_7`, "), "{m}");
        assert!(m.ends_with("more (the closest shown; `vhsim schema` lists all 34)"), "{m}");
        assert!(m.chars().count() <= MAX_MESSAGE, "{m}");
        let shown: Vec<&str> =
            m.split('`').skip(1).step_by(2).filter(|n| n.starts_with("option_number")).collect();
        assert!(
            shown.len() > 5 && shown.iter().all(|n| keys.iter().any(|k| k == n)),
            "whole names only: {m}"
        );
        let huge = ScenarioError::new(
            "a",
            format!("unknown field `{}`, expected one of {list}", "q".repeat(1 << 20)),
        );
        let m = huge.tidy().message;
        assert!(
            m.chars().count() <= MAX_MESSAGE && m.contains("(1048576 characters)`") && !m.contains(" … "),
            "{m}"
        );
        let short = ScenarioError::new("a", "unknown field `x`, expected one of `y`, `z`");
        assert_eq!(short.clone().tidy(), short, "a short list stays as it is");
        assert_eq!(edit_distance("rto_mn", "rto_min"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn messages_without_quotes_are_capped_too() {
        let t = ScenarioError::new("", "y ".repeat(100_000)).tidy();
        assert!(t.message.chars().count() < 700, "{}", t.message.len());
        let odd = ScenarioError::new("", format!("\"{}", "\\\"".repeat(50_000))).tidy();
        assert!(odd.message.chars().count() < 700);
    }
}
