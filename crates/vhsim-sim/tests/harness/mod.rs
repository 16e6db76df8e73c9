//! A two-endpoint harness (in the spirit of quinn's `tests/util.rs`): a pair of endpoints of
//! any transport driven through the real world over one link with scripted losses, and a small
//! mobile-node topology for address, binding, link-event and agent tests.

#![allow(dead_code)]

use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::trace::PacketEvent;
use vhsim_sim::{run, RunOutput};

/// Two nodes `a` -> `b` joined by link `ab` (10 Mb/s, 10 ms), one flow `f` from a to b.
pub struct Pair {
    flow: String,
    drops: Vec<u64>,
}

impl Pair {
    /// A bulk TCP flow (preset `sack`).
    pub fn tcp() -> Self {
        Pair { flow: "[flows.f]\nfrom = \"a\"\nto = \"b\"\n".into(), drops: Vec::new() }
    }

    /// A datagram flow of 1000-byte datagrams, 100 a second for 2 s.
    pub fn datagram() -> Self {
        let flow = "[flows.f]\nfrom = \"a\"\nto = \"b\"\nprotocol = \"datagram\"\nstop = \"2s\"\n\
                    app = { kind = \"cbr\", interval = \"10ms\", packet_size = \"1000B\" }\n";
        Pair { flow: flow.into(), drops: Vec::new() }
    }

    /// Lose the first copy of each of these data units on the way a -> b.
    pub fn drop_seqs(mut self, seqs: &[u64]) -> Self {
        self.drops = seqs.to_vec();
        self
    }

    /// Run for `duration` at packets detail.
    pub fn run(&self, duration: &str) -> RunOutput {
        let seqs: Vec<String> = self.drops.iter().map(u64::to_string).collect();
        let text = format!(
            "duration = \"{duration}\"\n[nodes.a]\n[nodes.b]\n[links.ab]\nbetween = [\"a\", \"b\"]\nrate = \"10Mbps\"\n\
             delay = \"10ms\"\n[links.ab.forward]\nerror = {{ kind = \"drop_list\", flow = \"f\", seqs = [{}] }}\n{}",
            seqs.join(", "),
            self.flow
        );
        run(&load(&text, &[]).expect("valid pair scenario"), Some(Detail::Packets))
    }
}

/// A datagram flow `name` from `cn` to the mobile node `mn`, 100 datagrams a second of
/// 1000 B for 4 s (400 in all), with `extra` keys.
pub fn datagram_flow(name: &str, extra: &str) -> String {
    format!(
        "[flows.{name}]\nfrom = \"cn\"\nto = \"mn\"\nprotocol = \"datagram\"\nstop = \"4s\"\n\
         app = {{ kind = \"cbr\", interval = \"10ms\", packet_size = \"1000B\" }}\n{extra}\n"
    )
}

/// cn -(100 Mb/s, 5 ms)- r, and r -> mn over two access links `acc_a` (10 Mb/s, 10 ms) and
/// `acc_b` (10 Mb/s, 20 ms), the mobile node's interfaces `a` (initial) and `b`; anchor r;
/// 4.5 s. `mobile_extra` goes into `[mobile]`, `sections` are appended as they are.
pub fn mobile_world(flows: &str, mobile_extra: &str, sections: &[(&str, &str)]) -> Scenario {
    let mut text = format!(
        "duration = \"4.5s\"\n[nodes.cn]\n[nodes.r]\n[nodes.mn]\n\
         [links.core]\nbetween = [\"cn\", \"r\"]\nrate = \"100Mbps\"\ndelay = \"5ms\"\n\
         [links.acc_a]\nbetween = [\"r\", \"mn\"]\nrate = \"10Mbps\"\ndelay = \"10ms\"\n\
         [links.acc_b]\nbetween = [\"r\", \"mn\"]\nrate = \"10Mbps\"\ndelay = \"20ms\"\n\
         [mobile]\nnode = \"mn\"\nanchor = \"r\"\ninitial = \"a\"\n{mobile_extra}\n\
         [mobile.interfaces.a]\naccess = \"acc_a\"\n[mobile.interfaces.b]\naccess = \"acc_b\"\n{flows}"
    );
    for (_, s) in sections {
        text.push_str(s);
    }
    load(&text, &[]).expect("valid mobile scenario")
}

/// (time ns, seq) of every packet-trace row of `event`.
pub fn events_of(out: &RunOutput, event: PacketEvent) -> Vec<(u64, u64)> {
    let p = out.traces.packets.as_ref().expect("packet trace");
    (0..p.len()).filter(|&i| p.event[i] == event as u8).map(|i| (p.time_ns[i], p.seq[i] as u64)).collect()
}
