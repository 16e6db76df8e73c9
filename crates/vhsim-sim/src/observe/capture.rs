//! Packet captures: what a link direction puts on the wire, written as a pcap file per link
//! direction (docs/pcap.md).
//!
//! The capture point is the start of serialization (`World::started_serializing`), like a
//! device trace: a packet dropped by the queue never appears, one lost by the error model
//! appears (it used the link), and a link-layer ARQ retry of the same frame is not recorded
//! again (a capture at the IP layer sees the packet once). The bytes come from
//! [`vhsim_pcap::Encoder`]; this module only decides which links are captured and where the
//! files go, and keeps the first error to report it after the run (an observer cannot stop
//! the world).

use std::fmt;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use vhsim_core::SimTime;
use vhsim_net::Packet;
use vhsim_pcap::{CaptureFile, Encoder, FlowWire, SctpWire, TcpWire, WireTransport};
use vhsim_scenario::{CapturePoint, Scenario, TransportModel};

/// A capture that could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    /// The key that asked for the capture (`output.pcap[0]`, `--pcap`).
    pub key: String,
    /// The link direction.
    pub link: String,
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: cannot write the capture of `{}` to {}: {}", self.key, self.link, self.path.display(), self.message)
    }
}

impl std::error::Error for CaptureError {}

/// A capture written by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureInfo {
    /// The link direction.
    pub link: String,
    /// The file.
    pub path: PathBuf,
    /// Packets recorded.
    pub packets: u64,
}

struct LinkCapture {
    point: CapturePoint,
    path: PathBuf,
    file: CaptureFile<BufWriter<File>>,
}

/// The captures of one run.
pub struct Captures {
    /// Index into `files` per link direction ([`NOT_CAPTURED`] where none).
    slot: Vec<u32>,
    files: Vec<LinkCapture>,
    link_names: Vec<String>,
    encoder: Encoder,
    error: Option<CaptureError>,
}

const NOT_CAPTURED: u32 = u32::MAX;

/// The capture points of `sc`'s `output.pcap` and the caller's `extra` ones, in link order,
/// each once (the first key asking for a link names it in errors).
pub fn capture_points(sc: &Scenario, extra: &[CapturePoint]) -> Vec<CapturePoint> {
    let own = sc.pcap.as_ref().map_or(&[][..], |p| &p.points);
    let mut points: Vec<CapturePoint> = Vec::new();
    for p in own.iter().chain(extra) {
        if !points.iter().any(|q| q.link == p.link) {
            points.push(p.clone());
        }
    }
    points.sort_by_key(|p| p.link);
    points
}

impl Captures {
    /// Open one file in `dir` per capture point (`dir` is created if missing).
    pub fn open(sc: &Scenario, points: &[CapturePoint], dir: &Path) -> Result<Self, CaptureError> {
        let link_names: Vec<String> = sc.links.iter().map(|l| l.name.clone()).collect();
        let snaplen = sc.pcap.as_ref().and_then(|p| p.snaplen);
        let mut slot = vec![NOT_CAPTURED; sc.links.len()];
        let mut files = Vec::with_capacity(points.len());
        for p in points {
            let path = dir.join(CapturePoint::file_name(&link_names[p.link as usize]));
            let fail = |e: std::io::Error| CaptureError {
                key: p.key.clone(),
                link: link_names[p.link as usize].clone(),
                path: path.clone(),
                message: e.to_string(),
            };
            std::fs::create_dir_all(dir).map_err(fail)?;
            let out = BufWriter::with_capacity(1 << 16, File::create(&path).map_err(fail)?);
            let file = CaptureFile::new(out, snaplen).map_err(fail)?;
            slot[p.link as usize] = files.len() as u32;
            files.push(LinkCapture { point: p.clone(), path, file });
        }
        Ok(Captures { slot, files, link_names, encoder: encoder(sc), error: None })
    }

    /// Whether link direction `l` is captured.
    #[inline]
    pub fn has(&self, l: u32) -> bool {
        self.slot.get(l as usize).is_some_and(|&s| s != NOT_CAPTURED)
    }

    /// Link direction `l` puts `pkt` on the wire at `now`.
    pub fn record(&mut self, now: SimTime, l: u32, pkt: &Packet) {
        if self.error.is_some() {
            return;
        }
        let c = &mut self.files[self.slot[l as usize] as usize];
        let written = match self.encoder.encode(pkt) {
            Ok(frame) => c.file.write(now, frame).map_err(|e| e.to_string()),
            Err(e) => Err(format!("packet {} at {} ns: {e}", pkt.uid, now.0)),
        };
        if let Err(message) = written {
            let link = self.link_names[l as usize].clone();
            self.error = Some(CaptureError { key: c.point.key.clone(), link, path: c.path.clone(), message });
        }
    }

    /// Flush every file; the first error of the run, if any.
    pub fn finish(self) -> Result<Vec<CaptureInfo>, CaptureError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.files
            .into_iter()
            .map(|c| {
                let link = self.link_names[c.point.link as usize].clone();
                let packets = c.file.packets();
                match c.file.finish() {
                    Ok(_) => Ok(CaptureInfo { link, path: c.path, packets }),
                    Err(e) => Err(CaptureError { key: c.point.key, link, path: c.path, message: e.to_string() }),
                }
            })
            .collect()
    }
}

/// The encoder of `sc`: its address table and what each flow's transport looks like on the
/// wire.
fn encoder(sc: &Scenario) -> Encoder {
    let addresses = sc
        .addresses
        .iter()
        .map(|a| a.ipv4.octets())
        .collect();
    let flows = sc
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let transport = match &f.transport {
                TransportModel::Tcp { tcp, sink } => {
                    WireTransport::Tcp(TcpWire::new(tcp.segment_size, sink.advertised_window, tcp.window))
                }
                TransportModel::Datagram { .. } => WireTransport::Datagram,
                // Every address of the sender's node, care-of addresses included: a mobile
                // sender with mSCTP may send from an address it adds during the run.
                TransportModel::Sctp(_) => WireTransport::Sctp(SctpWire {
                    sender_addrs: (0..sc.addresses.len() as u32)
                        .filter(|&a| sc.addresses[a as usize].node == f.src)
                        .collect(),
                }),
            };
            FlowWire::new(i as u32, transport)
        })
        .collect();
    Encoder::new(addresses, flows)
}
