//! A link direction driven by a recorded delivery-opportunity trace instead of a constant rate.
//!
//! The trace format is Mahimahi's (Netravali et al., USENIX ATC 2015; docs/scenario-format.md
//! "Recorded link traces"): a text file with one whole number per line, a time in milliseconds
//! at which one packet of up to `opportunity_size` bytes (an MTU) can leave; times do not
//! decrease, several lines may name the same millisecond (several opportunities in it), and the
//! trace repeats when it ends, every P ms where P is its last time. The queue in front, the
//! error model, the ARQ and the reordering of the link stay as they are: only the time a frame's
//! transmission ends comes from the trace ([`TracePacer::finish`], the link's rate role).
//!
//! Two readings of an opportunity, a named option ([`TraceDelivery`]):
//!
//! * `burst` (Mahimahi's own, the default): at an opportunity's instant up to
//!   `opportunity_size` bytes leave at once; bytes of a frame may use several opportunities
//!   and several small frames (ACKs) one; credit left in an opportunity when nothing waits is
//!   lost (Mahimahi's `LinkQueue::use_a_delivery_opportunity`).
//! * `spread`: the opportunities of millisecond m are a rate for the millisecond that ends at
//!   m (count x opportunity_size bytes evenly over (m - 1 ms, m]); the link is then a rate that
//!   changes every millisecond, and a trace with the same count in every millisecond is exactly
//!   the constant-rate link of that rate, to the nanosecond.
//!
//! Time 0 of the trace is time 0 of the run; a line `0` is the instant where one repetition
//! ends and the next begins, counted at P (so the first repetition has no opportunity at 0).

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use vhsim_core::{Rate, SimTime};

const NS_PER_MS: u64 = 1_000_000;

/// One millisecond of the trace with opportunities: its time in the trace and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    ms: u64,
    count: u64,
}

/// A parsed delivery-opportunity trace: the milliseconds with opportunities, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeliveryTrace {
    /// Distinct times in (0, P], increasing; the last is P.
    slots: Vec<Slot>,
    opportunities: u64,
}

/// A line of a trace that is not one (1-based line number; `None` for the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// Line number of the offending line, if one line is at fault.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl DeliveryTrace {
    /// Parse Mahimahi's format: one whole number of milliseconds per line, not decreasing, at
    /// least one line, the last greater than 0 (Mahimahi's own checks). Blank lines and spaces
    /// around a number are allowed; anything else is an error naming the line.
    pub fn parse(text: &str) -> Result<Self, TraceError> {
        let mut times = Vec::new();
        let mut previous: Option<(u64, usize)> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let t = raw.trim();
            if t.is_empty() {
                continue;
            }
            let at = |message: String| TraceError { line: Some(line), message };
            if !t.bytes().all(|b| b.is_ascii_digit()) {
                let shown: String = t.chars().take(40).collect();
                return Err(at(format!("`{shown}` is not a time: expected a whole number of milliseconds")));
            }
            // A time past u64 nanoseconds (584 years) is no trace of a link.
            let ms = t.parse::<u64>().ok().filter(|&ms| ms <= u64::MAX / NS_PER_MS / 4);
            let ms = ms.ok_or_else(|| at(format!("{t} ms is too large for a trace")))?;
            if let Some((p, pl)) = previous.filter(|&(p, _)| ms < p) {
                return Err(at(format!("{ms} ms is before {p} ms on line {pl}: times must not decrease")));
            }
            previous = Some((ms, line));
            times.push(ms);
        }
        let Some(&period) = times.last() else {
            return Err(TraceError { line: None, message: "no times: the trace is empty".into() });
        };
        if period == 0 {
            let message = "every time is 0 ms: a trace must last at least 1 ms (it repeats after its last time)";
            return Err(TraceError { line: None, message: message.into() });
        }
        let mut slots: Vec<Slot> = Vec::new();
        let zeros = times.iter().take_while(|&&t| t == 0).count() as u64;
        for &ms in &times[zeros as usize..] {
            match slots.last_mut() {
                Some(s) if s.ms == ms => s.count += 1,
                _ => slots.push(Slot { ms, count: 1 }),
            }
        }
        slots.last_mut().expect("the last time is > 0").count += zeros;
        Ok(DeliveryTrace { slots, opportunities: times.len() as u64 })
    }

    /// The trace's length P in ms (its last time); it repeats every P ms.
    pub fn period_ms(&self) -> u64 {
        self.slots.last().map_or(0, |s| s.ms)
    }

    /// Opportunities in one repetition (lines).
    pub fn opportunities(&self) -> u64 {
        self.opportunities
    }

    /// The mean rate when each opportunity carries `size` bytes: opportunities x size x 8 bits
    /// per P ms, rounded to the nearest bit/s.
    pub fn mean_rate(&self, size: u32) -> Rate {
        let bits_per_ms = u128::from(self.opportunities) * u128::from(size) * 8 * 1000;
        let p = u128::from(self.period_ms().max(1));
        Rate::bps(((bits_per_ms + p / 2) / p) as u64)
    }

    /// Absolute slot `j` (counting through the repetitions): its instant in ns and count.
    fn slot(&self, j: u64) -> (u64, u64) {
        let n = self.slots.len() as u64;
        let s = self.slots[(j % n) as usize];
        ((j / n * self.period_ms() + s.ms) * NS_PER_MS, s.count)
    }

    /// The first absolute slot whose millisecond is `m` or later.
    fn first_slot_from(&self, m: u64) -> u64 {
        let p = self.period_ms();
        let rep = m.saturating_sub(1) / p;
        let within = m - rep * p;
        let i = self.slots.partition_point(|s| s.ms < within) as u64;
        rep * self.slots.len() as u64 + i
    }
}

/// How an opportunity's bytes leave the link (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceDelivery {
    /// At the opportunity's instant (Mahimahi).
    #[default]
    Burst,
    /// Evenly over the millisecond that ends at the opportunity.
    Spread,
}

/// A resolved trace for a link direction, as the scenario holds it.
///
/// The scenario's JSON names the trace by `source` and `digest` (its run identity) and gives
/// its size; the opportunities themselves are not in the JSON, so a scenario read back from
/// JSON has an empty trace and cannot drive a link (the world is only built from a resolved
/// scenario file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceConfig {
    /// Where it came from: `shipped:<name>` or `file:<path as written>`.
    pub source: String,
    /// xxh3-64 of the trace file's bytes, in hex.
    pub digest: String,
    /// Opportunities in one repetition.
    pub opportunities: u64,
    /// Length of one repetition, ms.
    pub period_ms: u64,
    /// Bytes one opportunity carries.
    pub opportunity_size: u32,
    /// How those bytes leave.
    pub delivery: TraceDelivery,
    /// The parsed trace.
    #[serde(skip)]
    pub trace: Arc<DeliveryTrace>,
}

/// The running trace of one link direction: which opportunity comes next and how much of it
/// is left. Transmissions on a link start in time order, so it only moves forward.
#[derive(Clone, Debug)]
pub struct TracePacer {
    trace: Arc<DeliveryTrace>,
    size: u64,
    delivery: TraceDelivery,
    /// Absolute slot the next byte can use.
    slot: u64,
    /// Bytes left in that slot (burst; `None` = all of them).
    left: Option<u64>,
}

impl TracePacer {
    /// A pacer at the start of `config`'s trace.
    pub fn new(config: &TraceConfig) -> Self {
        TracePacer {
            trace: Arc::clone(&config.trace),
            size: u64::from(config.opportunity_size),
            delivery: config.delivery,
            slot: 0,
            left: None,
        }
    }

    /// A frame of `bytes` starts its transmission at `start`: when it has left. Never before
    /// `start`; with `burst`, exactly `start` when the opportunity at `start` still has room.
    pub fn finish(&mut self, start: SimTime, bytes: u32) -> SimTime {
        if self.trace.slots.is_empty() {
            return SimTime::MAX; // a trace read back from JSON (see TraceConfig): nothing leaves
        }
        match self.delivery {
            TraceDelivery::Burst => self.finish_burst(start.as_nanos(), u64::from(bytes).max(1)),
            TraceDelivery::Spread => self.finish_spread(start.as_nanos(), u64::from(bytes)),
        }
    }

    /// Move to the first slot at or after millisecond `m` if the current one is earlier.
    fn seek(&mut self, m: u64) {
        let j = self.trace.first_slot_from(m);
        if j > self.slot {
            self.slot = j;
            self.left = None;
        }
    }

    /// Mahimahi's reading: the bytes leave at the instant of the opportunity that carries the
    /// last of them; an opportunity earlier than `start` is gone (with what was left in it).
    fn finish_burst(&mut self, start: u64, mut need: u64) -> SimTime {
        self.seek(start.div_ceil(NS_PER_MS));
        loop {
            let (at, count) = self.trace.slot(self.slot);
            let left = self.left.unwrap_or(count * self.size);
            if need < left {
                self.left = Some(left - need);
                return SimTime(at);
            }
            need -= left;
            self.slot += 1;
            self.left = None;
            if need == 0 {
                return SimTime(at);
            }
        }
    }

    /// The spread reading: millisecond (at - 1 ms, at] carries count x size bytes at an even
    /// rate. Work is counted in byte-nanoseconds so that every step is exact in integers: a
    /// frame needs bytes x 1e6, a slot gives count x size per ns.
    fn finish_spread(&mut self, start: u64, bytes: u64) -> SimTime {
        self.seek(start / NS_PER_MS + 1);
        let mut need = u128::from(bytes) * u128::from(NS_PER_MS);
        loop {
            let (at, count) = self.trace.slot(self.slot);
            let per_ns = u128::from(count * self.size);
            let from = start.max(at - NS_PER_MS);
            let room = u128::from(at - from) * per_ns;
            if need <= room {
                // A frame ending exactly at the slot's end leaves the next frame the next slot.
                if need == room {
                    self.slot += 1;
                }
                return SimTime(from + need.div_ceil(per_ns) as u64);
            }
            need -= room;
            self.slot += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pacer(text: &str, size: u32, delivery: TraceDelivery) -> TracePacer {
        let trace = DeliveryTrace::parse(text).unwrap();
        let config = TraceConfig {
            source: "test".into(),
            digest: String::new(),
            opportunities: trace.opportunities(),
            period_ms: trace.period_ms(),
            opportunity_size: size,
            delivery,
            trace: Arc::new(trace),
        };
        TracePacer::new(&config)
    }

    const MS: u64 = NS_PER_MS;

    #[test]
    fn parse_checks_mahimahis_rules_and_names_the_line() {
        let t = DeliveryTrace::parse("1\n1\n\n 3 \n5\n").unwrap();
        assert_eq!((t.period_ms(), t.opportunities()), (5, 4));
        let e = DeliveryTrace::parse("1\n2\nx7\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: `x7` is not a time: expected a whole number of milliseconds");
        let e = DeliveryTrace::parse("1\n2.5\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = DeliveryTrace::parse("-1\n").unwrap_err();
        assert_eq!(e.line, Some(1));
        let e = DeliveryTrace::parse("4\n9\n7\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: 7 ms is before 9 ms on line 2: times must not decrease");
        assert_eq!(DeliveryTrace::parse("\n  \n").unwrap_err().line, None);
        assert!(DeliveryTrace::parse("0\n0\n").unwrap_err().message.contains("at least 1 ms"));
        assert_eq!(DeliveryTrace::parse("99999999999999999999\n").unwrap_err().line, Some(1));
    }

    #[test]
    fn a_zero_time_counts_at_the_end_of_the_repetition() {
        let t = DeliveryTrace::parse("0\n2\n4\n").unwrap();
        assert_eq!(t.slots, vec![Slot { ms: 2, count: 1 }, Slot { ms: 4, count: 2 }]);
        assert_eq!(t.opportunities(), 3);
    }

    #[test]
    fn mean_rate_is_opportunities_times_size_per_period() {
        // 3 opportunities of 1500 B in 4 ms = 36000 b / 4 ms = 9 Mb/s.
        assert_eq!(DeliveryTrace::parse("1\n2\n4\n").unwrap().mean_rate(1500), Rate::mbps(9));
    }

    #[test]
    fn burst_frames_leave_at_opportunities_and_share_them() {
        // Opportunities at 2, 3, 5 ms, then 7, 8, 10 ms (the trace repeats every 5 ms).
        let mut p = pacer("2\n3\n5\n", 1500, TraceDelivery::Burst);
        assert_eq!(p.finish(SimTime(0), 1500), SimTime(2 * MS));
        // A frame starting at the opportunity's instant, after its credit is spent: the next.
        assert_eq!(p.finish(SimTime(2 * MS), 1000), SimTime(3 * MS));
        // 500 B are left at 3 ms: two 200 B ACKs leave at 3 ms, a third needs the one at 5 ms.
        assert_eq!(p.finish(SimTime(3 * MS), 200), SimTime(3 * MS));
        assert_eq!(p.finish(SimTime(3 * MS), 200), SimTime(3 * MS));
        assert_eq!(p.finish(SimTime(3 * MS), 200), SimTime(5 * MS));
        // A 3000 B frame uses two opportunities; an idle link wastes those in between.
        assert_eq!(p.finish(SimTime(6 * MS), 3000), SimTime(8 * MS));
        assert_eq!(p.finish(SimTime(8 * MS + 1), 10), SimTime(10 * MS));
        // Far ahead: repetition 1000 (ms 5000..5005).
        assert_eq!(p.finish(SimTime(5000 * MS + 1), 10), SimTime(5002 * MS));
    }

    #[test]
    fn spread_constant_trace_is_the_constant_rate_link() {
        // One 800 B opportunity per ms = 6.4 Mb/s: the same ends as Rate::serialization.
        let mut p = pacer("1\n", 800, TraceDelivery::Spread);
        let rate = Rate::kbps(6400);
        let mut t = 123_457;
        for bytes in [1500u32, 40, 1500, 1, 799, 800, 801, 1040] {
            let end = p.finish(SimTime(t), bytes);
            assert_eq!(end.as_nanos(), t + rate.serialization(u64::from(bytes)).as_nanos(), "{bytes} B at {t}");
            t = end.as_nanos() + [0, 7, 333_333][bytes as usize % 3];
        }
    }

    #[test]
    fn spread_frames_wait_through_empty_milliseconds() {
        // 1000 B at 4 ms and at 9 ms: a 1000 B frame starting at 3.5 ms sends half in
        // (3.5, 4] ms and the other half in (8, 8.5] ms.
        let mut p = pacer("4\n9\n", 1000, TraceDelivery::Spread);
        assert_eq!(p.finish(SimTime(3 * MS + MS / 2), 1000), SimTime(8 * MS + MS / 2));
        assert_eq!(p.finish(SimTime(8 * MS + MS / 2), 500), SimTime(9 * MS));
        // The 9 ms slot is spent: next is 4 ms of the second repetition, 9 + 4 = 13 ms.
        assert_eq!(p.finish(SimTime(9 * MS), 1000), SimTime(13 * MS));
    }
}
