//! vhsim-scenario: scenario files as data.
//!
//! TOML in, a validated [`model::Scenario`] out. Values carry units; unknown keys are rejected;
//! every error names the key path and says what is allowed. The file format is described in
//! `docs/scenario-format.md`, and [`json_schema`] generates its JSON Schema from the same serde
//! types that read it.
//!
//! ```
//! let text = r#"
//! duration = "10s"
//! [nodes.a]
//! [nodes.b]
//! [links.ab]
//! between = ["a", "b"]
//! rate = "1Mbps"
//! delay = "10ms"
//! [flows.f]
//! from = "a"
//! to = "b"
//! "#;
//! let s = vhsim_scenario::load(text, &[("seed".into(), "7".into())]).unwrap();
//! assert_eq!((s.seed, s.links.len(), &*s.flows[0].scheme), (7, 2, "sack"));
//! ```

mod error;
pub mod model;
mod overrides;
mod population;
mod resolve;
mod schema;
mod units;

pub use error::{shorten, ScenarioError};
pub use model::*;
pub use vhsim_core::units::parse_duration;

use schema::ScenarioFile;

/// Parse a scenario file, apply `--set KEY=VALUE` overrides, validate it and resolve it.
///
/// Steps: parse the TOML text; apply each `(key, value)` override to the parsed document
/// (see `docs/scenario-format.md`); deserialize with unknown keys denied, tracking the key path
/// of any error; check every cross-reference and range, and resolve names to ids, presets to
/// configurations and units to simulation units.
///
/// Values an error message quotes are cut to a readable length (`error::MAX_QUOTED` characters).
pub fn load(toml_text: &str, overrides: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    load_seeded(toml_text, overrides, None)
}

/// [`load`] with the run's seed in place of the file's (`None`: the file's). The seed is set
/// before populations are expanded, so their random values are the run's.
pub fn load_seeded(toml_text: &str, overrides: &[(String, String)], seed: Option<u64>) -> Result<Scenario, ScenarioError> {
    load_untidy(toml_text, overrides, seed).map_err(ScenarioError::tidy)
}

fn load_untidy(toml_text: &str, overrides: &[(String, String)], seed: Option<u64>) -> Result<Scenario, ScenarioError> {
    let mut doc: toml::Table =
        toml::from_str(toml_text).map_err(|e| ScenarioError::new("", e.to_string().trim_end()))?;
    overrides::apply(&mut doc, overrides)?;
    // The file's own keys are read first, then its populations straight into its collections.
    let populations = doc.remove("populations");
    let mut file: ScenarioFile = serde_path_to_error::deserialize(toml::Value::Table(doc)).map_err(deserialize_error)?;
    let rewrites = population::expand(populations, &mut file, seed)?;
    let mut scenario = resolve::resolve(file).map_err(|e| rewrites.apply(e))?;
    if let Some(s) = seed {
        scenario.seed = s;
    }
    Ok(scenario)
}

/// Resolve capture point names (as in `output.pcap`: `"<link>/<direction>"`, `"<link>"`,
/// `"all"`) against the link directions of `scenario`, with errors naming `key` (the command
/// line's `--pcap`). Returns the link directions in id order, each once.
pub fn capture_points(scenario: &Scenario, entries: &[String], key: &str) -> Result<Vec<CapturePoint>, ScenarioError> {
    resolve::output::capture_points(&scenario.links, entries, |_| key.to_owned())
}

/// The JSON Schema (draft 2020-12) of the scenario file format, pretty-printed.
pub fn json_schema() -> String {
    serde_json::to_string_pretty(&schema::generate()).expect("a JSON Schema serializes")
}

/// The canonical JSON of a resolved scenario (compact serde_json; fields in declaration order).
pub fn to_canonical_json(s: &Scenario) -> String {
    serde_json::to_string(s).expect("the resolved model serializes")
}

/// Turn a deserialization error into a [`ScenarioError`] with a `a.b[2].c` path.
pub(crate) fn deserialize_error(e: serde_path_to_error::Error<toml::de::Error>) -> ScenarioError {
    use serde_path_to_error::Segment;
    let mut path = String::new();
    for seg in e.path() {
        match seg {
            Segment::Seq { index } => path.push_str(&format!("[{index}]")),
            Segment::Map { key } => path = error::join(&path, key),
            Segment::Enum { variant } => path = error::join(&path, variant),
            Segment::Unknown => path = error::join(&path, "?"),
        }
    }
    let message = e.inner().message().trim_end().to_owned();
    ScenarioError::new(path, message)
}
