//! A flow's application: bulk (infinite backlog) or constant bit rate.
//!
//! CBR follows Sobral et al. §5 ("a 500 Kbps CBR traffic using TCP ... packets with 1,000 bytes
//! of data"): the application writes `packet_size` bytes every `packet_size * 8 / rate`, or
//! every `interval`. A write makes ceil(packet_size / segment_size) segments available, as
//! ns-2's `TcpAgent::sendmsg(nbytes)` does (`curseq_ += nbytes/size_ + (nbytes%size_ ? 1 : 0)`).
//! The send buffer is unlimited unless `send_buffer` is given (in segments, or bytes floored to
//! whole segments); a write that does not fit is refused (vhsim-sim `app`).

use crate::error::{err, join, Result};
use crate::model::{AppModel, CbrModel};
use crate::schema::{AppKind, AppSpec};
use crate::units::AmountKind;
use vhsim_core::SimDuration;

/// Resolve the `app` table at `path` of a flow whose segments carry `segment_size` bytes.
pub(super) fn resolve(spec: Option<&AppSpec>, segment_size: u32, path: &str) -> Result<AppModel> {
    let Some(a) = spec else { return Ok(AppModel::Bulk) };
    let p = |k: &str| join(path, k);
    match a.kind {
        AppKind::Bulk => {
            for (key, present) in [
                ("rate", a.rate.is_some()),
                ("interval", a.interval.is_some()),
                ("packet_size", a.packet_size.is_some()),
                ("send_buffer", a.send_buffer.is_some()),
            ] {
                if present {
                    return Err(err(p(key), format!("`{key}` is only allowed with kind = \"cbr\"")));
                }
            }
            Ok(AppModel::Bulk)
        }
        AppKind::Cbr => cbr(a, segment_size, path).map(|c| AppModel::Cbr(c.into())),
    }
}

fn cbr(a: &AppSpec, segment_size: u32, path: &str) -> Result<CbrModel> {
    let p = |k: &str| join(path, k);
    let packet_size = match a.packet_size {
        None => segment_size,
        Some(s) if s.0 == 0 => return Err(err(p("packet_size"), "must be at least 1B")),
        Some(s) => u32::try_from(s.0).map_err(|_| err(p("packet_size"), format!("{}B is too large", s.0)))?,
    };
    let bits = u128::from(packet_size) * 8;
    let (rate, interval) = match (a.rate, a.interval) {
        (Some(_), Some(_)) => {
            let msg = "give either `rate` or `interval`, not both (each determines the other)";
            return Err(err(p("interval"), msg));
        }
        (None, None) => {
            return Err(err(
                path,
                "kind = \"cbr\" needs `rate` (e.g. \"500kbps\") or `interval` (e.g. \"16ms\")",
            ))
        }
        // Rates of zero are rejected when the value is read ("a rate must be greater than zero").
        (Some(r), None) => {
            let ns = bits * 1_000_000_000 / u128::from(r.0.bits_per_sec());
            if ns == 0 {
                let msg =
                    format!("{} b/s writes {packet_size}B packets less than 1ns apart", r.0.bits_per_sec());
                return Err(err(p("rate"), msg));
            }
            let ns =
                u64::try_from(ns).map_err(|_| err(p("rate"), "too low: writes would be centuries apart"))?;
            (Some(r.0), SimDuration::from_nanos(ns))
        }
        (None, Some(d)) => {
            if d.0 == SimDuration::ZERO {
                return Err(err(p("interval"), "must be greater than 0s"));
            }
            (None, d.0)
        }
    };
    let segments_per_write = u64::from(packet_size.div_ceil(segment_size));
    let send_buffer = a.send_buffer.map(|b| send_buffer(b.0, segment_size, segments_per_write, &p("send_buffer"))).transpose()?;
    Ok(CbrModel { packet_size, segments_per_write, rate, interval, send_buffer })
}

/// The send buffer in segments; it must hold at least one write.
fn send_buffer(a: AmountKind, segment_size: u32, per_write: u64, path: &str) -> Result<u64> {
    let segments = match a {
        AmountKind::Packets(n) => n,
        AmountKind::Bytes(b) => b / u64::from(segment_size),
    };
    if segments < per_write {
        let msg = format!(
            "holds {segments} segment(s), less than one write ({per_write} segment(s) of {segment_size}B); \
             a write could never be accepted"
        );
        return Err(err(path, msg));
    }
    Ok(segments)
}
