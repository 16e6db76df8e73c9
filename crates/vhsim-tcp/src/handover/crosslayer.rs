//! Daniel & Kojo's cross-layer assisted TCP (IJCNDS 2008, §5; docs/references.md §11): algorithms
//! A1-A5, driven by the handover notification's old/new access-link bandwidth and delay.
//!
//! Quantities (S = data packet bytes on the wire, A = ACK bytes; access links only):
//! `RTT_old_newlink = D_old + 8S/BW_old + D_new + 8A/BW_new` (data on the old link, its ACK on
//! the new one), `RTT_newlink = 2 D_new + 8S/BW_new + 8A/BW_new`, `BDP_newlink =
//! BW_new · RTT_newlink / 8S` packets. `pre_HO_high` = one past the highest segment sent when
//! the notification arrives. "RTO recovery" = from a timeout until `recover` is acknowledged.
//!
//! - A1 (Fig. 11; delay up or bandwidth down, not in RTO recovery): Case 1, if
//!   `RTT_old_newlink` > current RTO: minrto = RTT_old_newlink + FlightSize/BW_old + 200 ms;
//!   Case 2, if in fast recovery: minrto = RTT_newlink + FlightSize/BW_old + 200 ms; the timer
//!   restarts at once. Case 3, until `pre_HO_high` is acknowledged: on entering fast recovery,
//!   minrto = RTT_newlink + FlightSize/BW_new + 200 ms. Case 1 uses RTT_old_newlink as the
//!   paper's prose and worked example (552 ms) do, not its pseudocode (docs/references.md A12).
//!   When `pre_HO_high` is acknowledged minrto is restored and, if the delay grew, the RTT
//!   variables restart as for a new connection; the next valid ACK gives the first sample.
//! - A2 (Fig. 13; any notification, not in RTO recovery): if FlightSize > 2·BDP_newlink, cwnd =
//!   ssthresh = max(2, BDP_newlink) and `cwnd_reduced` stops fast recovery of pre-handoff
//!   losses from cutting them again, until `pre_HO_high` is acknowledged.
//! - A3 (Fig. 15): the first timeout of a segment saves the ssthresh it set; a notification in
//!   RTO recovery retransmits the first unacknowledged segment at once and restores that
//!   ssthresh, and restarts the RTT variables if the delay changed significantly.
//! - A4 (Fig. 16; delay decrease, not in RTO recovery): when `pre_HO_high` is acknowledged, the
//!   RTT variables restart; the next valid ACK gives the first sample.
//! - A5 (Fig. 25, replaces A2): the threshold is 1.5·BDP_newlink when BW_old >= 8·BW_new,
//!   else 2·BDP_newlink (the prose's reading; docs/references.md §11).
//!
//! The RTO of restarted RTT variables is `reinit_rto` until the first sample (RFC 2988's 3 s;
//! A13); "significant" delay change = a factor of at least `significant_delay_factor` (A14).
//!
//! Each time A1, A2/A5 or A3 is evaluated the policy records a [`Decision`] (rule, the numbers
//! it read, the numbers it set; the rules are listed in docs/schemes.md), which the world puts
//! in the flow's summary: whoever studies a run reads these numbers instead of computing them.

use super::{HandoverNotice, HandoverPolicy};
use crate::config::{ConfigError, TcpConfig};
use crate::part::{Part, PartConfig};
use crate::sender::{SenderCore, TxCause};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vhsim_core::units::{as_duration, Duration};
use std::collections::VecDeque;
use vhsim_core::{Rate, SimDuration, SimTime, TracedVar};
use vhsim_net::{Decision, Engagement};

/// Which of Daniel & Kojo's algorithms run (docs/references.md §11), and their open parameters.
/// The defaults are the paper's "enhanced TCP": A1 + A2 + A3 + A4.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CrossLayerConfig {
    /// A1: avoid spurious RTOs (minrto from the new path).
    pub a1: bool,
    /// A2: cut cwnd and ssthresh to BDP_newlink when FlightSize > 2·BDP_newlink.
    pub a2: bool,
    /// A3: in RTO recovery, retransmit at once and restore ssthresh.
    pub a3: bool,
    /// A4: restart the RTT variables after a delay decrease.
    pub a4: bool,
    /// A5: A2 with the 1.5·BDP threshold when the bandwidth drops 8-fold (replaces A2: set
    /// a2 = false).
    pub a5: bool,
    /// RTO of restarted RTT variables before their first sample (RFC 2988: "3s"; A13; > 0).
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub reinit_rto: SimDuration,
    /// Rough delay of the rest of the path added to A1's minrto (the paper: "200ms").
    #[serde(with = "as_duration")]
    #[schemars(with = "Duration")]
    pub rest_of_path: SimDuration,
    /// A delay change by at least this factor is "significant" (A3; A14: 2; > 1).
    pub significant_delay_factor: f64,
}

impl Default for CrossLayerConfig {
    fn default() -> Self {
        CrossLayerConfig {
            a1: true,
            a2: true,
            a3: true,
            a4: true,
            a5: false,
            reinit_rto: SimDuration::from_secs(3),
            rest_of_path: SimDuration::from_millis(200),
            significant_delay_factor: 2.0,
        }
    }
}

impl PartConfig for CrossLayerConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.a2 && self.a5 {
            return Err(ConfigError::new("a5", "A5 replaces A2: enable one of them (set a2 = false)"));
        }
        if self.reinit_rto == SimDuration::ZERO {
            return Err(ConfigError::new("reinit_rto", "must be greater than 0s"));
        }
        let f = self.significant_delay_factor;
        if !(f.is_finite() && f > 1.0) {
            return Err(ConfigError::new(
                "significant_delay_factor",
                format!("{f} is not a finite number greater than 1"),
            ));
        }
        Ok(())
    }
}

/// State of the cross-layer algorithms.
#[derive(Clone, Debug)]
pub struct CrossLayer {
    cfg: CrossLayerConfig,
    /// One past the highest segment sent at the last notification, until acknowledged.
    pre_ho_high: Option<u64>,
    /// minrto before A1 changed it.
    saved_minrto: Option<SimDuration>,
    /// A1 Case 3 armed: (BW_new, RTT_newlink).
    case3: Option<(Rate, SimDuration)>,
    /// Restart the RTT variables when `pre_ho_high` is acknowledged (A1 with a delay increase, A4).
    reinit_at_pre_ho: bool,
    /// That restart is A4's (a delay decrease).
    a4_armed: bool,
    /// The next valid ACK gives the first sample of restarted RTT variables.
    sample_next: bool,
    /// A2/A5 reduced the window for this handover.
    cwnd_reduced: bool,
    /// A3: the ssthresh the first timeout of a segment set.
    saved_ssthresh: Option<f64>,
    /// Decisions not yet taken by the endpoint (oldest first).
    decisions: VecDeque<Decision>,
    /// How often each algorithm acted (for summaries and tests): A1 cases 1-3, A2/A5, A3, A4 and
    /// RTT restarts.
    pub counters: CrossLayerCounters,
}

/// How often each algorithm acted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrossLayerCounters {
    /// A1 Case 1 set minrto.
    pub a1_case1: u64,
    /// A1 Case 2 set minrto.
    pub a1_case2: u64,
    /// A1 Case 3 set minrto.
    pub a1_case3: u64,
    /// A2 or A5 reduced cwnd and ssthresh.
    pub window_reductions: u64,
    /// A3 retransmitted at once and restored ssthresh.
    pub a3_restores: u64,
    /// RTT variables restarted (A1, A3, A4).
    pub rtt_restarts: u64,
    /// A4 restarted the RTT variables when `pre_HO_high` was acknowledged after a delay
    /// decrease.
    pub a4_restarts: u64,
}

/// Transmission time of `bytes` at `bw`.
fn ser(bytes: u32, bw: Rate) -> SimDuration {
    bw.serialization(bytes as u64)
}

/// A decision's number in seconds.
fn secs(name: &'static str, d: SimDuration) -> TracedVar {
    TracedVar::new(name, "s", d.as_secs_f64())
}

/// A decision's number in packets.
fn pkts(name: &'static str, v: f64) -> TracedVar {
    TracedVar::new(name, "pkts", v)
}

/// A decision's link rate.
fn bps(name: &'static str, r: Rate) -> TracedVar {
    TracedVar::new(name, "bps", r.bits_per_sec() as f64)
}

impl Part for CrossLayer {
    type Config = CrossLayerConfig;
    type Settings = TcpConfig;
    fn new(cfg: &CrossLayerConfig, _: &TcpConfig) -> Self {
        CrossLayer::with(*cfg)
    }
}

impl CrossLayer {
    /// A policy with the algorithms `cfg` enables.
    pub fn with(cfg: CrossLayerConfig) -> Self {
        CrossLayer {
            cfg,
            pre_ho_high: None,
            saved_minrto: None,
            case3: None,
            reinit_at_pre_ho: false,
            a4_armed: false,
            sample_next: false,
            cwnd_reduced: false,
            saved_ssthresh: None,
            decisions: VecDeque::new(),
            counters: CrossLayerCounters::default(),
        }
    }

    /// FlightSize / BW as a duration (FlightSize in packets of `s` bytes).
    fn drain_time(flight: u64, s: u32, bw: Rate) -> SimDuration {
        bw.serialization(flight * s as u64)
    }

    /// A1 sets minrto (by `rule`, from `inputs`); the decision records it and the RTO it gives.
    fn set_minrto(
        &mut self,
        c: &mut SenderCore,
        now: SimTime,
        minrto: SimDuration,
        rule: &'static str,
        inputs: Vec<TracedVar>,
    ) {
        self.saved_minrto.get_or_insert(c.rtt().min_rto());
        c.rtt_mut().set_min_rto(minrto);
        // "Update RTO timer": restart it now so the new bound takes effect (A13).
        c.restart_timer(now);
        let outputs = vec![secs("minrto", minrto), secs("rto", c.rtt().rto())];
        self.decide(rule, inputs, outputs);
    }

    fn decide(&mut self, rule: &'static str, inputs: Vec<TracedVar>, outputs: Vec<TracedVar>) {
        self.decisions.push_back(Decision { rule, inputs, outputs });
    }
}

impl HandoverPolicy for CrossLayer {
    /// A handover notification arrives at `now`.
    fn on_notice(&mut self, c: &mut SenderCore, now: SimTime, n: &HandoverNotice) {
        let (s, a) = (c.config().packet_size(), c.config().ack_size);
        let (old, new) = (n.old, n.new);
        let rtt_old_new = old.delay + ser(s, old.bandwidth) + new.delay + ser(a, new.bandwidth);
        let rtt_new = new.delay + new.delay + ser(s, new.bandwidth) + ser(a, new.bandwidth);
        let bdp_new = new.bandwidth.bits_per_sec() as f64 * rtt_new.as_secs_f64() / (8.0 * s as f64);
        let flight = c.flight_size();
        let (d_old, d_new) = (old.delay.as_nanos(), new.delay.as_nanos());
        let significant = {
            let (lo, hi) = (d_old.min(d_new), d_old.max(d_new));
            hi > lo && (lo == 0 || hi as f64 / lo as f64 >= self.cfg.significant_delay_factor)
        };
        if c.in_rto_recovery() {
            // A3: only in RTO recovery.
            if self.cfg.a3 {
                // Restart the RTT variables first, so the timer of the immediate retransmission
                // runs with the new connection's RTO, not the old, backed-off one (which can be
                // shorter than the new path's round trip and expire spuriously).
                if significant {
                    c.rtt_mut().reinitialize_with(self.cfg.reinit_rto);
                    self.sample_next = true;
                    self.counters.rtt_restarts += 1;
                }
                // Its own cause: a timeout did not trigger it (the ground truth counts
                // spurious RTOs from the timeouts' retransmissions only).
                c.go_back_n_for(TxCause::Notified);
                c.restart_timer(now);
                let ssthresh_before = c.ssthresh();
                if let Some(ss) = self.saved_ssthresh {
                    let cwnd = c.cwnd();
                    c.set_window(cwnd, ss);
                }
                self.counters.a3_restores += 1;
                let inputs = vec![
                    pkts("ssthresh", ssthresh_before),
                    pkts("saved_ssthresh", self.saved_ssthresh.unwrap_or(f64::NAN)),
                    secs("old_delay", old.delay),
                    secs("new_delay", new.delay),
                ];
                let outputs = vec![
                    TracedVar::new("retransmitted", "seq", c.snd_una() as f64),
                    pkts("ssthresh", c.ssthresh()),
                    TracedVar::new("rtt_restarted", "bool", if significant { 1.0 } else { 0.0 }),
                    secs("rto", c.rtt().rto()),
                ];
                self.decide("a3", inputs, outputs);
            }
            return;
        }
        self.pre_ho_high = Some(c.snd_max());
        let delay_up = d_new > d_old;
        if self.cfg.a1 && (delay_up || new.bandwidth < old.bandwidth) {
            let drain_old = Self::drain_time(flight, s, old.bandwidth);
            let inputs = vec![
                pkts("flight", flight as f64),
                bps("old_bandwidth", old.bandwidth),
                secs("old_delay", old.delay),
                bps("new_bandwidth", new.bandwidth),
                secs("new_delay", new.delay),
                secs("rtt_old_newlink", rtt_old_new),
                secs("rtt_newlink", rtt_new),
                secs("drain", drain_old),
                secs("rest_of_path", self.cfg.rest_of_path),
                secs("rto", c.rtt().rto()),
                TracedVar::new("in_fast_recovery", "bool", if c.in_recovery() { 1.0 } else { 0.0 }),
            ];
            if rtt_old_new > c.rtt().rto() {
                let m = rtt_old_new + drain_old + self.cfg.rest_of_path;
                self.set_minrto(c, now, m, "a1_case1", inputs);
                self.counters.a1_case1 += 1;
            } else if c.in_recovery() {
                let m = rtt_new + drain_old + self.cfg.rest_of_path;
                self.set_minrto(c, now, m, "a1_case2", inputs);
                self.counters.a1_case2 += 1;
            } else {
                // Neither case applies now; Case 3 is armed until pre_HO_high is acknowledged.
                self.decide("a1_no_case", inputs, vec![]);
            }
            self.case3 = Some((new.bandwidth, rtt_new));
            self.reinit_at_pre_ho |= delay_up;
        }
        if self.cfg.a4 && d_new < d_old {
            self.reinit_at_pre_ho = true;
            self.a4_armed = true;
        }
        if self.cfg.a2 || self.cfg.a5 {
            let factor = if self.cfg.a5 && old.bandwidth.bits_per_sec() >= 8 * new.bandwidth.bits_per_sec() {
                1.5
            } else {
                2.0
            };
            let inputs = vec![
                pkts("flight", flight as f64),
                bps("new_bandwidth", new.bandwidth),
                secs("rtt_newlink", rtt_new),
                pkts("bdp_newlink", bdp_new),
                pkts("threshold", factor * bdp_new),
                pkts("cwnd", c.cwnd()),
                pkts("ssthresh", c.ssthresh()),
            ];
            let (cut, no_cut) = if self.cfg.a5 { ("a5_cut", "a5_no_cut") } else { ("a2_cut", "a2_no_cut") };
            if flight as f64 > factor * bdp_new {
                let w = bdp_new.floor().max(2.0);
                c.set_window(w, w);
                self.cwnd_reduced = true;
                self.counters.window_reductions += 1;
                self.decide(cut, inputs, vec![pkts("cwnd", c.cwnd()), pkts("ssthresh", c.ssthresh())]);
            } else {
                self.decide(no_cut, inputs, vec![]);
            }
        }
    }

    /// After an ACK was processed at `now`.
    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime) {
        if self.sample_next {
            if let Some((sent, _)) = c.ack_sample() {
                c.rtt_mut().sample_now(sent, now);
                self.sample_next = false;
            }
        }
        let Some(pre) = self.pre_ho_high else { return };
        if c.snd_una() < pre {
            return;
        }
        // All data sent before the handover is acknowledged.
        self.pre_ho_high = None;
        self.case3 = None;
        self.cwnd_reduced = false;
        if let Some(m) = self.saved_minrto.take() {
            c.rtt_mut().set_min_rto(m);
        }
        if std::mem::take(&mut self.reinit_at_pre_ho) {
            c.rtt_mut().reinitialize_with(self.cfg.reinit_rto);
            self.sample_next = true;
            self.counters.rtt_restarts += 1;
        }
        if std::mem::take(&mut self.a4_armed) {
            self.counters.a4_restarts += 1;
        }
    }

    /// Whether a fast retransmit now must keep cwnd and ssthresh (A2's `cwnd_reduced`).
    fn keeps_window(&self) -> bool {
        self.cwnd_reduced
    }

    /// Fast recovery was just entered at `now` (A1 Case 3).
    fn on_fast_recovery(&mut self, c: &mut SenderCore, now: SimTime) {
        if let Some((bw_new, rtt_new)) = self.case3 {
            let drain_new = Self::drain_time(c.flight_size(), c.config().packet_size(), bw_new);
            let inputs = vec![
                pkts("flight", c.flight_size() as f64),
                bps("new_bandwidth", bw_new),
                secs("rtt_newlink", rtt_new),
                secs("drain", drain_new),
                secs("rest_of_path", self.cfg.rest_of_path),
                secs("rto", c.rtt().rto()),
            ];
            self.set_minrto(c, now, rtt_new + drain_new + self.cfg.rest_of_path, "a1_case3", inputs);
            self.counters.a1_case3 += 1;
        }
    }

    /// A timeout was handled; `first` = the sender was not in RTO recovery before (A3 saves
    /// the ssthresh the first timeout of a segment set).
    fn on_rto(&mut self, c: &mut SenderCore, first: bool) {
        if first {
            self.saved_ssthresh = Some(c.ssthresh());
        }
    }

    fn next_decision(&mut self) -> Option<Decision> {
        self.decisions.pop_front()
    }

    /// One counter per enabled algorithm, `a1_activations` .. `a5_activations`: A1 set minrto
    /// (Case 1, 2 or 3), A2/A5 cut the window, A3 retransmitted at once and restored ssthresh,
    /// A4 restarted the RTT variables.
    fn engagement(&self, out: &mut Engagement) {
        let k = &self.counters;
        let enabled = [self.cfg.a1, self.cfg.a2, self.cfg.a3, self.cfg.a4, self.cfg.a5];
        let counts = [k.a1_case1 + k.a1_case2 + k.a1_case3, k.window_reductions, k.a3_restores, k.a4_restarts, k.window_reductions];
        let names = ["a1_activations", "a2_activations", "a3_activations", "a4_activations", "a5_activations"];
        for ((name, on), n) in names.into_iter().zip(enabled).zip(counts) {
            if on {
                out.insert(name, n);
            }
        }
    }
}
