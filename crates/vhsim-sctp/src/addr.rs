//! Addresses, as the transport-neutral core defines them (CORE-INTERFACE: `vhsim-net/src/addr.rs`).
//!
//! A stand-in identical to `vhsim_net::Addr`; at integration this module becomes
//! `pub use vhsim_net::Addr;`.

/// An address: index into the run's address table (each node has one address; the mobile
/// node has its home address plus one address per interface).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Addr(pub u32);
