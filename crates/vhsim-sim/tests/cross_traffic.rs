//! Cross traffic (Lim & Jang §5.1): `count` identical flows with random start times, sharing
//! the wired bottleneck.

use vhsim_scenario::{load, Scenario};
use vhsim_sim::{run, starts::start_times};

const WIRED: &str = r#"
duration = "20s"
[nodes.cn]
[nodes.r]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "20Mbps"
delay = "1ms"
queue = "30pkt"
[links.access]
between = ["r", "mn"]
rate = "10Mbps"
delay = "20ms"
[flows.study]
from = "cn"
to = "mn"
[flows.cross]
from = "cn"
to = "r"
count = 10
start_spread = "1s"
"#;

fn load_with(text: &str, seed: &str) -> Scenario {
    load(text, &[("seed".to_owned(), seed.to_owned())]).expect("valid scenario")
}

fn cross_starts(sc: &Scenario) -> Vec<u64> {
    let t = start_times(sc);
    sc.flows.iter().zip(t).filter(|(f, _)| f.name.starts_with("cross.")).map(|(_, t)| t.0).collect()
}

#[test]
fn count_10_gives_10_flows_with_distinct_starts_inside_the_spread() {
    let sc = load_with(WIRED, "1");
    let names: Vec<&str> = sc.flows.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.len(), 11);
    assert_eq!(names[1..], (0..10).map(|i| format!("cross.{i}")).collect::<Vec<_>>());
    let starts = cross_starts(&sc);
    assert!(starts.iter().all(|&t| t < 1_000_000_000), "{starts:?}");
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 10, "distinct: {starts:?}");
    assert_eq!(start_times(&sc)[0].0, 0, "the study flow has no spread");
}

#[test]
fn starts_depend_on_the_seed_only_not_on_other_flows() {
    let a = cross_starts(&load_with(WIRED, "1"));
    assert_eq!(a, cross_starts(&load_with(WIRED, "1")), "same seed, same starts");
    assert_ne!(a, cross_starts(&load_with(WIRED, "2")), "another seed, other starts");
    // Another flow before them in the file, with a spread of its own: the cross starts stay.
    let more = WIRED.replace(
        "[flows.study]",
        "[flows.other]\nfrom = \"cn\"\nto = \"r\"\ncount = 3\nstart_spread = \"1s\"\n[flows.study]",
    );
    let sc = load_with(&more, "1");
    assert_eq!(sc.flows.len(), 14);
    assert_eq!(a, cross_starts(&sc));
}

#[test]
fn cross_flows_share_the_bottleneck_and_overflow_its_queue() {
    let sc = load_with(WIRED, "1");
    let out = run(&sc, None);
    let s = &out.summary;
    let wired = &s.links["wired/forward"];
    assert!(wired.drops["queue_overflow"] > 0, "{wired:?}");
    for i in 0..10 {
        let f = &s.flows[&format!("cross.{i}")];
        assert!(f.delivered_bytes > 0, "cross.{i} delivers: {f:?}");
        assert!(f.start_s < 1.0);
    }
    let cross_drops: u64 = (0..10).map(|i| s.flows[&format!("cross.{i}")].drops["queue_overflow"]).sum();
    let study_drops = s.flows["study"].drops["queue_overflow"];
    assert_eq!(cross_drops + study_drops, wired.drops["queue_overflow"]);
}
