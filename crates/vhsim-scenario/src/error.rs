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
