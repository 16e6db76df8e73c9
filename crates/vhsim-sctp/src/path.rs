//! Per-destination state (RFC 4960 §6.3, §7.2, §8.2; docs/references.md §9.2): one [`PathState`]
//! per peer address, indexed by the address's position in the peer's address list.

use crate::config::SctpConfig;
use crate::heartbeat::HeartbeatState;
use crate::rto::RtoEstimator;
use crate::Addr;
use schemars::JsonSchema;
use serde::Serialize;
use vhsim_core::SimTime;

/// Counters of one destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PathStats {
    /// DATA packets sent to this destination (first transmissions and retransmissions).
    pub data_packets: u64,
    /// DATA chunks sent here for the first time.
    pub new_chunks: u64,
    /// Chunks retransmitted here because they were marked by fast retransmit.
    pub fast_retransmissions: u64,
    /// Chunks retransmitted here because a T3-rtx expiry marked them.
    pub timeout_retransmissions: u64,
    /// Fast retransmit episodes that cut this destination's window (§7.2.4 step 2).
    pub window_cuts: u64,
    /// T3-rtx expiries of this destination.
    pub t3_expiries: u64,
    /// HEARTBEATs sent to this destination.
    pub heartbeats_sent: u64,
    /// HEARTBEAT-ACKs received for it.
    pub heartbeat_acks: u64,
    /// HEARTBEATs unanswered within an RTO.
    pub heartbeat_timeouts: u64,
    /// Times the destination became inactive (error counter above Path.Max.Retrans).
    pub became_inactive: u64,
    /// Chunks retransmitted here by HR-mSCTP's handover retransmission.
    pub handover_retransmissions: u64,
    /// Idle decays of the cwnd (§7.2.1: max(cwnd/2, 4·MTU) per idle RTO) that lowered it
    /// (an engagement counter only: not in the summary).
    #[serde(skip)]
    pub idle_cwnd_decays: u64,
    /// Restarts from the initial cwnd after a long idle period (`idle_cwnd_reset`; an
    /// engagement counter only).
    #[serde(skip)]
    pub idle_cwnd_resets: u64,
}

/// State of one destination transport address.
#[derive(Clone, Debug)]
pub struct PathState {
    /// The destination address.
    pub addr: Addr,
    /// The local address DATA and HEARTBEATs to this destination leave from: the address the
    /// latest packet from it arrived at (initially the endpoint's first address).
    pub source: Addr,
    /// Congestion window, bytes.
    pub cwnd: u32,
    /// Slow-start threshold, bytes.
    pub ssthresh: u32,
    /// partial_bytes_acked (§7.2.2), bytes.
    pub partial_bytes_acked: u32,
    /// SRTT, RTTVAR and RTO.
    pub rto: RtoEstimator,
    /// Bytes of DATA chunks last sent here that are neither acknowledged nor marked for
    /// retransmission (the flight size; marked chunks leave it, RFC 4960 §6.2.1 C).
    pub flight: u32,
    /// T3-rtx deadline, when running.
    pub t3: Option<SimTime>,
    /// Error counter (§8.2).
    pub error_count: u32,
    /// Active (reachable) or inactive.
    pub active: bool,
    /// Confirmed by a HEARTBEAT-ACK (RFC 4960 §5.4; an address added by ASCONF starts
    /// unconfirmed, RFC 5061 §4.2.1): only confirmed destinations carry DATA.
    pub confirmed: bool,
    /// Deleted from the association by the peer's Delete-IP (kept for stable path indices;
    /// nothing new is sent to it; chunks already in flight there keep their T3-rtx).
    pub deleted: bool,
    /// The chunk being timed for an RTT measurement (TSN, first transmission time): at most
    /// one per destination per round trip (§6.3.1 C4).
    pub timed: Option<(u32, SimTime)>,
    /// When the idle cwnd decay applies next (§7.2.1), if armed.
    pub decay_at: Option<SimTime>,
    /// When DATA was last sent here.
    pub last_data_at: Option<SimTime>,
    /// Heartbeat bookkeeping (§8.3).
    pub hb: HeartbeatState,
    /// Counters.
    pub stats: PathStats,
}

impl PathState {
    /// A fresh destination: initial cwnd and ssthresh, RTO.Initial, active, nothing in flight.
    pub fn new(addr: Addr, source: Addr, cfg: &SctpConfig) -> Self {
        PathState {
            addr,
            source,
            cwnd: cfg.initial_cwnd_bytes(),
            ssthresh: cfg.initial_ssthresh_bytes(),
            partial_bytes_acked: 0,
            rto: RtoEstimator::new(cfg.rto_initial, cfg.rto_min, cfg.rto_max, cfg.rto_alpha, cfg.rto_beta),
            flight: 0,
            t3: None,
            error_count: 0,
            active: true,
            confirmed: true,
            deleted: false,
            timed: None,
            decay_at: None,
            last_data_at: None,
            hb: HeartbeatState::default(),
            stats: PathStats::default(),
        }
    }

    /// (Re)start T3-rtx with the current RTO (§6.3.2 R1/R3).
    pub fn restart_t3(&mut self, now: SimTime) {
        self.t3 = Some(now + self.rto.rto());
    }

    /// Start T3-rtx if it is not running (§6.3.2 R1/R4).
    pub fn ensure_t3(&mut self, now: SimTime) {
        if self.t3.is_none() {
            self.restart_t3(now);
        }
    }

    /// Count one error (§8.2). Returns true if the destination has just become inactive
    /// (its counter now exceeds Path.Max.Retrans).
    pub fn count_error(&mut self, path_max_retrans: u32) -> bool {
        self.error_count += 1;
        if self.active && self.error_count > path_max_retrans {
            self.active = false;
            self.stats.became_inactive += 1;
            return true;
        }
        false
    }

    /// Clear the error counter and mark the destination active (§8.2, §8.3).
    pub fn clear_errors(&mut self) {
        self.error_count = 0;
        self.active = true;
    }

    /// Whether DATA may be sent here: active, confirmed and part of the association.
    pub fn usable(&self) -> bool {
        self.active && self.confirmed && !self.deleted
    }
}
