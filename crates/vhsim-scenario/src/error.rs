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

/// Longest error message, after quoted values are cut (characters).
const MAX_MESSAGE: usize = 600;

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

/// Cut every long `"..."` or `` `...` `` span of `message`, then the message itself.
fn shorten_quoted(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(4 * MAX_MESSAGE));
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
    let n = out.chars().count();
    if n <= MAX_MESSAGE {
        return out;
    }
    let head: String = out.chars().take(MAX_MESSAGE / 2).collect();
    let tail: String = out.chars().skip(n - MAX_MESSAGE / 4).collect();
    format!("{head} … {tail}")
}

impl ScenarioError {
    /// The same error with long values cut (see [`shorten`]); applied to every error that
    /// leaves the crate.
    pub(crate) fn tidy(self) -> Self {
        ScenarioError { path: shorten(&self.path, 2 * MAX_QUOTED), message: shorten_quoted(&self.message) }
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
    fn messages_without_quotes_are_capped_too() {
        let t = ScenarioError::new("", "y ".repeat(100_000)).tidy();
        assert!(t.message.chars().count() < 700, "{}", t.message.len());
        let odd = ScenarioError::new("", format!("\"{}", "\\\"".repeat(50_000))).tidy();
        assert!(odd.message.chars().count() < 700);
    }
}
