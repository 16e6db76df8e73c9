//! The standard receiver policy (ns-2's `TCPSink`): advertise the configured window, ignore
//! link events.

use super::SinkPolicy;
use crate::config::SinkConfig;

/// The standard policy keeps no state.
#[derive(Clone, Debug, Default)]
pub struct Standard;

crate::no_options_part!(Standard, SinkConfig);

impl SinkPolicy for Standard {}
