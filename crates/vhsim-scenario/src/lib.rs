//! vhsim-scenario: scenario files as data.
//!
//! TOML in, a validated [`model::Scenario`] out. Values carry units; unknown keys are rejected;
//! every error names the key path and says what is allowed.

pub mod model;

pub use model::*;
