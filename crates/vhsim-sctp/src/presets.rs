//! Named SCTP presets: a scenario picks one with `scheme = "<name>"` on a flow with
//! `protocol = "sctp"` and may override any field in `[flows.<f>.sctp]`.
//!
//! Each preset is a whole [`SctpConfig`] built from the defaults (RFC 4960, ns-2 where the RFC
//! is silent; docs/sctp.md) by the changes listed with it, so the list reads as data and can
//! join the TOML preset tables of the TCP schemes later.

use crate::config::SctpConfig;

/// One named preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name used in scenarios (`scheme = "sctp"`).
    pub name: &'static str,
    /// One line for `vhsim schemes`.
    pub description: &'static str,
    /// Where the behaviour is specified (RFC or paper and section).
    pub source: &'static str,
    build: fn() -> SctpConfig,
}

impl Preset {
    /// The preset's configuration.
    pub fn config(&self) -> SctpConfig {
        (self.build)()
    }
}

/// Every SCTP preset, in the order `vhsim schemes` lists them.
pub const PRESETS: &[Preset] = &[Preset {
    name: "sctp",
    description: "SCTP as RFC 4960 specifies it (defaults of docs/sctp.md)",
    source: "RFC 4960",
    build: SctpConfig::default,
}];

/// The preset called `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// Names of every preset, in list order.
pub fn preset_names() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|p| p.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named_once() {
        for (i, p) in PRESETS.iter().enumerate() {
            assert_eq!(p.config().validate(), Ok(()), "{}", p.name);
            assert!(PRESETS[..i].iter().all(|q| q.name != p.name), "{} twice", p.name);
        }
        assert_eq!(preset("sctp").map(|p| p.config()), Some(SctpConfig::default()));
    }
}
