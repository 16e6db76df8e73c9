//! DEMO-Vegas's sender side (Ho, Chan & Chen 2005 via Park et al. 2009 §2.2; docs/references.md
//! §7.1, A17): "having received an acknowledgement with the reserved bit named 'SIG', the
//! sender is informed of the occurrence of the handoff and temporarily ceases transmission";
//! when the bit is reset it "updates its RTT_base value and resumes transmission".
//!
//! - An ACK with SIG halts the sender: persist mode as for a zero window (no new data, no
//!   retransmission, the retransmission timer stopped, window probes with backoff), cwnd and
//!   ssthresh kept.
//! - The first ACK without SIG after that resumes it and restarts the base RTT (A17: BaseRTT =
//!   +inf, then the minimum of the new samples), in the shared estimator and the window law.

use super::{HandoverNotice, HandoverPolicy};
use crate::config::TcpConfig;
use crate::sender::SenderCore;
use vhsim_core::SimTime;
use vhsim_net::Engagement;

/// Halts seen so far.
#[derive(Clone, Debug, Default)]
pub struct DemoSig {
    halts: u32,
    resumes: u32,
}

crate::no_options_part!(DemoSig, TcpConfig);

impl DemoSig {
    /// Handovers the peer signalled so far.
    pub fn halts(&self) -> u32 {
        self.halts
    }
}

impl HandoverPolicy for DemoSig {
    /// DEMO-Vegas learns of handovers from the SIG bit only.
    fn on_notice(&mut self, _: &mut SenderCore, _: SimTime, _: &HandoverNotice) {}

    fn on_ack(&mut self, c: &mut SenderCore, now: SimTime) {
        if c.peer_sig() && !c.halted() {
            self.halts += 1;
            c.set_halted(true);
        } else if !c.peer_sig() && c.halted() {
            c.set_halted(false);
            c.restart_base_rtt(now);
            self.resumes += 1;
        }
    }

    /// `sig_halts` (ACKs with SIG that stopped the sender), `sig_resumes` (the clearing ACKs
    /// that resumed it and restarted BaseRTT).
    fn engagement(&self, out: &mut Engagement) {
        out.insert("sig_halts", u64::from(self.halts));
        out.insert("sig_resumes", u64::from(self.resumes));
    }
}
