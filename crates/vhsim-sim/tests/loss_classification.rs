//! Ground truth of loss-classifier decisions (issue #5 item 5): every LD verdict is compared with
//! what really happened to the segment.

use vhsim_scenario::{load, Detail};
use vhsim_sim::run;

fn path(queue: &str, error: &str) -> String {
    format!(
        r#"
duration = "120s"
[nodes.cn]
[nodes.mn]
[links.path]
between = ["cn", "mn"]
rate = "2Mbps"
delay = "50ms"
queue = "{queue}"
[links.path.forward]
error = {error}
[flows.bulk]
from = "cn"
to = "mn"
scheme = "dcr-ld"
[flows.bulk.tcp]
window = "200pkt"
"#
    )
}

fn cell(f: &vhsim_sim::summary::FlowSummary, key: &str) -> f64 {
    let json = serde_json::to_value(f.loss_classification.as_ref().expect("a classifier")).unwrap();
    json[key].as_f64().unwrap_or(f64::NAN)
}

#[test]
fn wireless_losses_are_judged_against_the_error_model_and_queue_drops_against_congestion() {
    // Only wireless losses: a queue far larger than the window can fill.
    let sc = load(&path("1000pkt", r#"{ kind = "bernoulli", p = 0.01 }"#), &[]).unwrap();
    let out = run(&sc, Some(Detail::Summary));
    let f = &out.summary.flows["bulk"];
    assert!(f.drops["error_model"] > 0 && f.drops["queue_overflow"] == 0);
    assert_eq!(cell(f, "ld_congestion_as_congestion") + cell(f, "ld_congestion_as_wireless"), 0.0);
    let wireless = cell(f, "ld_wireless_as_congestion") + cell(f, "ld_wireless_as_wireless");
    assert!(wireless > 0.0, "{:?}", f.loss_classification);
    assert!(cell(f, "ld_decisions") >= wireless);
    let acc = cell(f, "ld_accuracy");
    assert!((0.0..=1.0).contains(&acc));
    assert_eq!(acc, cell(f, "ld_wireless_as_wireless") / (wireless + cell(f, "ld_link_down_as_congestion") + cell(f, "ld_link_down_as_wireless")));

    // Only congestion losses: no error model, a small queue.
    let sc = load(&path("10pkt", r#"{ kind = "none" }"#), &[]).unwrap();
    let out = run(&sc, Some(Detail::Summary));
    let f = &out.summary.flows["bulk"];
    assert!(f.drops["queue_overflow"] > 0 && f.drops["error_model"] == 0);
    assert_eq!(cell(f, "ld_wireless_as_congestion") + cell(f, "ld_wireless_as_wireless"), 0.0);
    assert!(cell(f, "ld_congestion_as_congestion") + cell(f, "ld_congestion_as_wireless") > 0.0);
}

#[test]
fn senders_without_a_classifier_report_no_classification() {
    let sc = load(&path("10pkt", r#"{ kind = "none" }"#).replace("dcr-ld", "sack"), &[]).unwrap();
    let out = run(&sc, Some(Detail::Summary));
    assert!(out.summary.flows["bulk"].loss_classification.is_none());
}
