//! Property-style runs: associations over two lossy, reordering paths, with every option that
//! changes the sender's or receiver's rules, must keep the sender's invariants after every
//! event (tests/common `check_sender_invariants`) and deliver every chunk exactly once, in
//! order, once the application stops and the paths drain.

mod common;

use common::*;
use vhsim_core::{Rate, SimDuration};
use vhsim_sctp::{InitialCwnd, MaxBurstScope, RtxToAlt, SctpConfig};

#[test]
fn lossy_reordering_paths_deliver_everything_exactly_once() {
    for seed in 0..48u64 {
        let mut pick = draws(seed);
        let cfg = SctpConfig {
            rtx_to_alt: [RtxToAlt::Same, RtxToAlt::Alternate, RtxToAlt::TimeoutsOnly][(seed % 3) as usize],
            delayed_sack: seed % 4 != 3,
            sack_on_gap_fill: seed % 5 == 1,
            max_burst: [0, 4, 2][(seed % 3) as usize],
            max_burst_scope: if seed % 2 == 0 {
                MaxBurstScope::EverySend
            } else {
                MaxBurstScope::AfterFastRetransmit
            },
            initial_cwnd: if seed % 6 < 3 { InitialCwnd::Rfc4960 } else { InitialCwnd::Rfc2960 },
            receive_buffer: [65536, 16 * 1024, 1 << 20][(seed % 3) as usize],
            hb_jitter: 0.5,
            ..cfg()
        };
        let mut links = vec![Link::new(MN_A, Rate::mbps(2), 20), Link::new(MN_B, Rate::kbps(384), 80)];
        if seed % 4 == 2 {
            links[0].down.limit = Some(8);
        }
        let mut net = Net::new(cfg, links);
        let data_loss = [0.0, 0.01, 0.05, 0.15][(seed % 4) as usize];
        let sack_loss = [0.0, 0.02, 0.1][(seed / 4 % 3) as usize];
        let mut drops = draws(seed + 1000);
        net.drop = Box::new(move |_, from, _, _| {
            drops.bernoulli(if from == Side::Cn { data_loss } else { sack_loss })
        });
        if pick.bernoulli(0.5) {
            net.jitter = Some((draws(seed + 2000), SimDuration::from_millis(1 + pick.below(30))));
        }
        net.run_until(ms(40_000));
        net.stop_app();
        net.run_until(ms(400_000));
        let sent = net.cn.outbound().next_tsn - 1;
        assert!(sent > 100, "seed {seed}: only {sent} chunks");
        assert!(net.cn.outbound().chunks.is_empty(), "seed {seed}: everything acknowledged");
        assert_eq!(net.mn.inbound().cum, sent, "seed {seed}");
        assert_eq!(net.delivered_units(), sent as u64, "seed {seed}: exactly once");
        assert_eq!(net.cn.failed_at(), None, "seed {seed}");
    }
}
