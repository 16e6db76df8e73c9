//! Slow-start exits. HyStart++ (RFC 9406): the delay-increase exit at lastRoundMinRTT +
//! clamp(lastRoundMinRTT/8, 4 ms, 16 ms) after N_RTT_SAMPLE samples of a round, Conservative
//! Slow Start (growth / 4, at most CSS_ROUNDS rounds, back to slow start if the RTT falls
//! back), the L cap. Linux's HyStart (tcp_cubic.c): the delay exit at delay_min +
//! clamp(delay_min/8, 4 ms, 16 ms) and the ACK-train exit at (delay_min + 1 ms)/2.

mod common;

use common::*;
use std::collections::VecDeque;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::cc::{AckSample, Window};
use vhsim_tcp::part::Part;
use vhsim_tcp::slowstart::hystart::{Hystart, HystartConfig, HystartExit};
use vhsim_tcp::slowstart::hystart_pp::{HystartPp, HystartPpConfig, HystartPpPhase};
use vhsim_tcp::slowstart::{AnySlowStart, SlowStart};
use vhsim_tcp::{TcpConfig, Transmit};

/// `law` with the slow-start exit `ss`, exact RTT samples on every ACK, no window cap.
fn sender(law: &str, ss: &str) -> TcpConfig {
    cfg(law)
        .iw(4)
        .window(100_000)
        .set(&format!("slow_start = \"{ss}\"\nclock_granularity = \"0s\"\nrtt_timing = \"every_ack\""))
}

/// Acknowledge every segment in order, one ACK each, `rtt(seq)` ms after it was sent
/// (non-decreasing in seq, so the ACKs stay in order); `each(script, acked_seq)` after every
/// ACK returns whether to stop.
fn ack_clock(
    t: &mut Script,
    first: Vec<Transmit>,
    rtt: impl Fn(u64) -> u64,
    mut each: impl FnMut(&Script, u64) -> bool,
) {
    let mut out: VecDeque<(u64, u64)> = first.iter().map(|x| (x.seq, 0)).collect();
    for _ in 0..10_000 {
        let (seq, sent) = out.pop_front().expect("nothing outstanding");
        let at = sent + rtt(seq);
        for x in t.ack(at, seq + 1) {
            out.push_back((x.seq, at));
        }
        if each(t, seq) {
            return;
        }
    }
    panic!("never stopped");
}

fn hystart_pp(t: &Script) -> &HystartPp {
    match t.tcp.core().slow_start() {
        AnySlowStart::HystartPp(h) => h,
        other => panic!("not HyStart++: {other:?}"),
    }
}

fn hystart(t: &Script) -> &Hystart {
    match t.tcp.core().slow_start() {
        AnySlowStart::Hystart(h) => h,
        other => panic!("not HyStart: {other:?}"),
    }
}

#[test]
fn rtt_thresh_is_an_eighth_of_the_last_minimum_between_4_and_16_ms() {
    let h = HystartPp::new(&HystartPpConfig::default(), &TcpConfig::default());
    let ms = SimDuration::from_millis;
    assert_eq!(h.rtt_thresh(ms(100)), SimDuration::from_micros(12_500));
    assert_eq!(h.rtt_thresh(ms(20)), ms(4)); // 2.5 ms -> MIN_RTT_THRESH
    assert_eq!(h.rtt_thresh(ms(200)), ms(16)); // 25 ms -> MAX_RTT_THRESH
}

/// Runs a HyStart++ sender whose segments from `from` on take `late` ms instead of 100; returns
/// the segment whose ACK entered CSS and the cwnd then, or None within `acks` ACKs.
fn run_pp(from: u64, late: u64, acks: usize) -> Option<(u64, f64)> {
    let mut t = Script::new(sender("cubic", "hystart_pp"));
    let first = t.send_all(0);
    let mut exit = None;
    let mut n = 0;
    ack_clock(
        &mut t,
        first,
        |seq| if seq >= from { late } else { 100 },
        |t, seq| {
            n += 1;
            if matches!(hystart_pp(t).phase(), HystartPpPhase::Css { .. }) {
                exit = Some((seq, t.cwnd()));
                return true;
            }
            n >= acks
        },
    );
    exit
}

#[test]
fn hystart_pp_exits_when_a_rounds_minimum_reaches_the_last_plus_rtt_thresh() {
    // IW 4, RTT 100 ms: rounds of 4, 8, 16, 32 segments (segments 0-3, 4-11, 12-27, 28-59).
    // From segment 28 on (the fourth round) the path adds 12.5 ms exactly: RttThresh =
    // clamp(100/8) = 12.5 ms, so currentRoundMinRTT = 112.5 >= 100 + 12.5 and HyStart++ leaves
    // slow start at the round's N_RTT_SAMPLE = 8th sample: the ACK of segment 35.
    let (seq, cwnd) = run_pp(28, 112, 400).map_or((0, 0.0), |x| x);
    assert_eq!((seq, cwnd), (0, 0.0), "112 ms < 112.5 ms: no exit");
    let mut t = Script::new(sender("cubic", "hystart_pp").set("slow_start.min_rtt_divisor = 8"));
    let first = t.send_all(0);
    let mut entered = None;
    // 12.5 ms is not a whole millisecond: a path 13 ms slower crosses the threshold.
    ack_clock(
        &mut t,
        first,
        |seq| if seq >= 28 { 113 } else { 100 },
        |t, seq| {
            if entered.is_none() && matches!(hystart_pp(t).phase(), HystartPpPhase::Css { .. }) {
                entered = Some(seq);
            }
            seq >= 60
        },
    );
    assert_eq!(entered, Some(35), "the 8th sample of the round that started with segment 28");
    assert_eq!(hystart_pp(&t).exits(), 1);
    assert_eq!(engaged(&t.tcp, &["hystart_pp_css_entries", "hystart_pp_css_returns"]), [1, 0]);
}

#[test]
fn below_the_threshold_slow_start_goes_on() {
    assert_eq!(run_pp(28, 112, 200), None);
    assert_eq!(run_pp(28, 100, 200), None);
}

/// An ACK of `acked` new segments.
fn sample(acked: u64, rtt_ms: Option<u64>, round_start: bool) -> AckSample {
    AckSample { acked, rtt: rtt_ms.map(SimDuration::from_millis), round_start, ..AckSample::default() }
}

/// Feeds one ACK to a HyStart++ part as the sender would after a window law that grows by the
/// segments acknowledged; returns the window after it.
fn pp_ack(h: &mut HystartPp, w: &mut Window, a: &AckSample) {
    let before = *w;
    w.cwnd += a.acked as f64; // the law's slow start
    h.after_growth(before, w, SimTime::ZERO, a);
}

/// HyStart++'s engagement counters: CSS entries, returns to slow start, completions.
fn css_counters(h: &HystartPp) -> [u64; 3] {
    let mut e = vhsim_net::Engagement::new();
    h.engagement(&mut e);
    ["hystart_pp_css_entries", "hystart_pp_css_returns", "hystart_pp_css_completions"].map(|n| e[n])
}

/// HyStart++ from cwnd 10 through a round of 8 samples of 100 ms and one of 8 samples of
/// 120 ms: CSS at the 8th sample of the second round.
fn in_css() -> (HystartPp, Window) {
    let mut h = HystartPp::new(&HystartPpConfig::default(), &TcpConfig::default());
    let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
    for rtt in [100, 120] {
        for i in 0..8 {
            pp_ack(&mut h, &mut w, &sample(1, Some(rtt), i == 0));
        }
    }
    (h, w)
}

#[test]
fn css_grows_a_quarter_as_fast_and_ends_after_five_rounds() {
    let (mut h, mut w) = in_css();
    assert_eq!(h.phase(), HystartPpPhase::Css { round: 1 });
    assert_close(w.cwnd, 26.0);
    // In CSS an ACK of one segment adds 1/CSS_GROWTH_DIVISOR.
    pp_ack(&mut h, &mut w, &sample(1, Some(120), false));
    assert_close(w.cwnd, 26.25);
    // The partial round counts: rounds 2-5 of CSS, then the sixth boundary ends it.
    for round in 2..=5 {
        pp_ack(&mut h, &mut w, &sample(1, Some(120), true));
        assert_eq!(h.phase(), HystartPpPhase::Css { round }, "round {round}");
    }
    pp_ack(&mut h, &mut w, &sample(1, Some(120), true));
    assert_eq!(h.phase(), HystartPpPhase::Off);
    assert_close(w.ssthresh, w.cwnd);
    assert_eq!(css_counters(&h), [1, 0, 1]);
}

#[test]
fn css_returns_to_slow_start_when_the_rtt_falls_below_its_baseline() {
    let (mut h, mut w) = in_css();
    assert!(matches!(h.phase(), HystartPpPhase::Css { .. }));
    // Next round: 8 samples of 110 ms < the 120 ms baseline: the exit was spurious.
    for i in 0..8 {
        pp_ack(&mut h, &mut w, &sample(1, Some(110), i == 0));
    }
    assert_eq!(h.phase(), HystartPpPhase::SlowStart);
    assert_eq!(css_counters(&h), [1, 1, 0]);
}

#[test]
fn one_ack_adds_at_most_l_segments_and_a_loss_ends_hystart_pp() {
    let mut h = HystartPp::new(&HystartPpConfig::default(), &TcpConfig::default());
    let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
    pp_ack(&mut h, &mut w, &sample(20, Some(100), true));
    assert_close(w.cwnd, 18.0); // min(N = 20, L = 8)
    h.on_loss(false);
    assert_eq!(h.phase(), HystartPpPhase::Off);
    pp_ack(&mut h, &mut w, &sample(20, Some(100), true));
    assert_close(w.cwnd, 38.0); // standard slow start after the loss
}

#[test]
fn linux_hystart_exits_when_the_rounds_minimum_exceeds_delay_min_plus_eta() {
    // delay_min = 100 ms, eta = clamp(100/8, 4, 16) = 12.5 ms. Rounds of 4, 8, 16, 32 segments;
    // HyStart acts from cwnd 16 on (`low_window`). From segment 28 on the path takes 113 ms:
    // after HYSTART_MIN_SAMPLES = 8 samples of the round, the 9th (segment 36) finds
    // curr_rtt 113 > 112.5 and sets ssthresh = cwnd.
    let mut t = Script::new(sender("cubic", "hystart").set("slow_start.detect = \"delay\""));
    let first = t.send_all(0);
    let mut at = None;
    ack_clock(
        &mut t,
        first,
        |seq| if seq >= 28 { 113 } else { 100 },
        |t, seq| {
            if at.is_none() && hystart(t).found().is_some() {
                at = Some((seq, t.cwnd(), t.ssthresh()));
            }
            seq >= 60
        },
    );
    let (seq, cwnd, ssthresh) = at.expect("HyStart exits");
    assert_eq!(seq, 36);
    assert_eq!(hystart(&t).found(), Some(HystartExit::Delay));
    // The exit comes before this ACK's growth: ssthresh = the cwnd it found, 32 + 8; the ACK
    // itself is then counted in congestion avoidance.
    assert_close(ssthresh, 40.0);
    assert!(cwnd > 40.0 && cwnd < 40.1, "{cwnd}");
    // Only the delay exit runs (`detect = "delay"`), so only it is reported by kind.
    assert_eq!(engaged(&t.tcp, &["hystart_exits", "hystart_exits_delay"]), [1, 1]);
    let mut e = vhsim_net::Engagement::new();
    t.tcp.engagement(&mut e);
    assert!(!e.contains_key("hystart_exits_ack_train"), "{e:?}");
}

#[test]
fn linux_hystart_ack_train_exits_once_the_train_outlasts_half_the_min_rtt() {
    // A 100 ms path behind a 1 ms-per-segment bottleneck: an ACK comes 100 ms after its segment
    // was sent and at least 1 ms after the previous one, so each round's ACKs form one train.
    // delay_min = 100 ms, threshold (100 + 1)/2 = 50.5 ms. Rounds of 4, 8, 16, 32, 64 segments;
    // the round of 64 starts with the ACK of segment 60 and its 52nd ACK, 51 ms later
    // (segment 111), ends slow start at cwnd 64 + 51 = 115. (The delay exit cannot fire first:
    // each round's minimum is its first samples, ~100 ms.)
    let mut t = Script::new(sender("cubic", "hystart").set("slow_start.detect = \"both\""));
    let mut out: VecDeque<(u64, u64)> = t.send_all(0).iter().map(|x| (x.seq, 0)).collect();
    let (mut last_ack, mut round_start) = (0u64, 0u64);
    let mut found = None;
    while let Some((seq, sent)) = out.pop_front() {
        let at = (sent + 100).max(last_ack + 1);
        last_ack = at;
        let cwnd_before = t.cwnd();
        for x in t.ack(at, seq + 1) {
            out.push_back((x.seq, at));
        }
        if t.tcp.core().estimators().rounds.started() == ms(at) {
            round_start = at;
        }
        if hystart(&t).found().is_some() {
            found = Some((seq, at - round_start, cwnd_before));
            break;
        }
        assert!(seq < 1000, "no exit");
    }
    let (seq, train_ms, cwnd) = found.expect("HyStart exits");
    assert_eq!(hystart(&t).found(), Some(HystartExit::AckTrain));
    assert_eq!((seq, train_ms), (111, 51));
    assert_close(cwnd, 115.0);
    assert_close(t.ssthresh(), 115.0);
    let exits = ["hystart_exits", "hystart_exits_ack_train", "hystart_exits_delay"];
    assert_eq!(engaged(&t.tcp, &exits), [1, 1, 0]);
    let h = HystartConfig::default();
    assert_eq!(
        (h.low_window, h.ack_delta, h.ack_delay),
        (16, SimDuration::from_millis(2), SimDuration::from_millis(1))
    );
}

#[test]
fn a_timeout_rearms_linux_hystart() {
    let mut h = Hystart::new(&HystartConfig::default(), &TcpConfig::default());
    let mut w = Window { cwnd: 20.0, ssthresh: 1e9 };
    let a = |rtt, round_start| AckSample {
        acked: 1,
        rtt: Some(SimDuration::from_millis(rtt)),
        round_start,
        ..AckSample::default()
    };
    // A round with a 100 ms sample (delay_min), then a round of 120 ms samples 5 ms apart (no
    // ACK train): the 9th of them, after HYSTART_MIN_SAMPLES, exits.
    h.before_growth(&mut w, SimTime(0), &a(100, true));
    h.before_growth(&mut w, SimTime(100_000_000), &a(120, true));
    for i in 1..=8 {
        h.before_growth(&mut w, SimTime(100_000_000 + i * 5_000_000), &a(120, false));
    }
    assert_eq!(h.found(), Some(HystartExit::Delay));
    assert_close(w.ssthresh, 20.0);
    h.on_loss(false);
    assert!(h.found().is_some(), "a fast retransmit keeps it");
    h.on_loss(true);
    assert_eq!((h.found(), h.delay_min()), (None, None), "a timeout re-arms it (Linux CA_Loss)");
}
