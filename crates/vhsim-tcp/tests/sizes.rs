//! The sizes of a TCP flow's endpoints (issue #29: memory per idle flow; README "Many users").
//! Every flow of a run keeps one of each for the whole run, so a field added to them costs its
//! size times the number of flows: a scheme's optional state goes behind a `Box` (the `boxed`
//! parts of `axis!`, the delivery-rate estimate) and configurations are shared by `Arc`. Raise a
//! bound only knowingly, and say in README "Many users" what the new bytes buy.

use std::mem::size_of;
use vhsim_tcp::{TcpSenderEndpoint, TcpSinkEndpoint};

#[test]
fn a_tcp_flows_endpoints_stay_within_their_bytes() {
    for (name, size, bound) in [
        ("TcpSenderEndpoint", size_of::<TcpSenderEndpoint>(), 656),
        ("TcpSinkEndpoint", size_of::<TcpSinkEndpoint>(), 200),
    ] {
        assert!(size <= bound, "{name} grew to {size} bytes (bound {bound})");
    }
}
