//! Packet captures through the world (`vhsim_sim::run_captured`): one file per captured link
//! direction, one record per frame the link put on the wire, and errors naming the key.

use std::path::PathBuf;
use vhsim_scenario::{load, CapturePoint, Detail};
use vhsim_sim::{run, run_captured};

/// a -> b over `ab` (10 Mb/s, 10 ms) with an ARQ'd, lossy forward direction; a TCP flow that
/// stops writing at 1.5 s, so the links are idle when the 3 s run ends.
const SCENARIO: &str = r#"
duration = "3s"
[nodes.a]
[nodes.b]
[links.ab]
between = ["a", "b"]
rate = "10Mbps"
delay = "10ms"
[links.ab.forward]
error = { kind = "bernoulli", p = 0.05 }
arq = { kind = "stop_and_wait", frame_loss = 0.2, retry_limit = 2, retry_delay = "1ms" }
[flows.f]
from = "a"
to = "b"
stop = "1.5s"
[output]
pcap = ["ab/forward"]
"#;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vhsim-pcap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_capture_records_each_frame_the_link_sent_once() {
    let sc = load(SCENARIO, &[]).unwrap();
    let dir = temp_dir("once");
    let extra = vhsim_scenario::capture_points(&sc, &["ab/reverse".to_owned()], "--pcap").unwrap();
    let out = run_captured(&sc, Some(Detail::Summary), &dir, &extra).unwrap();
    let links: Vec<(&str, u64)> = out.captures.iter().map(|c| (c.link.as_str(), c.packets)).collect();
    let sent = |l: &str| out.summary.links[l].packets_sent;
    // Frames whose fate was decided, each counted once whatever the ARQ retries: the same as
    // the frames captured at their first attempt, the links being idle at the end.
    assert_eq!(links, vec![("ab/forward", sent("ab/forward")), ("ab/reverse", sent("ab/reverse"))]);
    assert!(out.summary.links["ab/forward"].drops.get("error_model").copied().unwrap_or(0) > 0);
    for c in &out.captures {
        let bytes = std::fs::read(&c.path).unwrap();
        assert_eq!(&bytes[..4], &[0x4d, 0x3c, 0xb2, 0xa1], "nanosecond pcap");
        assert_eq!(c.path, dir.join(CapturePoint::file_name(&c.link)));
    }
    // Without a folder nothing is captured, and the run is the same.
    let plain = run(&sc, Some(Detail::Summary));
    assert!(plain.captures.is_empty());
    assert_eq!(plain.summary.flows["f"].delivered_bytes, out.summary.flows["f"].delivered_bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_folder_is_an_error_naming_the_key() {
    let sc = load(SCENARIO, &[]).unwrap();
    let dir = temp_dir("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, "").unwrap();
    let Err(e) = run_captured(&sc, None, &file.join("out"), &[]) else { panic!("a file is not a folder") };
    assert_eq!((e.key.as_str(), e.link.as_str()), ("output.pcap[0]", "ab/forward"));
    assert!(e.to_string().starts_with("output.pcap[0]: cannot write the capture of `ab/forward` to "), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
