//! The JSON Schema, and the scenario files shipped with the repository.

use std::path::PathBuf;
use vhsim_core::Rate;
use vhsim_net::{ErrorModelConfig, QueueLimit};
use vhsim_scenario::{json_schema, load, Detail};

#[test]
fn json_schema_is_json_and_names_the_format() {
    let text = json_schema();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let props = v["properties"].as_object().unwrap();
    for key in ["duration", "nodes", "links", "flows", "timeline", "output", "metrics", "seed", "name"] {
        assert!(props.contains_key(key), "{key}");
    }
    assert_eq!(v["additionalProperties"], false);
    assert_eq!(v["required"], serde_json::json!(["duration"]));
    let duration = &v["$defs"]["Duration"];
    assert_eq!(duration["type"], "string");
    assert!(duration["pattern"].as_str().unwrap().contains("ms"));
    assert!(v["$defs"]["TcpConfig"]["properties"]["window"].is_object());
    assert!(v["$defs"]["RtoResponseConfig"]["anyOf"].is_array());
    assert!(!text.contains("null"), "TOML has no null");
}

fn repo_file(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn example_and_bench_files_load() {
    let s = load(&repo_file("scenarios/examples/bulk-3g.toml"), &[]).unwrap();
    assert_eq!((s.name.as_str(), s.seed, s.detail), ("bulk-3g", 1, Detail::Packets));
    assert_eq!((s.links[2].rate, s.links[2].queue), (Rate::kbps(384), QueueLimit::Packets(20)));
    assert_eq!((s.flows[0].tcp().unwrap().window, s.flows[0].tcp().unwrap().segment_size), (20, 1000));
    assert_eq!(s.metrics.windows.len(), 1);

    let b = load(&repo_file("benches/bulk-sack1.toml"), &[]).unwrap();
    assert_eq!(b.flows[0].tcp().unwrap().packet_size(), 1500);
    assert_eq!((b.links[2].rate, b.links[2].queue), (Rate::kbps(6400), QueueLimit::Packets(11)));
    assert!(b.flows[0].sink().unwrap().delayed_ack && b.flows[0].sink().unwrap().sack);
    assert_eq!(b.detail, Detail::Summary);

    let l = load(&repo_file("benches/bulk-sack1-loss1pct.toml"), &[]).unwrap();
    assert_eq!(l.links[2].name, "access/forward");
    assert_eq!(l.links[2].error, ErrorModelConfig::Bernoulli { p: 0.01 });
    assert_eq!(l.links[3].error, ErrorModelConfig::None);
    // Apart from the loss and the name, the two benches are the same scenario.
    let mut l2 = l.clone();
    l2.links[2].error = ErrorModelConfig::None;
    l2.name = b.name.clone();
    assert_eq!(l2, b);
}
