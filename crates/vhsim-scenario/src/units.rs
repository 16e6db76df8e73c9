//! Values with units (`"9ms"`, `"6400kbps"`, `"1460B"`, `"20pkt"`): defined in
//! [`vhsim_core::units`], shared with the TCP configuration of `vhsim-tcp`.

pub(crate) use vhsim_core::units::*;
