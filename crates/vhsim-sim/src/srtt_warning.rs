//! `mobile.warning = "srtt"`: the mobile node times its handover warning by what it knows, its
//! endpoints' own current round-trip estimates (a TCP receiver measures one from the
//! timestamps its sender echoes, `vhsim_net::Endpoint::rtt_estimate`), not by the empty path's
//! round trip computed from the topology.
//!
//! The `Imminent` event of the mobile node's next handover comes at the first instant t at
//! which the time left, start − t, is at most the largest estimate of the MN's endpoints plus
//! the margin (before any estimate, the resolved `mobile.warning`: the empty-path round trip
//! plus the margin); its `eta` is the time left then. An estimate changes only when one of the
//! MN's endpoints takes an input, so the world checks after each such input and keeps a check
//! event at the instant the warning will be due if the estimate stays as it is (the first from
//! the resolved `mobile.warning`; a check that finds the estimate smaller schedules the next).
//! After an input, a due instant earlier than the scheduled check is scheduled only within one
//! lead of it, when few inputs are left before the handover (earlier, the inputs to come
//! re-check). With several mobile nodes each follows its own rule, estimate and handovers.

use crate::event::Event;
use crate::world::World;
use vhsim_core::{EventClass, SimDuration, SimTime};
use vhsim_net::{Endpoint, LinkEvent};
use vhsim_scenario::WarningRule;

impl World {
    /// The margin of mobile node `m`'s `srtt` warning rule, if it uses it.
    #[inline]
    pub(crate) fn srtt_warning_rule(&self, m: u32) -> Option<SimDuration> {
        match self.scenario.mobiles[m as usize].warning_rule {
            WarningRule::Srtt { margin } => Some(margin),
            WarningRule::Fixed => None,
        }
    }

    /// After an input to endpoint `side` of flow `f`: if it runs on a mobile node with the
    /// `srtt` rule, its estimate may have grown enough for its next warning to be due.
    #[inline(always)]
    pub(crate) fn after_mn_input(&mut self, f: u32, side: usize) {
        if !self.by_mobile.srtt {
            return;
        }
        let Some(m) = self.routing.mobile_at(self.flows[f as usize].nodes[side]) else { return };
        if self.srtt_warning_rule(m).is_none() {
            return;
        }
        if let Some((k, due, lead)) = self.give_due_srtt_warning(m) {
            let earlier = self.handovers[k].warning_check.is_none_or(|c| due < c);
            if earlier && due.saturating_since(self.now) <= lead {
                self.schedule_warning_check(k, due);
            }
        }
    }

    /// A check event of mobile node `m`: give the warning if it is due, else check again when
    /// it will be.
    pub(crate) fn check_srtt_warning(&mut self, m: u32) {
        if let Some((k, due, _)) = self.give_due_srtt_warning(m) {
            self.schedule_warning_check(k, due);
        }
    }

    fn schedule_warning_check(&mut self, k: usize, due: SimTime) {
        self.handovers[k].warning_check = Some(due);
        self.queue.push(due, EventClass::Timeline, Event::HandoverWarning(k as u32));
    }

    /// The largest current RTT estimate of mobile node `m`'s started endpoints.
    fn mn_rtt_estimate(&self, m: u32) -> Option<SimDuration> {
        let mn = self.scenario.mobiles[m as usize].node;
        let at_mn = self.by_mobile.flows[m as usize]
            .iter()
            .map(|&f| &self.flows[f as usize])
            .filter(|f| f.started)
            .flat_map(|f| (0..2).filter(move |&s| f.nodes[s] == mn).map(move |s| &f.endpoints[s]));
        at_mn.filter_map(|e| e.rtt_estimate()).max()
    }

    /// Give mobile node `m`'s next handover's warning now if it is due; otherwise return that
    /// handover, when it will be due with the current estimate, and the lead.
    fn give_due_srtt_warning(&mut self, m: u32) -> Option<(usize, SimTime, SimDuration)> {
        let margin = self.srtt_warning_rule(m)?;
        let before_any = self.scenario.mobiles[m as usize].warning;
        let k = self.by_mobile.handovers[m as usize]
            .iter()
            .map(|&k| k as usize)
            .find(|&k| self.handovers[k].warned_at.is_none())?;
        let lead = self.mn_rtt_estimate(m).map_or(before_any, |e| e + margin);
        let start = self.handovers[k].start;
        let due = SimTime(start.0.saturating_sub(lead.0));
        if due > self.now {
            return Some((k, due, lead));
        }
        self.handovers[k].warned_at = Some(self.now);
        let (old, new) = (self.handovers[k].from, self.handovers[k].to);
        self.link_event(m, LinkEvent::Imminent { eta: start.saturating_since(self.now), old, new });
        None
    }
}

#[cfg(test)]
mod tests {
    /// Two mobile nodes of a population on one shared cell, a Freeze-TCP download each (window
    /// 20: never queued); the core's delay grows from 5 to 45 ms at 0.5 s. u0 times its
    /// warning by its own estimate ("srtt"), u1 by a fixed 100 ms; u0 hands over at 1.5 s, u1
    /// at 2 s.
    #[test]
    fn each_mobile_node_follows_its_own_warning_rule() {
        let text = r#"
duration = "3s"
[nodes.cn]
[nodes.r]
[nodes.apw]
[nodes.wlan]
cell = true
[nodes.apu]
[nodes.umts]
cell = true
[links.core]
between = ["cn", "r"]
rate = "1Gbps"
delay = "5ms"
[links.rw]
between = ["r", "apw"]
rate = "1Gbps"
delay = "1ms"
[links.ru]
between = ["r", "apu"]
rate = "1Gbps"
delay = "1ms"
[links.wlan_air]
between = ["apw", "wlan"]
rate = "1Gbps"
delay = "2ms"
[links.umts_air]
between = ["apu", "umts"]
rate = "1Gbps"
delay = "20ms"
[[timeline]]
at = "0.5s"
action = "set_link"
link = "core"
delay = "45ms"
[[populations]]
name = "users"
count = 2
node = "u{i}"
[populations.mobile]
anchor = "r"
initial = "wlan"
warning = { cycle = ["srtt", "100ms"] }
interfaces.wlan = { cell = "wlan" }
interfaces.umts = { cell = "umts" }
[populations.flows.f]
from = "cn"
to = "{node}"
scheme = "freeze"
tcp = { window = "20pkt" }
[[populations.timeline]]
at = { cycle = ["1.5s", "2s"] }
action = "handover"
kind = "make_before_break"
to = "umts"
"#;
        let sc = vhsim_scenario::load(text, &[]).unwrap_or_else(|e| panic!("{e}"));
        let (_, world) = crate::run_world(&sc, None);
        let [h0, h1] = [0, 1].map(|m| world.handovers.iter().find(|h| h.mobile == m).expect("one handover each"));
        // u0: the round trip it measures after 0.5 s, ~96 ms (45 + 1 + 2 ms each way and the
        // serializations), not the topology's ~16 ms.
        let lead = h0.start.saturating_since(h0.warned_at.expect("u0's warning was timed by its estimate"));
        assert!((0.095..0.098).contains(&lead.as_secs_f64()), "u0 warned {lead:?} ahead");
        // u1: the fixed warning, scheduled 100 ms ahead (nothing recorded at run time).
        assert_eq!(h1.warned_at, None);
        assert_eq!(world.scenario.mobiles[1].warning, vhsim_core::SimDuration::from_millis(100));
    }
}
