//! TCP Westwood+ (docs/references.md §7.3): after a loss ssthresh is the estimated bandwidth-delay
//! product, computed here by hand for a clean path.

mod common;

use common::*;
use vhsim_tcp::TxCause::FastRetransmit;

#[test]
fn after_three_dupacks_ssthresh_is_the_bandwidth_delay_product_of_the_path() {
    // Bottleneck 11 ms per 1000-byte segment (727 273 bit/s of payload), 52 ms each way:
    // RTTmin = 11 + 52 + 52 = 115 ms (the first segment, alone on the path). window_ 30 keeps
    // the bottleneck busy (30 > BDP), so every round delivers at the bottleneck rate and the
    // filtered estimate converges to it. BDP = 727 273 · 0.115 / 8000 = 10.45 -> ssthresh 10
    // (Reno would halve the window of 30 to 15).
    let mut net = Net::new(cfg("westwood").window(30), sink_cfg("westwood"), u64::MAX, 52, 11_000);
    net.drop_data = Box::new(|seq, before| seq == 1500 && before == 0);
    net.start();
    while net.tcp.stats().fast_retransmits == 0 {
        assert!(net.step() && net.now < ms(60_000), "no fast retransmit");
    }
    let est = net.tcp.core().estimators();
    let bwe = est.bandwidth.as_deref().expect("a Westwood+ sender keeps the delivery rate").estimate().unwrap();
    assert!((bwe / (8000.0 / 0.011) - 1.0).abs() < 0.01, "BWE {bwe} bit/s");
    assert_eq!(est.min_rtt.get(), Some(dur_ms(115)));
    assert_eq!(net.tcp.ssthresh(), 10.0);
    assert!(net.tcp.cwnd() <= 10.0, "cwnd {} > ssthresh", net.tcp.cwnd());
    assert_eq!(net.log.iter().filter(|(_, t)| t.cause == FastRetransmit).count(), 1);
    net.run_until(ms(80_000));
    assert_eq!(net.tcp.stats().rto_count, 0);
}

#[test]
fn without_an_estimate_a_loss_halves_as_reno() {
    // A loss in the first round, before any bandwidth sample: Reno's halving.
    let mut t = Script::new(cfg("westwood").iw(8).window(64));
    assert_eq!(t.send_all(0), new(0..8));
    t.ack(100, 1);
    t.dupacks(110, 1, 3);
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!(t.ssthresh(), 4.0, "⌊9/2⌋ of the window 9");
}
