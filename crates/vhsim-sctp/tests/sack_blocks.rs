//! SACK Gap Ack Blocks (RFC 4960 §3.3.4) for arbitrary loss patterns, checked against a set
//! model: the receiver encodes what it holds, the sender decodes it into per-chunk state.
//! Loss patterns, arrival orders and duplicates come from deterministic pseudo-random runs.

mod common;

use common::*;
use std::collections::BTreeSet;
use vhsim_core::SimTime;
use vhsim_net::{AppOffer, Endpoint};
use vhsim_sctp::inbound::Inbound;
use vhsim_sctp::wire::{DataChunk, SackChunk};
use vhsim_sctp::{InitialCwnd, SctpConfig, SctpEndpoint};

/// Highest k with 1..=k all in `got`.
fn model_cum(got: &BTreeSet<u32>) -> u32 {
    let mut k = 0;
    while got.contains(&(k + 1)) {
        k += 1;
    }
    k
}

/// Maximal runs of consecutive TSNs.
fn runs(set: &BTreeSet<u32>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &t in set {
        match out.last_mut() {
            Some(r) if r.1 + 1 == t => r.1 = t,
            _ => out.push((t, t)),
        }
    }
    out
}

#[test]
fn receiver_encodes_exactly_the_chunks_it_holds() {
    let mut rng = draws(7);
    for case in 0..300u64 {
        // Small MTUs make the block limit bite: (mtu - 32 - 16) / 4 blocks fit one SACK.
        let mtu = [1500, 1500, 120, 200][(case % 4) as usize];
        let cfg = SctpConfig { mtu, data_chunk_size: 64, receive_buffer: 1 << 24, ..cfg() };
        let n = 1 + rng.below(150) as u32;
        let loss = [0.0, 0.05, 0.3, 0.7][(case / 4 % 4) as usize];
        let mut order: Vec<u32> = (1..=n).filter(|_| !rng.bernoulli(loss)).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut inb = Inbound::default();
        let mut got = BTreeSet::new();
        let mut dups = Vec::new();
        for &tsn in &order {
            let again = rng.bernoulli(0.1);
            let pkt: Vec<DataChunk> = if again {
                vec![data_chunk(tsn, &cfg), data_chunk(tsn, &cfg)]
            } else {
                vec![data_chunk(tsn, &cfg)]
            };
            inb.on_data(SimTime::ZERO, &pkt, MN_A, CN, &cfg);
            if again {
                dups.push(tsn);
            }
            got.insert(tsn);
        }
        let cum = model_cum(&got);
        let above: BTreeSet<u32> = got.iter().copied().filter(|&t| t > cum).collect();
        let sack = inb.build_sack(&cfg);
        assert_eq!(sack.cum_tsn_ack, cum, "case {case}");
        let max_blocks = ((cfg.cc_mtu() - 16) / 4) as usize;
        let expect: Vec<(u32, u32)> = runs(&above).into_iter().take(max_blocks).collect();
        let decoded: Vec<(u32, u32)> = sack.acked_ranges().collect();
        assert_eq!(decoded, expect, "case {case}: blocks");
        for b in &sack.gap_blocks {
            assert!(b.start >= 2 && b.end >= b.start, "case {case}: {b:?}");
        }
        assert!(sack.chunk_len() <= cfg.cc_mtu(), "case {case}: the SACK fits one packet");
        let room_left = ((cfg.cc_mtu() - sack.chunk_len() + 4 * sack.dup_tsns.len() as u32) / 4) as usize;
        assert_eq!(
            sack.dup_tsns,
            dups.iter().copied().take(room_left).collect::<Vec<_>>(),
            "case {case}: dups"
        );
        assert_eq!(sack.a_rwnd, cfg.receive_buffer - 64 * above.len() as u32, "case {case}: a_rwnd");
        assert_eq!(inb.delivered_units, cum as u64, "case {case}: in-order delivery");
        assert!(inb.build_sack(&cfg).dup_tsns.is_empty(), "duplicates are reported once");
    }
}

/// A CN that has sent `n` chunks to MN_A in one burst.
fn sender_with(n: u32) -> SctpEndpoint {
    let cfg = SctpConfig {
        initial_cwnd: InitialCwnd::Bytes(n * MTU),
        max_burst: 0,
        receive_buffer: 1 << 24,
        ..cfg()
    };
    let (mut cn, _) = SctpEndpoint::pair(0, &cfg, &[CN], &[MN_A], CN, MN_A, rng("cn"), rng("mn")).unwrap();
    cn.on_app(SimTime::ZERO, AppOffer::More(n as u64));
    let mut sent = 0;
    while cn.poll_transmit(SimTime::ZERO).is_some() {
        sent += 1;
    }
    assert_eq!(sent, n);
    cn
}

#[track_caller]
fn check_sender(cn: &SctpEndpoint, cum: u32, acked: &BTreeSet<u32>, n: u32, case: u64) {
    let out = cn.outbound();
    assert_eq!(out.cum_ack, cum, "case {case}");
    let tsns: Vec<u32> = out.chunks.iter().map(|c| c.tsn).collect();
    assert_eq!(tsns, (cum + 1..=n).collect::<Vec<_>>(), "case {case}: buffer holds cum+1..");
    for c in &out.chunks {
        assert_eq!(c.gap_acked, acked.contains(&c.tsn), "case {case}: TSN {}", c.tsn);
    }
    let unacked = out.chunks.iter().filter(|c| !c.gap_acked && c.mark.is_none()).count() as u32;
    assert_eq!(cn.paths()[0].flight, unacked * MTU, "case {case}: flight");
}

#[test]
fn sender_decodes_blocks_and_trusts_only_the_latest_sack() {
    let mut rng = draws(11);
    for case in 0..300u64 {
        let n = 2 + rng.below(60) as u32;
        let mut cn = sender_with(n);
        let mut t = 1u64;
        // A few SACKs, each with an arbitrary pattern over what is still outstanding; the
        // cumulative ack never moves back, gap blocks may (stale SACK / revocation).
        let mut cum = 0u32;
        for _ in 0..4 {
            cum = (cum + rng.below(4) as u32).min(n - 1);
            let loss = [0.1, 0.5, 0.9][rng.below(3) as usize];
            let mut acked = BTreeSet::new();
            for tsn in cum + 2..=n {
                if !rng.bernoulli(loss) {
                    acked.insert(tsn);
                }
            }
            let sack = SackChunk::from_received(cum, 1 << 24, runs(&acked), usize::MAX);
            cn.on_packet(ms(t), &sack_packet(MN_A, CN, sack));
            t += 1;
            while cn.poll_transmit(ms(t)).is_some() {}
            check_sender(&cn, cum, &acked, n, case);
        }
    }
}
