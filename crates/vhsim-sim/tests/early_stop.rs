//! `metrics.stop = "when_complete"` (issue #16 item 2): a run stops once every handover metric
//! and goodput window is determined, and reports them (and the links' drops in the handover
//! windows) exactly as a run to the end does.

use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::run;

fn scenario(file: &str, sets: &[(&str, &str)]) -> Scenario {
    let text = std::fs::read_to_string(format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load(&text, &sets).unwrap()
}

/// Run `file` to its end and with early stop; the handover metrics and windows must agree.
fn agrees(file: &str, sets: &[(&str, &str)]) -> Option<f64> {
    let full = run(&scenario(file, sets), Some(Detail::Summary)).summary;
    let mut stop_sets = sets.to_vec();
    stop_sets.push(("metrics.stop", "when_complete"));
    let early = run(&scenario(file, &stop_sets), Some(Detail::Summary)).summary;
    assert_eq!(full.stopped_at_s, None);
    for (name, f) in &full.flows {
        let e = &early.flows[name];
        assert_eq!(e.handovers, f.handovers, "{file} {sets:?}: handover metrics of {name}");
        assert_eq!(e.windows, f.windows, "{file} {sets:?}: goodput windows of {name}");
    }
    assert_eq!(early.handovers, full.handovers);
    for (name, f) in &full.links {
        assert_eq!(early.links[name].window_drops, f.window_drops, "{file} {sets:?}: window drops of {name}");
    }
    if let Some(t) = early.stopped_at_s {
        assert!(t < full.sim_s && early.sim_s == t);
        assert!(early.events < full.events);
    }
    early.stopped_at_s
}

#[test]
fn early_stop_reports_the_danielkojo_handover_metrics_of_a_full_run() {
    assert!(agrees("scenarios/danielkojo/fig08-mbb.toml", &[]).is_some());
    let sets = [("metrics.handover_window", "2s")];
    let t = agrees("scenarios/danielkojo/fig08-mbb.toml", &sets).unwrap();
    // It ends once the 100 segments after the handover (at 8.2 s) are acknowledged, the last
    // index to settle here, and before the 20 s of the full run.
    let ttn = run(&scenario("scenarios/danielkojo/fig08-mbb.toml", &sets), None).summary.flows["bulk"].handovers[0]
        .time_to_n_acked_s
        .unwrap();
    assert!(t >= 8.2 + ttn && t < 8.2 + ttn + 1.0, "{t} vs {ttn}");
    for scheme in ["regular", "enhanced"] {
        agrees("scenarios/danielkojo/fig08-bbm.toml", &[("flows.bulk.scheme", scheme)]);
        agrees("scenarios/danielkojo/base.toml", &[("flows.bulk.scheme", scheme), ("metrics.handover_window", "3s")]);
    }
}

#[test]
fn early_stop_reports_the_limjang_handover_metrics_of_a_full_run() {
    for scheme in ["sack", "dcr-frto-ld"] {
        for file in ["scenarios/limjang/wlan-to-3g.toml", "scenarios/limjang/3g-to-wlan.toml"] {
            let sets = [("flows.tcp.scheme", scheme), ("metrics.handover_window", "40s")];
            assert!(agrees(file, &sets).is_some(), "{file} {scheme}");
        }
    }
}

#[test]
fn a_run_whose_metrics_never_settle_goes_to_the_end() {
    // 100 new segments are never acknowledged when the new link stays down.
    let sets = [("metrics.stop", "when_complete"), ("flows.bulk.app", "{ kind = \"cbr\", rate = \"8kbps\" }")];
    let out = run(&scenario("scenarios/danielkojo/fig08-mbb.toml", &sets), Some(Detail::Summary));
    assert_eq!(out.summary.flows["bulk"].handovers[0].time_to_n_acked_s, None);
    assert_eq!(out.summary.stopped_at_s, None);
}
