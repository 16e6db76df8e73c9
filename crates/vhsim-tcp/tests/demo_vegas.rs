//! DEMO-Vegas (docs/references.md §7.1, A17): no data while the mobile node's ACKs carry SIG, cwnd
//! kept, BaseRTT re-learnt on the new path when SIG clears; SIG set at the warning
//! (`set_at = "imminent"`) or, as the original, at the care-of-address change (`"completed"`,
//! the preset's).
//!
//! The path of `vegas.rs`'s steady state (10 ms per segment, 50 ms each way: BaseRTT 110 ms).
//! The warning comes at 10 s, the old link is lost at 10.1 s, the new one is up at 10.6 s with
//! 100 ms each way (BaseRTT 210 ms).

mod common;

use common::*;
use std::cell::Cell;
use std::rc::Rc;
use vhsim_core::SimDuration;
use vhsim_tcp::sink::sig::{SigConfig, SigStart};
use vhsim_tcp::{SinkLinkEvent, SinkPolicyConfig, TxCause};

fn base_rtt(net: &Net) -> f64 {
    net.tcp.core().congestion_control().vegas().expect("vegas").base_rtt()
}

/// Runs `scheme` through the handover; returns the net, the halt and resume times in ms, and
/// cwnd before the handover and at the resume.
fn run(scheme: &str) -> (Net, Option<u64>, Option<u64>, f64, f64) {
    run_sig(scheme, None)
}

/// [`run`] with the receiver's SIG set at `set_at` (DEMO-Vegas's sink) if given.
fn run_sig(scheme: &str, set_at: Option<SigStart>) -> (Net, Option<u64>, Option<u64>, f64, f64) {
    let mut sink = sink_cfg(scheme);
    if let Some(set_at) = set_at {
        sink.policy = SinkPolicyConfig::Sig(SigConfig { set_at, notify_acks: 1 });
    }
    let mut net = Net::new(cfg(scheme).window(64), sink, u64::MAX, 50, 10_000);
    let down = Rc::new(Cell::new(false));
    let d = down.clone();
    net.drop_data = Box::new(move |_, _| d.get());
    let d = down.clone();
    net.drop_ack = Box::new(move |_| d.get());
    net.start();
    net.run_to(ms(10_000));
    let cwnd_before = net.tcp.cwnd();
    net.link_event(SinkLinkEvent::Imminent { eta: SimDuration::from_millis(100) });
    let (mut halted, mut resumed) = (None, None);
    let mut watch = |net: &mut Net, until: u64| {
        while net.next_time().is_some_and(|t| t <= ms(until)) {
            net.step();
            let now = net.now.0 / 1_000_000;
            let h = net.tcp.core().halted();
            if h && halted.is_none() {
                halted = Some(now);
            }
            if !h && halted.is_some() && resumed.is_none() {
                resumed = Some(now);
            }
        }
        net.run_to(ms(until));
    };
    watch(&mut net, 10_100);
    down.set(true);
    net.link_event(SinkLinkEvent::Down);
    watch(&mut net, 10_600);
    down.set(false);
    net.owd = SimDuration::from_millis(100);
    net.link_event(SinkLinkEvent::Up);
    net.link_event(SinkLinkEvent::Completed);
    watch(&mut net, 10_700);
    let cwnd_at_resume = net.tcp.cwnd();
    watch(&mut net, 30_000);
    (net, halted, resumed, cwnd_before, cwnd_at_resume)
}

#[test]
fn no_data_while_sig_is_set_and_base_rtt_is_relearnt_after_the_handover() {
    let (net, halted, resumed, cwnd_before, cwnd_at_resume) = run_sig("demo-vegas", Some(SigStart::Imminent));
    let (halted, resumed) = (halted.expect("never halted"), resumed.expect("never resumed"));
    assert_eq!(halted, 10_050, "the SIG ACK takes one way");
    assert_eq!(resumed, 10_700, "the ACK clearing SIG takes the new path's one way (100 ms)");
    // While halted: only persist-mode window probes.
    let during: Vec<_> = net.log.iter().filter(|(t, _)| *t > ms(halted) && *t < ms(resumed)).collect();
    assert!(during.len() <= 2, "{during:?}");
    assert!(during.iter().all(|(_, x)| matches!(x.cause, TxCause::Probe | TxCause::New)), "{during:?}");
    assert_eq!(net.tcp.stats().rto_count, 0);
    // cwnd kept through the halt (A17).
    assert_eq!(cwnd_at_resume, cwnd_before);
    // BaseRTT measured anew: the new path's 10 + 100 + 100 = 210 ms, not the old 110 ms.
    assert!((base_rtt(&net) - 0.210).abs() < 1e-9, "BaseRTT {}", base_rtt(&net));
    // And the window settles at the new BDP (21) + 1 + alpha..beta: 23..=25 (tests/vegas.rs).
    assert!((23.0..26.0).contains(&net.tcp.cwnd()), "cwnd {}", net.tcp.cwnd());
    // Engagement: one halt and one resume at the sender, one handover signalled by the MN.
    assert_eq!(engaged(&net.tcp, &["sig_halts", "sig_resumes", "persist_episodes"]), [1, 1, 1]);
    assert_eq!(sink_engaged(&net.sink, &["sig_set"]), [1]);
}

#[test]
fn the_original_sets_sig_at_the_care_of_address_change_after_the_break() {
    // The preset (`set_at = "completed"`): nothing before the break, so the sender keeps
    // sending into it (lost) and times out, like Vegas; at Completed (10.6 s) the MN sends an
    // ACK with SIG and one without: both reach the sender 100 ms later on the new path, it
    // halts and resumes in the same instant (the harness never sees it halted between two
    // instants) and measures BaseRTT anew (the new path's 210 ms).
    let (net, halted, resumed, _, _) = run("demo-vegas");
    assert_eq!((halted, resumed), (None, None));
    assert!(net.log.iter().any(|(t, x)| *t > ms(10_050) && *t < ms(10_600) && x.cause == TxCause::New));
    assert!(net.tcp.stats().rto_count >= 1);
    assert!((base_rtt(&net) - 0.210).abs() < 1e-9, "BaseRTT {}", base_rtt(&net));
    assert_eq!(engaged(&net.tcp, &["sig_halts", "sig_resumes"]), [1, 1]);
    assert_eq!(sink_engaged(&net.sink, &["sig_set"]), [1]);
}

#[test]
fn plain_vegas_keeps_the_old_base_rtt_and_sends_into_the_break() {
    let (net, halted, _, _, _) = run("vegas");
    assert_eq!(halted, None, "Vegas ignores SIG (its sink does not set it either)");
    assert!((base_rtt(&net) - 0.110).abs() < 1e-9, "BaseRTT {}", base_rtt(&net));
    // It kept sending after the warning (lost in the break) and timed out.
    assert!(net.log.iter().any(|(t, x)| *t > ms(10_050) && *t < ms(10_600) && x.cause == TxCause::New));
    assert!(net.tcp.stats().rto_count >= 1);
    // With the old BaseRTT the new path looks congested: diff = (W − 1) − W·110/RTT > 3
    // keeps W far below the new BDP of 21.
    assert!(net.tcp.cwnd() < 15.0, "cwnd {}", net.tcp.cwnd());
}
