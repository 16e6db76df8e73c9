//! No loss classifier: every loss is congestion, and nothing is recorded.

use super::{LossClassification, LossClassifier};
use crate::config::TcpConfig;
use vhsim_core::{SimDuration, SimTime};

/// The classifier that classifies nothing.
#[derive(Clone, Debug, Default)]
pub struct NoClassifier;

crate::no_options_part!(NoClassifier, TcpConfig);

impl LossClassifier for NoClassifier {
    fn on_sample(&mut self, _: SimTime, _: SimDuration) {}
    fn on_ack(&mut self, _: u64, _: u64) {}
    fn on_rto(&mut self, _: SimTime) {}
    fn on_spurious_rto(&mut self, _: u64) {}
    fn classify(&mut self, _: SimTime, _: u64) -> Option<LossClassification> {
        None
    }
    fn tavg(&self) -> Option<SimDuration> {
        None
    }
}
