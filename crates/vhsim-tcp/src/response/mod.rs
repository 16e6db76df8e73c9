//! Reactions to a retransmission timeout ([`rto`], the `RtoResponse` axis) and to duplicate
//! ACKs ([`dupack`], the `DupAckResponse` axis). The sender calls them in the order documented
//! at the top of [`crate::sender`].

pub mod dupack;
pub mod rto;

pub use dupack::dcr::{Dcr, DcrConfig, DcrTau, DupAckCount, DUPACK_COUNT_NAMES};
pub use dupack::{AnyDupAckResponse, DupAckAction, DupAckResponse, DupAckResponseConfig};
pub use rto::frto::{Frto, FrtoConfig, FrtoStep, FrtoVariant, SpuriousResponse};
pub use rto::{AckOutcome, AnyRtoResponse, RtoResponse, RtoResponseConfig};
