//! The sizes of what the world keeps per flow and per mobile node (issue #29: memory per idle
//! flow; README "Many users"; the TCP endpoints' bounds are vhsim-tcp's `tests/sizes.rs`). A
//! population has one mobile node and one flow per user, so every field costs its size times
//! the number of users: what only some runs need goes behind a `Box` made when first needed.
//! Raise a bound only knowingly, and say in README "Many users" what the new bytes buy.

use std::mem::size_of;
use vhsim_scenario::{AddressModel, FlowModel};
use vhsim_sim::cells::AttachState;
use vhsim_sim::flow::Flow;
use vhsim_sim::observe::FlowObs;
use vhsim_sim::routing::MobileRouting;

#[test]
fn what_the_world_keeps_per_flow_and_per_user_stays_within_its_bytes() {
    for (name, size, bound) in [
        ("FlowObs", size_of::<FlowObs>(), 120),
        // The endpoints (boxed), their wake-ups (`Option`s: a sentinel word cost speed), the start, the app.
        ("Flow", size_of::<Flow>(), 112),
        ("MobileRouting", size_of::<MobileRouting>(), 80),
        // A user's attachment to its cell; the packets held during a pause are boxed.
        ("AttachState", size_of::<AttachState>(), 32),
        // A flow's model, kept in the scenario for the run; a CBR application's model is shared.
        ("FlowModel", size_of::<FlowModel>(), 120),
        // An address is four bytes, not a string (its dotted quad is made for the JSON).
        ("AddressModel", size_of::<AddressModel>(), 16),
    ] {
        assert!(size <= bound, "{name} grew to {size} bytes (bound {bound})");
    }
}
