//! A constant window: cwnd = ssthresh = `window` segments, whatever happens. Not a scheme of
//! any paper: the worked example of "a scheme is one file" (docs/schemes.md) and the proof of
//! it in the tests (`congestion_control = { kind = "constant", window = 8 }`).

use super::{AckSample, CongestionControl, CongestionEvent, Window};
use crate::config::{ConfigError, TcpConfig};
use crate::estimate::Estimators;
use crate::part::{Part, PartConfig};
use crate::rtt::RttEstimator;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_packets_u32, Packets};
use vhsim_core::SimTime;

/// Options of the constant window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ConstantConfig {
    /// The window in segments (default 10; >= 1).
    #[serde(with = "as_packets_u32")]
    #[schemars(with = "Packets")]
    pub window: u32,
}

impl Default for ConstantConfig {
    fn default() -> Self {
        ConstantConfig { window: 10 }
    }
}

impl PartConfig for ConstantConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.window == 0 {
            return Err(ConfigError::new("window", "must be at least 1pkt"));
        }
        Ok(())
    }
}

/// The constant window law.
#[derive(Clone, Debug)]
pub struct Constant {
    window: f64,
}

impl Part for Constant {
    type Config = ConstantConfig;
    type Settings = TcpConfig;
    fn new(cfg: &ConstantConfig, _: &TcpConfig) -> Self {
        Constant { window: cfg.window as f64 }
    }
}

impl Constant {
    fn hold(&self, w: &mut Window) {
        w.cwnd = self.window;
        w.ssthresh = self.window;
    }
}

impl CongestionControl for Constant {
    fn init(&mut self, w: &mut Window) {
        self.hold(w);
    }
    fn on_ack(&mut self, w: &mut Window, _: SimTime, _: &AckSample, _: &RttEstimator, _: &Estimators) {
        self.hold(w);
    }
    fn on_congestion(&mut self, w: &mut Window, _: SimTime, _: &CongestionEvent) {
        self.hold(w);
    }
    fn on_rto(&mut self, w: &mut Window, _: SimTime, _: &CongestionEvent) {
        self.hold(w);
    }
}
