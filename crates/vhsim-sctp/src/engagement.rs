//! Engagement counters of an SCTP endpoint (`vhsim_net::Engagement`): how often each configured
//! mechanism acted. Every association reports its core mechanisms; ASCONF and the mSCTP
//! schemes report theirs only when the configuration enables them, so that 0 means "enabled
//! but never acted" and an absent name "not part of this scheme". Both endpoints of a flow
//! report and the world adds them up (the requester counts its ASCONFs, the correspondent its
//! switches and retransmissions). docs/sctp.md lists them.

use crate::config::{MsctpScheme, MtRegion};
use crate::endpoint::SctpEndpoint;
use vhsim_net::Engagement;

/// Add `ep`'s counters to `out`.
pub fn report(ep: &SctpEndpoint, out: &mut Engagement) {
    let cfg = ep.config();
    let sum = |f: fn(&crate::path::PathStats) -> u64| ep.paths().iter().map(|p| f(&p.stats)).sum::<u64>();
    let o = &ep.outbound().stats;
    let mut put = |name: &'static str, n: u64| *out.entry(name).or_default() += n;
    put("fast_retransmits", sum(|s| s.fast_retransmissions));
    put("fast_retransmits_to_alternate", o.fast_retransmits_to_alternate);
    put("t3_timeouts", sum(|s| s.t3_expiries));
    put("stale_sacks_ignored", o.stale_sacks);
    put("gap_acks_withdrawn", o.gap_acks_withdrawn);
    if cfg.idle_cwnd_decay {
        put("idle_cwnd_decays", sum(|s| s.idle_cwnd_decays));
    }
    if cfg.idle_cwnd_reset.is_some() {
        put("idle_cwnd_resets", sum(|s| s.idle_cwnd_resets));
    }
    if cfg.split_fast_retransmit {
        put("split_misses_ignored", o.split_misses_ignored);
    }
    if !cfg.asconf {
        return;
    }
    let mob = ep.mobility();
    let a = &mob.sender.stats;
    put("asconf_sent", a.sent);
    put("asconf_acked", a.acked);
    put("asconf_retransmissions", a.retransmitted);
    put("primary_switches", mob.primary_switches);
    put("deleted_chunks_moved", mob.stats.deleted_chunks_moved);
    match cfg.msctp {
        MsctpScheme::Normal => {}
        MsctpScheme::MultiPath => {
            if cfg.mt_region == MtRegion::AddIp {
                put("mt_concurrent_packets", mob.stats.mt_concurrent_packets);
            }
        }
        MsctpScheme::HandoverRetransmission => {
            put("hr_switches", mob.stats.hr_switches);
            put("hr_retransmitted_chunks", sum(|s| s.handover_retransmissions));
            if cfg.hr_cwnd_reset {
                put("hr_cwnd_resets", mob.stats.hr_cwnd_resets);
            }
        }
    }
}
