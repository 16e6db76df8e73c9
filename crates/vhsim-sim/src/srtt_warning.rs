//! `mobile.warning = "srtt"`: the mobile node times its handover warning by what it knows, its
//! endpoints' own current round-trip estimates (a TCP receiver measures one from the
//! timestamps its sender echoes, `vhsim_net::Endpoint::rtt_estimate`), not by the empty path's
//! round trip computed from the topology.
//!
//! The `Imminent` event of the next handover comes at the first instant t at which the time
//! left, start − t, is at most the largest estimate of the MN's endpoints plus the margin
//! (before any estimate, the resolved `mobile.warning`: the empty-path round trip plus the
//! margin); its `eta` is the time left then. An estimate changes only when one of the MN's
//! endpoints takes an input, so the world checks after each such input and keeps a check event
//! at the instant the warning will be due if the estimate stays as it is (the first from the
//! resolved `mobile.warning`; a check that finds the estimate smaller schedules the next). After
//! an input, a due instant earlier than the scheduled check is scheduled only within one lead of
//! it, when few inputs are left before the handover (earlier, the inputs to come re-check).

use crate::event::Event;
use crate::world::World;
use vhsim_core::{EventClass, SimDuration, SimTime};
use vhsim_net::{Endpoint, LinkEvent};
use vhsim_scenario::WarningRule;

impl World {
    /// The margin of the `srtt` warning rule, if the scenario uses it.
    #[inline]
    pub(crate) fn srtt_warning_rule(&self) -> Option<SimDuration> {
        match self.scenario.mobile.as_ref()?.warning_rule {
            WarningRule::Srtt { margin } => Some(margin),
            WarningRule::Fixed => None,
        }
    }

    /// After an input to endpoint `side` of flow `f`: if it runs on the mobile node, its
    /// estimate may have grown enough for the next warning to be due.
    #[inline]
    pub(crate) fn after_mn_input(&mut self, f: u32, side: usize) {
        if self.srtt_warning_rule().is_some()
            && self.routing.mobile.as_ref().is_some_and(|m| m.node == self.flows[f as usize].nodes[side])
        {
            if let Some((k, due, lead)) = self.give_due_srtt_warning() {
                let earlier = self.handovers[k].warning_check.is_none_or(|c| due < c);
                if earlier && due.saturating_since(self.now) <= lead {
                    self.schedule_warning_check(k, due);
                }
            }
        }
    }

    /// A check event: give the warning if it is due, else check again when it will be.
    pub(crate) fn check_srtt_warning(&mut self) {
        if let Some((k, due, _)) = self.give_due_srtt_warning() {
            self.schedule_warning_check(k, due);
        }
    }

    fn schedule_warning_check(&mut self, k: usize, due: SimTime) {
        self.handovers[k].warning_check = Some(due);
        self.queue.push(due, EventClass::Timeline, Event::HandoverWarning(k as u32));
    }

    /// The largest current RTT estimate of the mobile node's started endpoints.
    fn mn_rtt_estimate(&self) -> Option<SimDuration> {
        let mn = self.routing.mobile.as_ref()?.node;
        let at_mn = self
            .flows
            .iter()
            .filter(|f| f.started)
            .flat_map(|f| (0..2).filter(move |&s| f.nodes[s] == mn).map(move |s| &f.endpoints[s]));
        at_mn.filter_map(|e| e.rtt_estimate()).max()
    }

    /// Give the next handover's warning now if it is due; otherwise return that handover, when
    /// it will be due with the current estimate, and the lead.
    fn give_due_srtt_warning(&mut self) -> Option<(usize, SimTime, SimDuration)> {
        let margin = self.srtt_warning_rule()?;
        let before_any = self.scenario.mobile.as_ref()?.warning;
        let k = self.handovers.iter().position(|h| h.warned_at.is_none())?;
        let lead = self.mn_rtt_estimate().map_or(before_any, |e| e + margin);
        let start = self.handovers[k].start;
        let due = SimTime(start.0.saturating_sub(lead.0));
        if due > self.now {
            return Some((k, due, lead));
        }
        self.handovers[k].warned_at = Some(self.now);
        let (old, new) = (self.handovers[k].from, self.handovers[k].to);
        self.link_event(LinkEvent::Imminent { eta: start.saturating_since(self.now), old, new });
        None
    }
}
