//! Traffic keys of a flow: the CBR application (Sobral et al. §5) and `count`/`start_spread`
//! (Lim & Jang §5.1's cross traffic): resolution and every error naming its key.

use vhsim_core::{Rate, SimDuration, SimTime};
use vhsim_scenario::{load, AppModel, CbrModel, ScenarioError};

const BASE: &str = r#"
duration = "100s"
[nodes.a]
[nodes.b]
[links.ab]
between = ["a", "b"]
rate = "10Mbps"
delay = "10ms"
"#;

fn flows(text: &str) -> String {
    format!("{BASE}{text}\n")
}

fn cbr(s: &vhsim_scenario::Scenario, i: usize) -> CbrModel {
    match &s.flows[i].app {
        AppModel::Cbr(c) => CbrModel::clone(c),
        a => panic!("{a:?}"),
    }
}

#[test]
fn cbr_rate_gives_the_write_interval_of_one_segment() {
    let s = load(
        &flows("[flows.f]\nfrom = \"a\"\nto = \"b\"\napp = { kind = \"cbr\", rate = \"500kbps\" }"),
        &[],
    )
    .unwrap();
    let c = cbr(&s, 0);
    // 1000-byte segments (the preset's) at 500 kb/s: one write every 8000 b / 500 kb/s = 16 ms.
    assert_eq!((c.packet_size, c.segments_per_write, c.rate), (1000, 1, Some(Rate::kbps(500))));
    assert_eq!(c.interval, SimDuration::from_millis(16));
    assert_eq!(c.write_offset(3), SimDuration::from_millis(48));
    // A rate that does not divide evenly: offsets come from k * bits / rate, without drift.
    let s =
        load(&flows("[flows.f]\nfrom = \"a\"\nto = \"b\"\napp = { kind = \"cbr\", rate = \"3Mbps\" }"), &[])
            .unwrap();
    let c = cbr(&s, 0);
    assert_eq!(c.interval, SimDuration::from_nanos(2_666_666));
    assert_eq!(c.write_offset(3_000_000), SimDuration::from_secs(8_000));
}

#[test]
fn cbr_interval_and_packet_size() {
    let text = "[flows.f]\nfrom = \"a\"\nto = \"b\"\napp = { kind = \"cbr\", interval = \"2ms\", packet_size = \"1500B\" }";
    let s = load(&flows(text), &[]).unwrap();
    let c = cbr(&s, 0);
    // ns-2 sendmsg: a 1500-byte write makes ceil(1500 / 1000) = 2 segments available.
    assert_eq!(
        (c.packet_size, c.segments_per_write, c.rate, c.interval),
        (1500, 2, None, SimDuration::from_millis(2))
    );
    assert_eq!(c.write_offset(5), SimDuration::from_millis(10));
    // Bulk stays the default, and `{ kind = "bulk" }` is the same.
    let s = load(&flows("[flows.f]\nfrom = \"a\"\nto = \"b\"\napp = { kind = \"bulk\" }"), &[]).unwrap();
    assert_eq!(s.flows[0].app, AppModel::Bulk);
}

#[test]
fn count_makes_named_copies_with_a_start_spread() {
    let text = "[flows.study]\nfrom = \"a\"\nto = \"b\"\n\
                [flows.cross]\nfrom = \"a\"\nto = \"b\"\ncount = 3\nstart = \"2s\"\nstart_spread = \"1s\"\nscheme = \"newreno\"";
    let s = load(&flows(text), &[]).unwrap();
    let names: Vec<&str> = s.flows.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["study", "cross.0", "cross.1", "cross.2"]);
    assert!(s.flows[0].start_spread.is_none());
    for (i, f) in s.flows[1..].iter().enumerate() {
        assert_eq!((f.start, &*f.scheme), (SimTime(2_000_000_000), "newreno"));
        let sp = f.start_spread.as_ref().unwrap();
        assert_eq!(
            (sp.spread, sp.stream.as_str(), sp.draw),
            (SimDuration::from_secs(1), "flow/cross/start", i as u32)
        );
    }
    // count = 1 keeps the plain name; drop_list error models can name the copies.
    let text =
        "[flows.x]\nfrom = \"a\"\nto = \"b\"\ncount = 1\n[flows.y]\nfrom = \"a\"\nto = \"b\"\ncount = 2\n\
                [links.ab.forward]\nerror = { kind = \"drop_list\", flow = \"y.1\", seqs = [3] }";
    let s = load(&flows(text), &[]).unwrap();
    assert_eq!(s.flows.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["x", "y.0", "y.1"]);
}

fn error(text: &str) -> ScenarioError {
    match std::panic::catch_unwind(|| load(&flows(text), &[])) {
        Ok(Err(e)) => e,
        Ok(Ok(_)) => panic!("accepted: {text}"),
        Err(_) => panic!("panicked: {text}"),
    }
}

#[test]
fn malformed_traffic_keys_name_the_key() {
    let f = "[flows.f]\nfrom = \"a\"\nto = \"b\"\n";
    let cases: &[(&str, &str, &str)] = &[
        ("app = { kind = \"cbr\" }", "flows.f.app", "needs `rate`"),
        ("app = { kind = \"cbr\", rate = \"0kbps\" }", "flows.f.app.rate", "greater than zero"),
        ("app = { kind = \"cbr\", rate = \"-5kbps\" }", "flows.f.app.rate", "negative"),
        ("app = { kind = \"cbr\", rate = \"500kbs\" }", "flows.f.app.rate", "unknown unit"),
        (
            "app = { kind = \"cbr\", rate = \"500kbps\", interval = \"2ms\" }",
            "flows.f.app.interval",
            "either `rate` or `interval`",
        ),
        ("app = { kind = \"cbr\", interval = \"0s\" }", "flows.f.app.interval", "greater than 0s"),
        (
            "app = { kind = \"cbr\", rate = \"500kbps\", packet_size = \"0B\" }",
            "flows.f.app.packet_size",
            "at least 1B",
        ),
        (
            "app = { kind = \"cbr\", rate = \"100Gbps\", packet_size = \"1B\" }",
            "flows.f.app.rate",
            "less than 1ns apart",
        ),
        (
            "app = { kind = \"bulk\", rate = \"500kbps\" }",
            "flows.f.app.rate",
            "only allowed with kind = \"cbr\"",
        ),
        ("app = { kind = \"vbr\" }", "flows.f.app.kind", "unknown variant `vbr`"),
        ("count = 0", "flows.f.count", "at least 1"),
        ("count = -1", "flows.f.count", "invalid value"),
        ("start_spread = \"-1s\"", "flows.f.start_spread", "negative"),
        ("start = \"99s\"\nstart_spread = \"2s\"", "flows.f.start_spread", "ends after the end of the run"),
        ("start_spread = \"10s\"\nstop = \"5s\"", "flows.f.stop", "before the latest possible start"),
    ];
    for (extra, path, phrase) in cases {
        let e = error(&format!("{f}{extra}"));
        assert_eq!(e.path, *path, "{extra}: {e}");
        assert!(e.message.contains(phrase), "{extra}: {e} lacks {phrase:?}");
    }
    let e = error(&format!("{f}count = 2\n[flows.\"f.1\"]\nfrom = \"a\"\nto = \"b\""));
    assert_eq!(e.path, "flows.f.1");
    assert!(e.message.contains("flow `f.1` already exists"), "{e}");
}
