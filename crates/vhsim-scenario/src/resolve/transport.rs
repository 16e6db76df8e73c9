//! A flow's `[tcp]` and `[sink]` tables applied over its preset's configurations.

use crate::error::{err, join, Result};
use crate::schema::{SinkSpec, TcpSpec};
use crate::units::{fmt_duration, AmountKind, Packets, Size};
use vhsim_core::SimDuration;
use vhsim_tcp::{DcrTau, DupAckResponseKind, LossClassifierKind, SinkConfig, TcpConfig};

/// A size that must fit in `u32` (and be non-zero unless `zero_ok`).
fn size(s: Size, zero_ok: bool, path: &str) -> Result<u32> {
    if s.0 == 0 && !zero_ok {
        return Err(err(path, "must be at least 1B"));
    }
    u32::try_from(s.0).map_err(|_| err(path, format!("{}B is too large", s.0)))
}

/// A count that must be at least 1 and fit in `u32`.
fn count(n: u64, unit: &str, path: &str) -> Result<u32> {
    if n == 0 {
        return Err(err(path, format!("must be at least 1{unit}")));
    }
    u32::try_from(n).map_err(|_| err(path, format!("{n}{unit} is too large")))
}

/// A window in packets, or in bytes converted to whole segments of `segment_size` bytes.
fn window(a: AmountKind, segment_size: u32, path: &str) -> Result<u32> {
    match a {
        AmountKind::Packets(n) => count(n, "pkt", path),
        AmountKind::Bytes(b) if b < u64::from(segment_size) => Err(err(
            path,
            format!("{b}B is less than one segment (segment_size {segment_size}B); use at least {segment_size}B or \"1pkt\""),
        )),
        AmountKind::Bytes(b) => count(b / u64::from(segment_size), "pkt", path),
    }
}

fn positive(d: SimDuration, path: &str) -> Result<SimDuration> {
    if d == SimDuration::ZERO {
        return Err(err(path, "must be greater than 0s"));
    }
    Ok(d)
}

/// Apply a flow's `[tcp]` table (at `path`) to its preset's sender configuration.
pub(super) fn tcp(mut c: TcpConfig, s: &TcpSpec, path: &str) -> Result<TcpConfig> {
    let p = |k: &str| join(path, k);
    let pkts = |v: Option<Packets>, k: &str| v.map(|n| count(n.0, "pkt", &p(k))).transpose();
    if let Some(v) = s.segment_size {
        c.segment_size = size(v, false, &p("segment_size"))?;
    }
    if let Some(v) = s.header_size {
        c.header_size = size(v, true, &p("header_size"))?;
    }
    if let Some(v) = s.ack_size {
        c.ack_size = size(v, false, &p("ack_size"))?;
    }
    if let Some(v) = s.window {
        c.window = window(v.0, c.segment_size, &p("window"))?;
    }
    c.initial_window = pkts(s.initial_window, "initial_window")?.unwrap_or(c.initial_window);
    if let Some(v) = pkts(s.initial_ssthresh, "initial_ssthresh")? {
        c.initial_ssthresh = Some(v);
    }
    if let Some(v) = s.dupack_threshold {
        c.dupack_threshold = count(v.into(), "", &p("dupack_threshold"))?;
    }
    c.limited_transmit = s.limited_transmit.unwrap_or(c.limited_transmit);
    c.max_burst = s.max_burst.unwrap_or(c.max_burst);
    c.recovery = s.recovery.unwrap_or(c.recovery);
    c.newreno_timer = s.newreno_timer.unwrap_or(c.newreno_timer);
    c.handover = s.handover.unwrap_or(c.handover);
    if let Some(x) = &s.cross_layer {
        cross_layer(&mut c, x, &join(path, "cross_layer"))?;
    }
    if let Some(v) = s.min_rto {
        c.rto.min = v.0;
    }
    if let Some(v) = s.initial_rto {
        c.rto.initial = positive(v.0, &p("initial_rto"))?;
    }
    if let Some(v) = s.max_rto {
        c.rto.max = positive(v.0, &p("max_rto"))?;
    }
    if c.rto.min > c.rto.max {
        let (key, msg) = match s.min_rto {
            Some(_) => (
                "min_rto",
                format!("{} is greater than max_rto ({})", fmt_duration(c.rto.min), fmt_duration(c.rto.max)),
            ),
            None => (
                "max_rto",
                format!("{} is less than min_rto ({})", fmt_duration(c.rto.max), fmt_duration(c.rto.min)),
            ),
        };
        return Err(err(p(key), msg));
    }
    if let Some(v) = s.clock_granularity {
        c.rto.granularity = v.0;
    }
    if let Some(v) = s.max_backoff {
        c.rto.max_backoff = count(v.into(), "", &p("max_backoff"))?;
    }
    c.rto.timing = s.rtt_timing.unwrap_or(c.rto.timing);
    handover_schemes(&mut c, s, path)?;
    Ok(c)
}

/// The timeout-response, dupACK-response and loss-classifier options (F-RTO, TCP-DCR, LD;
/// docs/schemes.md). Options of a part the flow does not use are accepted and have no effect.
fn handover_schemes(c: &mut TcpConfig, s: &TcpSpec, path: &str) -> Result<()> {
    let p = |k: &str| join(path, k);
    c.rto_response = s.rto_response.unwrap_or(c.rto_response);
    c.frto.variant = s.frto_variant.unwrap_or(c.frto.variant);
    c.frto.response = s.spurious_response.unwrap_or(c.frto.response);
    c.dupack_response = s.dupack_response.unwrap_or(c.dupack_response);
    c.dcr.trigger = s.dcr_trigger.unwrap_or(c.dcr.trigger); // >= 1 by its parser
    c.dcr.tau = s.dcr_tau.unwrap_or(c.dcr.tau);
    c.loss_classifier = s.loss_classifier.unwrap_or(c.loss_classifier);
    if let Some(k) = s.ld_k {
        if !(k.is_finite() && k > 0.0) {
            return Err(err(p("ld_k"), format!("{k} is not a finite number greater than 0")));
        }
        c.ld.k = k;
    }
    c.ld.suspend_rounds = s.ld_suspend_rounds.unwrap_or(c.ld.suspend_rounds);
    c.ld.handover_reset = s.ld_handover_reset.unwrap_or(c.ld.handover_reset);
    if let Some(v) = s.ld_initial_tdev {
        c.ld.initial_tdev = v.0;
    }
    // Lim & Jang §4.2: "The DCR uses only Tavg" -- LD's estimate, so LD must run.
    if c.dupack_response == DupAckResponseKind::Dcr
        && c.dcr.tau == DcrTau::Tavg
        && c.loss_classifier != LossClassifierKind::Ld
    {
        let key = if s.dcr_tau.is_some() {
            "dcr_tau"
        } else if s.loss_classifier.is_some() {
            "loss_classifier"
        } else {
            "dupack_response"
        };
        return Err(err(
            p(key),
            "dcr_tau = \"tavg\" needs loss_classifier = \"ld\" (Tavg is LD's RTT average); use dcr_tau = \"srtt\" or the LD classifier",
        ));
    }
    Ok(())
}

/// Apply a flow's `[sink]` table (at `path`) to its preset's sink configuration;
/// `segment_size` converts a window given in bytes.
pub(super) fn sink(mut c: SinkConfig, s: &SinkSpec, segment_size: u32, path: &str) -> Result<SinkConfig> {
    let p = |k: &str| join(path, k);
    c.delayed_ack = s.delayed_ack.unwrap_or(c.delayed_ack);
    if let Some(v) = s.delack_interval {
        c.delack_interval = positive(v.0, &p("delack_interval"))?;
    }
    c.sack = s.sack.unwrap_or(c.sack);
    c.max_sack_blocks = s.max_sack_blocks.unwrap_or(c.max_sack_blocks);
    if let Some(v) = s.advertised_window {
        c.advertised_window = window(v.0, segment_size, &p("advertised_window"))?;
    }
    if let Some(v) = s.ack_size {
        c.ack_size = size(v, false, &p("ack_size"))?;
    }
    Ok(c)
}

/// Daniel & Kojo's algorithm switches and parameters.
fn cross_layer(c: &mut TcpConfig, x: &crate::schema::CrossLayerSpec, path: &str) -> Result<()> {
    let p = |k: &str| join(path, k);
    let cl = &mut c.cross_layer;
    cl.a1 = x.a1.unwrap_or(cl.a1);
    cl.a2 = x.a2.unwrap_or(cl.a2);
    cl.a3 = x.a3.unwrap_or(cl.a3);
    cl.a4 = x.a4.unwrap_or(cl.a4);
    cl.a5 = x.a5.unwrap_or(cl.a5);
    if cl.a2 && cl.a5 {
        return Err(err(p("a5"), "A5 replaces A2: enable one of them (set a2 = false)"));
    }
    if let Some(d) = x.reinit_rto {
        if d.0 == vhsim_core::SimDuration::ZERO {
            return Err(err(p("reinit_rto"), "must be greater than 0s"));
        }
        cl.reinit_rto = d.0;
    }
    if let Some(d) = x.rest_of_path {
        cl.rest_of_path = d.0;
    }
    if let Some(f) = x.significant_delay_factor {
        if !(f.is_finite() && f > 1.0) {
            return Err(err(
                p("significant_delay_factor"),
                format!("{f} is not a finite number greater than 1"),
            ));
        }
        cl.significant_delay_factor = f;
    }
    Ok(())
}
