//! Named SCTP presets: a scenario picks one with `scheme = "<name>"` on a flow with
//! `protocol = "sctp"` and may override any field in `[flows.<f>.sctp]`.
//!
//! Each preset is a whole [`SctpConfig`] built from a set of defaults (the RFCs', ns-2 where
//! they are silent, or ns-2.35's: [`SctpConfig::ns2_35`]; docs/sctp.md) by the changes listed
//! with it, so the list reads as data and can join the TOML preset tables of the TCP schemes
//! later.

use crate::config::{MsctpScheme, SctpConfig};

/// One named preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name used in scenarios (`scheme = "sctp"`).
    pub name: &'static str,
    /// One line for `vhsim schemes`.
    pub description: &'static str,
    /// Where the behaviour is specified (RFC or paper and section).
    pub source: &'static str,
    build: fn(SctpConfig) -> SctpConfig,
}

impl Preset {
    /// The preset's configuration over the RFC defaults ([`SctpConfig::default`]).
    pub fn config(&self) -> SctpConfig {
        (self.build)(SctpConfig::default())
    }

    /// The preset's configuration over the set of defaults `base` (e.g. [`SctpConfig::ns2_35`]).
    pub fn config_over(&self, base: SctpConfig) -> SctpConfig {
        (self.build)(base)
    }
}

/// Every SCTP preset, in the order `vhsim schemes` lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "sctp",
        description: "SCTP as RFC 9260 (which obsoletes RFC 4960) specifies it (defaults of docs/sctp.md); \
                      ASCONF chunks ignored",
        source: "RFC 9260; RFC 4960",
        build: std::convert::identity,
    },
    Preset {
        name: "msctp",
        description: "normal mSCTP (Koh et al. 2004; Kim & Koh 2009 §2.1): RFC 4960 + RFC 5061 ASCONF \
                      Add-IP / Set-Primary / Delete-IP; new data follows the new primary",
        source: "RFC 5061; Koh et al., IEEE Comm. Letters 8(3), 2004; Kim & Koh 2009 §2.1",
        build: msctp,
    },
    Preset {
        name: "mt-msctp",
        description: "MT-mSCTP (Huang & Tsai 2007, via Kim & Koh 2009 §1, §4.1): mSCTP with CMT's split fast \
                      retransmit, so that reordering between the paths is no loss; mt_region = \"add_ip\" also \
                      sends new data on the old path from Add-IP to Delete-IP",
        source: "Huang & Tsai, Computer Communications 30(17), 2007; Kim & Koh 2009 §1, §4.1-4.2; docs/sctp.md",
        build: mt_msctp,
    },
    Preset {
        name: "hr-msctp",
        description: "HR-mSCTP (Kim & Koh 2009 §3, Steps 1-4): mSCTP retransmitting every outstanding chunk \
                      to the new primary at the switch, within its cwnd, before new data",
        source: "Kim & Koh, Int. J. Commun. Syst. 2009, §3",
        build: hr_msctp,
    },
];

fn msctp(base: SctpConfig) -> SctpConfig {
    SctpConfig { asconf: true, ..base }
}

fn mt_msctp(base: SctpConfig) -> SctpConfig {
    SctpConfig { msctp: MsctpScheme::MultiPath, split_fast_retransmit: true, ..msctp(base) }
}

fn hr_msctp(base: SctpConfig) -> SctpConfig {
    SctpConfig { msctp: MsctpScheme::HandoverRetransmission, ..msctp(base) }
}

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
