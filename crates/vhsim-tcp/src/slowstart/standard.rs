//! Plain slow start (RFC 5681 §3.1): it ends at ssthresh or at the first loss; the window law's
//! growth is left as it is.

use super::SlowStart;
use crate::config::TcpConfig;

/// Nothing to keep.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standard;

crate::no_options_part!(Standard, TcpConfig);

impl SlowStart for Standard {}
