//! Links driven by recorded traces (`trace` tables): what resolves, and every bad trace or key
//! rejected with its key path (and a bad file's line).

use vhsim_core::Rate;
use vhsim_net::TraceDelivery;
use vhsim_scenario::{load, to_canonical_json, ScenarioError};

/// Two nodes, one duplex link whose table ends with `link`, one flow.
fn scenario(link: &str, extra: &str) -> String {
    format!(
        "duration = \"10s\"\n[nodes.a]\n[nodes.b]\n[links.ab]\nbetween = [\"a\", \"b\"]\ndelay = \"10ms\"\n{link}\n\
         [flows.f]\nfrom = \"a\"\nto = \"b\"\n{extra}"
    )
}

fn error(link: &str) -> ScenarioError {
    load(&scenario(link, ""), &[]).expect_err("rejected")
}

/// A file in a fresh temporary folder; its path.
fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("vhsim-trace-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_shipped_trace_drives_both_directions_at_its_mean_rate() {
    let s = load(&scenario("trace = { shipped = \"constant\" }", ""), &[]).unwrap();
    for l in &s.links {
        let t = l.trace.as_ref().expect("traced");
        assert_eq!((t.source.as_str(), t.opportunities, t.period_ms), ("shipped:constant", 1, 1));
        assert_eq!((t.opportunity_size, t.delivery), (1500, TraceDelivery::Burst));
        assert_eq!(l.rate, Rate::mbps(12), "1500 B a millisecond");
    }
    // The JSON names the trace by source and digest; the opportunities stay out of it.
    let json = to_canonical_json(&s);
    assert!(json.contains(r#""trace":{"source":"shipped:constant","digest":""#), "{json}");
    assert!(!json.contains("slots"));
}

#[test]
fn a_direction_table_picks_rate_or_trace_over_the_links() {
    let t = "rate = \"1Mbps\"\n[links.ab.forward]\ntrace = { shipped = \"3g-outages\", opportunity_size = \"1000B\", delivery = \"spread\" }";
    let s = load(&scenario(t, ""), &[]).unwrap();
    let fwd = s.links[0].trace.as_ref().expect("forward traced");
    assert_eq!((fwd.opportunity_size, fwd.delivery, fwd.period_ms), (1000, TraceDelivery::Spread, 60_000));
    assert_eq!(s.links[0].rate, Rate::bps(fwd.opportunities * 1000 * 8 * 1000 / 60_000));
    assert!(s.links[1].trace.is_none());
    assert_eq!(s.links[1].rate, Rate::mbps(1));
    // The other way round: a traced link with a rate on one direction.
    let t = "trace = { shipped = \"wlan-outages\" }\n[links.ab.reverse]\nrate = \"2Mbps\"";
    let s = load(&scenario(t, ""), &[]).unwrap();
    assert!(s.links[0].trace.is_some() && s.links[1].trace.is_none());
}

#[test]
fn a_trace_file_is_read_and_named_by_its_digest() {
    let path = file("ok.trace", "1\n1\n3\n");
    let s = load(&scenario(&format!("trace = {{ file = \"{path}\" }}"), ""), &[]).unwrap();
    let t = s.links[0].trace.as_ref().unwrap();
    assert_eq!((t.source.clone(), t.opportunities, t.period_ms), (format!("file:{path}"), 3, 3));
    assert_eq!(s.links[0].rate, Rate::mbps(12), "3 x 1500 B in 3 ms");
    let other = file("other.trace", "1\n2\n3\n");
    let o = load(&scenario(&format!("trace = {{ file = \"{other}\" }}"), ""), &[]).unwrap();
    assert_ne!(o.links[0].trace.as_ref().unwrap().digest, t.digest);
}

#[test]
fn bad_traces_name_the_key_the_file_and_the_line() {
    let cases = [
        ("letters", "1\n2\n3x\n", " line 3: `3x` is not a time: expected a whole number of milliseconds"),
        ("decimal", "1.5\n", " line 1: `1.5` is not a time: expected a whole number of milliseconds"),
        ("decreasing", "5\n6\n\n4\n", " line 4: 4 ms is before 6 ms on line 2: times must not decrease"),
        ("empty", "\n\n", ": no times: the trace is empty"),
        ("zero", "0\n0\n", ": every time is 0 ms: a trace must last at least 1 ms (it repeats after its last time)"),
    ];
    for (name, text, message) in cases {
        let path = file(&format!("{name}.trace"), text);
        let e = error(&format!("trace = {{ file = \"{path}\" }}"));
        assert_eq!(e.path, "links.ab.trace.file", "{name}");
        assert_eq!(e.message, format!("{path}{message}"), "{name}");
    }
    let path = file("binary.trace", "1\n2\n\u{0}\u{1}");
    std::fs::write(&path, [b'1', b'\n', 0xff, b'\n']).unwrap();
    assert!(error(&format!("trace = {{ file = \"{path}\" }}")).message.contains("line 2: not text"));
}

#[test]
fn bad_trace_keys_are_rejected_with_their_path() {
    let cases = [
        ("rate = \"1Mbps\"\ntrace = { shipped = \"constant\" }", "links.ab.trace", "give `rate` or `trace`, not both"),
        (
            "rate = \"1Mbps\"\n[links.ab.forward]\nrate = \"2Mbps\"\ntrace = { shipped = \"constant\" }",
            "links.ab.forward.trace",
            "not both",
        ),
        ("trace = { shipped = \"constant\", file = \"x\" }", "links.ab.trace.file", "not both"),
        ("trace = { delivery = \"burst\" }", "links.ab.trace", "missing field `shipped` or `file`"),
        ("trace = { shipped = \"lte\" }", "links.ab.trace.shipped", "unknown shipped trace `lte` (shipped: `3g-outages`"),
        ("trace = { file = \"/nonexistent/x.trace\" }", "links.ab.trace.file", "cannot read trace file `/nonexistent/x.trace`"),
        ("trace = { file = \"/\" }", "links.ab.trace.file", "it is a folder"),
        ("trace = { shipped = \"constant\", opportunity_size = \"0B\" }", "links.ab.trace.opportunity_size", "expected 1 B"),
        ("trace = { shipped = \"constant\", delivery = \"smooth\" }", "links.ab.trace.delivery", "unknown variant `smooth`"),
        ("trace = { shipped = \"constant\", mtu = 1 }", "links.ab.trace.mtu", "unknown field `mtu`"),
        ("", "links.ab.rate", "missing field `rate` (give `rate` or a recorded `trace`"),
    ];
    for (link, path, phrase) in cases {
        let e = error(link);
        assert_eq!(e.path, path, "{link}: {e}");
        assert!(e.message.contains(phrase), "{link}: {e}");
    }
}

#[test]
fn set_link_may_change_a_traced_directions_delay_but_not_its_rate() {
    let at = "[[timeline]]\nat = \"1s\"\naction = \"set_link\"\nlink = \"ab\"\n";
    let link = "trace = { shipped = \"constant\" }";
    assert!(load(&scenario(link, &format!("{at}delay = \"50ms\"\n")), &[]).is_ok());
    let e = load(&scenario(link, &format!("{at}rate = \"1Mbps\"\n")), &[]).unwrap_err();
    assert_eq!(e.path, "timeline[0].rate");
    assert!(e.message.contains("`ab/forward` follows a recorded trace"), "{e}");
}
