//! A pcap file of one link direction (the classic libpcap format with nanosecond timestamps).

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, Endianness, PcapError, TsResolution};
use std::io::{self, Write};
use std::time::Duration;
use vhsim_core::SimTime;

/// Snap length recorded when packets are kept whole: the largest IPv4 packet.
const WHOLE: u32 = 65_535;

/// Writes frames (IPv4 packets) to a pcap stream: link type `RAW` (101, the frame starts with
/// the IP header), nanosecond timestamps (magic `a1b23c4d`) counted from the start of the
/// simulation (so Wireshark's absolute times read 1970-01-01 00:00:00 + simulated time), little
/// endian whatever the machine, so the same run gives the same bytes everywhere.
#[derive(Debug)]
pub struct CaptureFile<W: Write> {
    writer: PcapWriter<W>,
    snaplen: u32,
    packets: u64,
}

fn io_error(e: PcapError) -> io::Error {
    match e {
        PcapError::IoError(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

impl<W: Write> CaptureFile<W> {
    /// Start a capture on `out` keeping the first `snaplen` bytes of each frame (`None` = whole
    /// frames).
    pub fn new(out: W, snaplen: Option<u32>) -> io::Result<Self> {
        let snaplen = snaplen.unwrap_or(WHOLE);
        let header = PcapHeader {
            version_major: 2,
            version_minor: 4,
            ts_correction: 0,
            ts_accuracy: 0,
            snaplen,
            datalink: DataLink::RAW,
            ts_resolution: TsResolution::NanoSecond,
            endianness: Endianness::Little,
        };
        let writer = PcapWriter::with_header(out, header).map_err(io_error)?;
        Ok(CaptureFile { writer, snaplen, packets: 0 })
    }

    /// Record `frame`, put on the wire at `time`.
    pub fn write(&mut self, time: SimTime, frame: &[u8]) -> io::Result<()> {
        let kept = &frame[..frame.len().min(self.snaplen as usize)];
        let orig_len = u32::try_from(frame.len()).map_err(io::Error::other)?;
        let packet = PcapPacket::new(Duration::from_nanos(time.0), orig_len, kept);
        self.writer.write_packet(&packet).map_err(io_error)?;
        self.packets += 1;
        Ok(())
    }

    /// Frames recorded so far.
    pub fn packets(&self) -> u64 {
        self.packets
    }

    /// Flush and return the underlying writer.
    pub fn finish(self) -> io::Result<W> {
        let mut out = self.writer.into_writer();
        out.flush()?;
        Ok(out)
    }
}
