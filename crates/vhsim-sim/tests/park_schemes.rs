//! The Freeze family and DEMO-Vegas through the world (issue #14): the mobile node's link
//! events reach the sink's policy, its ZWA / TR-ACKs / SIG bit travel as real ACKs, and the
//! sender reacts. Daniel & Kojo's break-before-make handover (500 ms gap at 8.2 s, fast to
//! slow access link) with a handover warning of 200 ms (`mobile.warning`; more than one RTT of
//! the fast path, the paper's preferred value).

use std::path::Path;
use vhsim_scenario::{load, Scenario};
use vhsim_sim::run_world;
use vhsim_tcp::AnyHandoverPolicy;

fn scenario(scheme: &str) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/danielkojo/fig08-bbm.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    let sets = [("flows.bulk.scheme", scheme), ("mobile.warning", "200ms"), ("duration", "20s")];
    let o: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&text, &o).unwrap_or_else(|e| panic!("{scheme}: {e}"))
}

struct Outcome {
    rtos: u64,
    link_down_drops: u64,
    goodput_kbps: f64,
    sender: vhsim_tcp::TcpSender,
}

fn run(scheme: &str) -> Outcome {
    let (out, world) = run_world(&scenario(scheme), None);
    let f = &out.summary.flows["bulk"];
    Outcome {
        rtos: f.rto_count,
        link_down_drops: f.drops.get("link_down").copied().unwrap_or(0),
        goodput_kbps: f.goodput_kbps,
        sender: world.endpoint(0, 0).tcp_sender().expect("a TCP sender").clone(),
    }
}

#[test]
fn freeze_tcp_sends_nothing_into_the_break_and_never_times_out() {
    let reno = run("reno");
    assert!(reno.rtos >= 1 && reno.link_down_drops > 2, "baseline: {} RTOs, {} drops", reno.rtos, reno.link_down_drops);
    let freeze = run("freeze");
    assert_eq!(freeze.rtos, 0, "the freeze stops the retransmission timer");
    // At most the window probes of persist mode are lost with the old link.
    assert!(freeze.link_down_drops <= 2, "{} packets lost in the break", freeze.link_down_drops);
    assert!(!freeze.sender.core().persisting(), "the TR-ACKs resumed the sender");
    assert!(freeze.goodput_kbps > 0.0);
}

#[test]
fn freeze_tcpv2_decides_once_it_resumes() {
    let ftv2 = run("ftv2");
    assert_eq!(ftv2.rtos, 0);
    let f = ftv2.sender.core().congestion_control().ftv2().expect("ftv2");
    assert!(f.rtt_prev().is_some() && f.rtt_curr().is_some());
    assert!(!f.decisions().is_empty(), "no WAVE decision after the PACK");
    // RTT_curr is measured on the slow link (300 ms one way): far above RTT_prev.
    assert!(f.rtt_curr().unwrap() > f.rtt_prev().unwrap() + 0.3);
}

#[test]
fn demo_vegas_halts_on_sig_and_relearns_base_rtt_on_the_new_path() {
    let demo = run("demo-vegas");
    let AnyHandoverPolicy::DemoSig(d) = demo.sender.handover_policy() else { panic!("demo_sig") };
    assert_eq!(d.halts(), 1);
    assert!(!demo.sender.core().halted());
    assert_eq!(demo.rtos, 0);
    assert!(demo.link_down_drops <= 2, "{} packets lost in the break", demo.link_down_drops);
    // BaseRTT from the slow path (300 ms one way), not the fast one it started on.
    let base = demo.sender.core().congestion_control().vegas().unwrap().base_rtt();
    assert!(base > 0.6, "BaseRTT {base} s");
    let vegas = run("vegas");
    assert!(vegas.sender.core().congestion_control().vegas().unwrap().base_rtt() < 0.1);
}
