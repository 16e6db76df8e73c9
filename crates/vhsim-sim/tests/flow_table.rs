//! A run that returns its flows as a table (`RunOptions::flow_table_above`, issue #29) frees
//! each flow's state as its row is made: the table and the rest of the summary must be those of
//! the ordinary run.

use vhsim_sim::summary_table::Table;
use vhsim_sim::{run, run_with_options, RunOptions};

const STORM: &str = include_str!("../../../scenarios/examples/handover-storm.toml");

#[test]
fn the_table_and_the_summary_equal_those_of_an_ordinary_run() {
    // A mix of schemes (a loss classifier, cross-layer decisions, Freeze-TCP) and a goodput
    // window, so that the flows' summaries differ in shape.
    let set = |k: &str, v: &str| (k.to_string(), v.to_string());
    let overrides = [
        set("populations[0].count", "9"),
        set("populations[0].flows.bulk.scheme", r#"{ cycle = ["sack", "dcr-ld", "enhanced", "ftv2"] }"#),
        set("metrics.windows.early", r#"["5s", "15s"]"#),
        set("duration", "32s"),
    ];
    let sc = vhsim_scenario::load(STORM, &overrides).unwrap();
    let ordinary = run(&sc, None);
    let opts = RunOptions { flow_table_above: Some(3), ..RunOptions::default() };
    let tabled = run_with_options(&sc, None, &opts).unwrap();
    let table = tabled.flow_table.expect("more than 3 flows: a table");
    assert!(tabled.summary.flows.is_empty());
    assert_eq!(table.len(), 9);
    // Debug, not ==: NaN marks the gaps of float columns.
    assert_eq!(format!("{table:?}"), format!("{:?}", Table::of_flows(ordinary.summary.flows.clone())));
    let without_flows = |s: &vhsim_sim::RunSummary| {
        let mut s = s.clone();
        s.flows.clear();
        s.wall_s = 0.0;
        s.events_per_s = 0.0;
        s
    };
    assert_eq!(without_flows(&tabled.summary), without_flows(&ordinary.summary));
    // At or below the limit the flows stay in the summary.
    let opts = RunOptions { flow_table_above: Some(9), ..RunOptions::default() };
    let kept = run_with_options(&sc, None, &opts).unwrap();
    assert!(kept.flow_table.is_none() && kept.summary.flows.len() == 9);
}
