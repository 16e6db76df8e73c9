//! TCP segments (RFC 9293 §3.1) from the simulator's [`TcpHeader`], whose sequence numbers count
//! segments.
//!
//! Byte numbering: the simulated connection has no handshake; each direction is numbered as if
//! its SYN had used sequence number [`ISN`], so the first data byte is `ISN + 1` and segment `n`
//! starts at byte `ISN + 1 + n * segment_bytes` (mod 2^32). An ACK for segment `n` acknowledges
//! byte `ISN + 1 + n * segment_bytes`, and a SACK block of segments `[a, b)` covers bytes
//! `[ISN + 1 + a * segment_bytes, ISN + 1 + b * segment_bytes)` (RFC 2018 §3). The receiver
//! sends no data, so its sequence number stays `ISN + 1`, and every data segment acknowledges
//! it (the ACK flag is set on every segment, as on an established connection).

use crate::encode::{EncodeError, FlowWire, TcpWire};
use crate::ipv4::{self, Ends};
use crate::zeros;
use etherparse::{IpNumber, TcpHeader as WireHeader, TcpOptionElement};
use vhsim_net::{Packet, TcpHeader, UnitKind};

/// The initial sequence number of both directions of every flow. Zero makes byte numbers map
/// back to segments simply: segment = (seq - 1) / segment_bytes.
pub const ISN: u32 = 0;

/// Largest TCP options area (the data offset field counts at most 15 words).
const MAX_OPTIONS: usize = 40;

/// Stream byte number of the start of segment `seg`.
pub fn stream_byte(seg: u64, t: &TcpWire) -> u32 {
    let offset = seg.wrapping_mul(u64::from(t.segment_bytes));
    ISN.wrapping_add(1).wrapping_add(offset as u32)
}

/// The 16-bit window field of an advertisement of `segments` (`u32::MAX` = unlimited).
pub fn window_field(segments: u32, t: &TcpWire) -> u16 {
    let segments = if segments == u32::MAX { t.unlimited_window } else { segments };
    let bytes = u64::from(segments) * u64::from(t.segment_bytes);
    (bytes >> t.window_scale).min(0xffff) as u16
}

/// Append the IPv4 packet of TCP packet `pkt` with header `h` to `out`.
pub fn encode(pkt: &Packet, h: &TcpHeader, flow: &FlowWire, t: &TcpWire, ends: &Ends, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let from_sender = pkt.tag.kind != UnitKind::Ack;
    let payload = if pkt.tag.kind == UnitKind::Data { pkt.tag.payload_bytes as usize } else { 0 };
    let mut th = if from_sender {
        WireHeader::new(flow.sender_port, flow.receiver_port, stream_byte(h.seq, t), u16::MAX)
    } else {
        WireHeader::new(flow.receiver_port, flow.sender_port, ISN.wrapping_add(1), window_field(h.window, t))
    };
    th.ack = true;
    th.acknowledgment_number = if from_sender { ISN.wrapping_add(1) } else { stream_byte(h.ack, t) };
    let mut options = Vec::with_capacity(8);
    let mut blocks = h.sack_blocks();
    if let Some(first) = blocks.next() {
        // Two NOPs align the SACK option on a word (RFC 2018 §3, as common stacks send it).
        options.extend([TcpOptionElement::Noop, TcpOptionElement::Noop]);
        let block = |b: vhsim_net::SackBlock| (stream_byte(b.start, t), stream_byte(b.end, t));
        let mut more = [None; 3];
        for (slot, b) in more.iter_mut().zip(blocks) {
            *slot = Some(block(b));
        }
        options.push(TcpOptionElement::SelectiveAcknowledgement(block(first), more));
    }
    // A simulated size larger than the real headers (a `header_size` above 40 bytes) is made up
    // with NOP options, while they fit, so the total length still equals the simulated size.
    let used = option_len(&options);
    let needed = ipv4_len() + 20 + used + payload;
    let extra = (pkt.size as usize).saturating_sub(needed);
    #[allow(clippy::manual_is_multiple_of)] // usize::is_multiple_of needs Rust 1.87
    if extra > 0 && extra % 4 == 0 && used + extra <= MAX_OPTIONS {
        options.extend(std::iter::repeat_n(TcpOptionElement::Noop, extra));
    }
    th.set_options(&options).expect("at most 3 SACK blocks and 40 bytes of options fit");
    let ip = ipv4::header(ends, IpNumber::TCP, th.header_len() + payload)?;
    th.checksum = th.calc_checksum_ipv4(&ip, zeros(payload)).map_err(|_| EncodeError::TooLong(needed))?;
    ipv4::write(&ip, out);
    out.extend_from_slice(&th.to_bytes());
    out.extend_from_slice(zeros(payload));
    Ok(())
}

fn ipv4_len() -> usize {
    etherparse::Ipv4Header::MIN_LEN
}

fn option_len(options: &[TcpOptionElement]) -> usize {
    options
        .iter()
        .map(|o| match o {
            TcpOptionElement::SelectiveAcknowledgement(_, more) => 10 + 8 * more.iter().flatten().count(),
            _ => 1,
        })
        .sum()
}
