//! Branched runs equal independent runs (issue #16 item 1): summaries and every trace
//! fingerprint identical, for grids of handover instants that include instants equal to other
//! events' times, break-before-make and pause handovers, random loss and cross traffic.

use vhsim_scenario::{load, Detail, Scenario};
use vhsim_sim::branch::{run_branches, varied_entry};
use vhsim_sim::fingerprint::fingerprint;
use vhsim_sim::run;

fn scenario(file: &str, sets: &[(&str, String)]) -> Scenario {
    let text = std::fs::read_to_string(format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    load(&text, &sets).unwrap()
}

/// Branch `file` over `instants` of `key` (with `sets`) and compare with independent runs.
fn branches_equal_independent_runs(file: &str, key: &str, instants: &[&str], sets: &[(&str, &str)]) {
    let scenarios: Vec<Scenario> = instants
        .iter()
        .map(|at| {
            let mut s: Vec<(&str, String)> = sets.iter().map(|(k, v)| (*k, v.to_string())).collect();
            s.push((key, at.to_string()));
            scenario(file, &s)
        })
        .collect();
    let branched = run_branches(&scenarios, Some(Detail::Packets)).expect("branchable");
    for (sc, b) in scenarios.iter().zip(&branched) {
        let alone = run(sc, Some(Detail::Packets));
        assert_eq!(fingerprint(b), fingerprint(&alone), "{file} {key}={:?} {sets:?}", sc.timeline);
        let (mut bs, mut al) = (b.summary.clone(), alone.summary.clone());
        bs.wall_s = 0.0;
        al.wall_s = 0.0;
        bs.events_per_s = 0.0;
        al.events_per_s = 0.0;
        assert_eq!(bs, al, "{file} {sets:?}");
    }
}

#[test]
fn danielkojo_make_before_break_branches_equal_independent_runs() {
    // 8.2 s is the file's own instant; 9 s and 12.4 s tie with flow events of the run.
    let at = "timeline[0].at";
    branches_equal_independent_runs("scenarios/danielkojo/fig08-mbb.toml", at, &["12.4s", "5s", "8.2s", "9s", "5s"], &[]);
    branches_equal_independent_runs("scenarios/danielkojo/fig08-mbb.toml", at, &["3s", "6.123456789s", "10s"], &[("flows.bulk.scheme", "enhanced"), ("metrics.handover_window", "2s")]);
}

#[test]
fn break_before_make_and_pause_branches_equal_independent_runs() {
    branches_equal_independent_runs("scenarios/danielkojo/fig08-bbm.toml", "timeline[0].at", &["6s", "10s", "20s"], &[("flows.bulk.scheme", "enhanced")]);
    let sets = [("duration", "120s"), ("metrics.handover_window", "20s")];
    branches_equal_independent_runs("scenarios/limjang/3g-to-wlan.toml", "timeline[0].at", &["20s", "41s", "60s"], &sets);
}

#[test]
fn random_loss_cross_traffic_and_warnings_branch_equal_independent_runs() {
    let sets = [("duration", "80s"), ("metrics.handover_window", "10s"), ("flows.tcp.scheme", "dcr-frto-ld")];
    branches_equal_independent_runs("scenarios/limjang/wlan-to-3g-congested.toml", "timeline[0].at", &["15s", "25s", "30s"], &sets);
    let warn = [("mobile.warning", "300ms"), ("metrics.stop", "when_complete")];
    branches_equal_independent_runs("scenarios/danielkojo/fig08-mbb.toml", "timeline[0].at", &["2s", "4s", "4.2s", "11s"], &warn);
}

#[test]
fn branches_with_a_fixed_horizon_after_each_instant_equal_independent_runs() {
    // Daniel & Kojo's campaigns: duration = instant + horizon.
    let file = "scenarios/danielkojo/base.toml";
    let mut scenarios = Vec::new();
    for (at, duration) in [("3s", "13s"), ("7.5s", "17.5s"), ("12s", "22s")] {
        scenarios.push(scenario(file, &[("timeline[0].at", at.into()), ("duration", duration.into())]));
    }
    let branched = run_branches(&scenarios, Some(Detail::Packets)).expect("branchable");
    for (sc, b) in scenarios.iter().zip(&branched) {
        let alone = run(sc, Some(Detail::Packets));
        assert_eq!(fingerprint(b), fingerprint(&alone), "{:?}", sc.duration);
        assert_eq!(b.summary.sim_s, alone.summary.sim_s);
    }
}

#[test]
fn scenarios_that_differ_in_more_than_one_time_are_not_branchable() {
    let a = scenario("scenarios/danielkojo/fig08-mbb.toml", &[("timeline[0].at", "5s".into())]);
    let b = scenario("scenarios/danielkojo/fig08-mbb.toml", &[("timeline[0].at", "6s".into()), ("seed", "2".into())]);
    assert!(varied_entry(&[a.clone(), b]).is_err());
    assert_eq!(varied_entry(&[a.clone(), a]), Ok(0));
}
