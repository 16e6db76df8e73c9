//! An SCTP flow (`protocol = "sctp"`): its preset with the `[flows.<f>.sctp]` overrides, and
//! the addresses of its association.
//!
//! An endpoint on the mobile node uses the care-of addresses of its interfaces (all of them in
//! file order unless `to_interfaces` / `from_interfaces` lists some), so the association is
//! multihomed across the mobile node's access links; an endpoint elsewhere has its node's
//! address. The sender's primary destination is `primary` (an interface of the receiving
//! mobile node), by default the mobile node's initial interface; the receiver's is the
//! sender's initial interface, or its node address.

use super::mobile::Mobiles;
use super::msctp::{self, Association};
use crate::error::{err, join, list, Result};
use crate::model::{SctpModel, TransportModel};
use crate::schema::{FlowSpec, InitialCwndSpec, SctpSpec};
use vhsim_core::SimDuration;
use vhsim_sctp::{presets, InitialCwnd, SctpConfig};
use vhsim_tcp::Defaults;

/// The transport of SCTP flow `spec` (at `path`) from node `src` to node `dst`.
pub(super) fn resolve(
    spec: &FlowSpec,
    src: u32,
    dst: u32,
    mobiles: &Mobiles,
    duration: SimDuration,
    defaults: Defaults,
    path: &str,
) -> Result<TransportModel> {
    let p = |k: &str| join(path, k);
    for (key, present) in [
        ("tcp", !spec.tcp.is_empty()),
        ("sink", !spec.sink.is_empty()),
        ("datagram", spec.datagram.is_some()),
        ("to_interface", spec.to_interface.is_some()),
    ] {
        if present {
            let hint = if key == "to_interface" {
                "; an SCTP flow lists its receiver's interfaces in `sctp.to_interfaces` and names its primary in `sctp.primary`"
            } else {
                "; an SCTP flow is configured in `[flows.<f>.sctp]`"
            };
            return Err(err(p(key), format!("`{key}` is not a key of protocol = \"sctp\"{hint}")));
        }
    }
    let scheme = spec.scheme.as_deref().unwrap_or("sctp");
    let preset = presets::preset(scheme).ok_or_else(|| {
        let names = list(presets::preset_names());
        let msg = if vhsim_tcp::presets::preset(scheme).is_some() {
            format!("`{scheme}` is a TCP scheme (SCTP schemes: {names})")
        } else {
            format!("unknown scheme `{scheme}` (SCTP schemes: {names})")
        };
        err(p("scheme"), msg)
    })?;
    let none = SctpSpec::default();
    let s = spec.sctp.as_deref().unwrap_or(&none);
    let sp = |k: &str| join(&p("sctp"), k);
    let base = match defaults {
        Defaults::Rfc => SctpConfig::default(),
        Defaults::Ns2_35 => SctpConfig::ns2_35(),
    };
    let config = overrides(preset.config_over(base), s, &p("sctp"))?;
    let from_addrs = addresses(src, s.from_interfaces.as_deref(), mobiles, &sp("from_interfaces"))?;
    let to_addrs = addresses(dst, s.to_interfaces.as_deref(), mobiles, &sp("to_interfaces"))?;
    let primary = match &s.primary {
        Some(name) => {
            let a = mobiles.care_of(dst, name, &sp("primary"))?;
            if !to_addrs.contains(&a) {
                let msg =
                    format!("interface `{name}` is not one of the receiver's addresses (sctp.to_interfaces)");
                return Err(err(sp("primary"), msg));
            }
            a
        }
        None => initial_or_first(dst, &to_addrs, mobiles),
    };
    let from_primary = initial_or_first(src, &from_addrs, mobiles);
    let assoc = Association {
        nodes: [src, dst],
        addrs: [&from_addrs, &to_addrs],
        primaries: [from_primary, primary],
    };
    let mobile = mobiles.at(src).or(mobiles.at(dst)).map(|(_, m)| m);
    let mobile = msctp::resolve(s, &config, &assoc, mobile, duration, &p("sctp"))?;
    Ok(TransportModel::Sctp(Box::new(SctpModel { config, from_addrs, to_addrs, primary, from_primary, mobile })))
}

/// Addresses of the endpoint at `node`: care-of addresses of the listed (or all) interfaces of
/// the mobile node, or the node's own address.
fn addresses(
    node: u32,
    listed: Option<&[String]>,
    mobiles: &Mobiles,
    path: &str,
) -> Result<Vec<u32>> {
    let Some((_, m)) = mobiles.at(node) else {
        return match listed {
            Some(_) => Err(err(path, "only an endpoint on the mobile node has interfaces to list")),
            None => Ok(vec![node]),
        };
    };
    let Some(names) = listed else {
        return Ok(m.interfaces.iter().map(|i| i.address).collect());
    };
    if names.is_empty() {
        return Err(err(path, "needs at least one interface"));
    }
    let mut out = Vec::new();
    for name in names {
        let a = mobiles.care_of(node, name, path)?;
        if out.contains(&a) {
            return Err(err(path, format!("lists interface `{name}` twice")));
        }
        out.push(a);
    }
    Ok(out)
}

/// The mobile node's initial interface's address if it is in `addrs`, else the first.
fn initial_or_first(node: u32, addrs: &[u32], mobiles: &Mobiles) -> u32 {
    let initial = mobiles.at(node).map(|(_, m)| m.interfaces[m.initial as usize].address);
    initial.filter(|a| addrs.contains(a)).unwrap_or(addrs[0])
}

fn size32(v: u64, path: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| err(path, format!("{v}B is too large")))
}

/// Apply `[flows.<f>.sctp]` (at `path`) to a preset's configuration; the configuration's own
/// validation names the offending key under `path`.
fn overrides(mut c: SctpConfig, s: &SctpSpec, path: &str) -> Result<SctpConfig> {
    let p = |k: &str| join(path, k);
    if let Some(v) = s.mtu {
        c.mtu = size32(v.0, &p("mtu"))?;
    }
    if let Some(v) = s.ip_header_size {
        c.ip_header_size = size32(v.0, &p("ip_header_size"))?;
    }
    if let Some(v) = s.data_chunk_size {
        c.data_chunk_size = size32(v.0, &p("data_chunk_size"))?;
    }
    if let Some(v) = s.initial_cwnd {
        c.initial_cwnd = match v {
            InitialCwndSpec::Rfc4960 => InitialCwnd::Rfc4960,
            InitialCwndSpec::Rfc2960 => InitialCwnd::Rfc2960,
            InitialCwndSpec::Bytes(b) => InitialCwnd::Bytes(size32(b, &p("initial_cwnd"))?),
            InitialCwndSpec::Mtus(n) => {
                let bytes = n.saturating_mul(u64::from(c.cc_mtu()));
                InitialCwnd::Bytes(size32(bytes, &p("initial_cwnd"))?)
            }
        };
    }
    if let Some(v) = s.initial_ssthresh {
        c.initial_ssthresh = Some(size32(v.0, &p("initial_ssthresh"))?);
    }
    c.rto_initial = s.rto_initial.map_or(c.rto_initial, |d| d.0);
    c.rto_min = s.rto_min.map_or(c.rto_min, |d| d.0);
    c.rto_max = s.rto_max.map_or(c.rto_max, |d| d.0);
    c.rto_alpha = s.rto_alpha.unwrap_or(c.rto_alpha);
    c.rto_beta = s.rto_beta.unwrap_or(c.rto_beta);
    c.max_burst = s.max_burst.unwrap_or(c.max_burst);
    c.max_burst_scope = s.max_burst_scope.unwrap_or(c.max_burst_scope);
    c.fast_rtx_threshold = s.fast_rtx_threshold.unwrap_or(c.fast_rtx_threshold);
    c.rtx_to_alt = s.rtx_to_alt.unwrap_or(c.rtx_to_alt);
    c.path_max_retrans = s.path_max_retrans.unwrap_or(c.path_max_retrans);
    c.association_max_retrans = s.association_max_retrans.unwrap_or(c.association_max_retrans);
    c.heartbeat = s.heartbeat.unwrap_or(c.heartbeat);
    c.hb_interval = s.hb_interval.map_or(c.hb_interval, |d| d.0);
    c.hb_jitter = s.hb_jitter.unwrap_or(c.hb_jitter);
    c.hb_on_inactive = s.hb_on_inactive.unwrap_or(c.hb_on_inactive);
    c.idle_cwnd_decay = s.idle_cwnd_decay.unwrap_or(c.idle_cwnd_decay);
    c.idle_cwnd_reset = s.idle_cwnd_reset.map(|d| d.0).or(c.idle_cwnd_reset);
    c.delayed_sack = s.delayed_sack.unwrap_or(c.delayed_sack);
    c.sack_delay = s.sack_delay.map_or(c.sack_delay, |d| d.0);
    c.sack_every = s.sack_every.unwrap_or(c.sack_every);
    c.sack_on_gap_fill = s.sack_on_gap_fill.unwrap_or(c.sack_on_gap_fill);
    if let Some(v) = s.receive_buffer {
        c.receive_buffer = size32(v.0, &p("receive_buffer"))?;
    }
    c.msctp = s.msctp.unwrap_or(c.msctp);
    c.hr_cwnd_reset = s.hr_cwnd_reset.unwrap_or(c.hr_cwnd_reset);
    c.mt_region = s.mt_region.unwrap_or(c.mt_region);
    c.set_primary_from = s.set_primary_from.unwrap_or(c.set_primary_from);
    c.split_fast_retransmit = s.split_fast_retransmit.unwrap_or(c.split_fast_retransmit);
    c.msctp_trigger = s.trigger.unwrap_or(c.msctp_trigger);
    c.delete_after = s.delete_after.map(|d| d.0).or(c.delete_after);
    if let Err(errs) = c.validate() {
        let e = &errs[0];
        return Err(err(p(&e.key), e.message.clone()));
    }
    Ok(c)
}
