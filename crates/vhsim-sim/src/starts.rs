//! Start times of the flows.
//!
//! A flow with `start_spread` starts at start + floor(U * spread), U uniform in [0, 1): draw
//! `draw` of the random stream `flow/<name in the file>/start` (vhsim-core `RngStreams`). The
//! stream is named after the flow's own file entry and seeded by the run's seed, so the same
//! seed gives the same starts and adding another flow never changes them (Lim & Jang §5.1's
//! cross traffic: N flows whose starts are spread so they do not start in lockstep).

use vhsim_core::{RngStreams, SimDuration, SimTime};
use vhsim_scenario::Scenario;

/// The start time of every flow of `scenario` in a run with its `seed`.
pub fn start_times(scenario: &Scenario) -> Vec<SimTime> {
    let streams = RngStreams::new(scenario.seed);
    scenario
        .flows
        .iter()
        .map(|f| match &f.start_spread {
            None => f.start,
            Some(s) => {
                let mut stream = streams.stream(&s.stream);
                let mut u = stream.uniform();
                for _ in 0..s.draw {
                    u = stream.uniform();
                }
                let offset = (u * s.spread.as_nanos() as f64) as u64;
                f.start + SimDuration::from_nanos(offset.min(s.spread.as_nanos().saturating_sub(1)))
            }
        })
        .collect()
}
