//! `--set KEY=VALUE` overrides applied through `load`.

use vhsim_core::{Rate, SimDuration, SimTime};
use vhsim_net::ErrorModelConfig;
use vhsim_scenario::{load, Action, Detail, Scenario, ScenarioError};

const BASE: &str = r#"duration = "300s"
[nodes.cn]
[nodes.mn]
[links.access]
between = ["cn", "mn"]
rate = "1Mbps"
delay = "10ms"
[flows.bulk]
from = "cn"
to = "mn"
[[timeline]]
at = "10s"
action = "set_link"
link = "access"
rate = "2Mbps"
"#;

fn with(sets: &[(&str, &str)]) -> Result<Scenario, ScenarioError> {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(BASE, &sets)
}

#[test]
fn sets_a_nested_value() {
    let s = with(&[("links.access.rate", "2Mbps"), ("links.access.forward.delay", "1.5ms")]).unwrap();
    assert_eq!((s.links[0].rate, s.links[1].rate), (Rate::mbps(2), Rate::mbps(2)));
    assert_eq!(
        (s.links[0].delay, s.links[1].delay),
        (SimDuration::from_micros(1_500), SimDuration::from_millis(10))
    );
}

#[test]
fn creates_missing_tables() {
    let s = with(&[("flows.bulk.tcp.window", "40pkt"), ("metrics.windows.w", "[\"0s\", \"1s\"]")]).unwrap();
    assert_eq!(s.flows[0].tcp().unwrap().window, 40);
    assert_eq!(s.metrics.windows[0].end, SimTime(1_000_000_000));
}

#[test]
fn parses_values() {
    let s = with(&[
        ("seed", "7"),                                                      // integer
        ("flows.bulk.sink.delayed_ack", "true"),                            // boolean
        ("name", "\"quoted name\""),                                        // TOML string
        ("output.detail", "packets"),                                       // plain string
        ("flows.bulk.tcp.min_rto", "1s"),                                   // string with a unit
        ("links.access.forward.error", "{kind = \"bernoulli\", p = 0.01}"), // inline table
        ("timeline[0].at", "5s"),
    ])
    .unwrap();
    assert_eq!((s.seed, s.name.as_str(), s.detail), (7, "quoted name", Detail::Packets));
    assert!(s.flows[0].sink().unwrap().delayed_ack);
    assert_eq!(s.flows[0].tcp().unwrap().min_rto, SimDuration::from_secs(1));
    assert_eq!(s.links[0].error, ErrorModelConfig::Bernoulli { p: 0.01 });
    assert_eq!(s.links[1].error, ErrorModelConfig::None);
    assert_eq!(s.timeline[0].at, SimTime(5_000_000_000));
}

#[test]
fn indexes_arrays_both_ways_and_later_wins() {
    let s = with(&[
        ("timeline.0.at", "6s"),
        ("timeline.0.delay", "20ms"),
        ("duration", "100s"),
        ("duration", "200s"),
    ])
    .unwrap();
    assert_eq!(s.timeline[0].at, SimTime(6_000_000_000));
    assert!(
        matches!(s.timeline[0].action, Action::SetLink { delay: Some(d), .. } if d == SimDuration::from_millis(20))
    );
    assert_eq!(s.duration, SimDuration::from_secs(200));
}

#[test]
fn rejects_bad_keys_with_their_path() {
    let cases = [
        ("flows.bulk.tcp.windw", "40pkt", "flows.bulk.tcp.windw", "unknown field `windw`"),
        ("links.access.rat", "2Mbps", "links.access.rat", "unknown field `rat`"),
        (
            "links.acess.rate",
            "2Mbps",
            "links.acess.rate",
            "no link named `acess` in the scenario (links: `access`)",
        ),
        ("timeline[0].att", "5s", "timeline[0].att", "unknown field `att`"),
        ("timeline[3].at", "5s", "timeline[3].at", "out of range"),
        ("duration.x", "1", "duration.x", "`duration` is a string, not a table"),
        ("", "1", "", "the key is empty"),
        ("flows..tcp", "1", "flows..tcp", "empty segment"),
        ("links.access.rate", "2", "links.access.rate", "2 is a number without a unit"),
        ("timeline[0].at", "400s", "timeline[0].at", "400s is not before the end of the run"),
    ];
    for (key, value, path, phrase) in cases {
        let e = with(&[(key, value)]).expect_err(key);
        assert_eq!(e.path, path, "{key}: {e}");
        assert!(e.message.contains(phrase), "{key}: {e}");
    }
}
