//! Error models, link-layer ARQ and reordering resolve per direction with their defaults
//! (docs/link-models.md; docs/references.md §12, §14).

use vhsim_core::{SimDuration, SimTime};
use vhsim_net::{ArqConfig, ErrorModelConfig, LossWindow, ReorderConfig};
use vhsim_scenario::{load, to_canonical_json};

const TEXT: &str = r#"
duration = "100s"
[nodes.cn]
[nodes.r]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "20Mbps"
delay = "1ms"
forward.error = { kind = "time_window", windows = [{ p = 0.01, start = "20s", end = "21s" }, { p = 0.03, start = "48s", end = "50s" }] }
reverse.error = { kind = "time_window", p = 0.03, start = "48s", end = "50s" }
[links.wlan]
between = ["r", "mn"]
rate = "10Mbps"
delay = "20ms"
error = { kind = "gilbert_elliott_timed" }
arq = { kind = "stop_and_wait", frame_loss = 0.1, retry_delay = "1ms" }
reverse.arq = { kind = "none" }
reverse.error = { kind = "gilbert_elliott", p = 0.01, r = 0.1 }
[links.umts]
from = "r"
to = "mn"
rate = "1Mbps"
delay = "200ms"
error = { kind = "bernoulli", p = 0.005 }
reorder = { kind = "swap", q = 0.05 }
[nodes.r.routes]
mn = "wlan"
[flows.bulk]
from = "cn"
to = "mn"
"#;

#[test]
fn link_models_resolve_per_direction_with_defaults() {
    let s = load(TEXT, &[]).unwrap();
    let secs = |x: u64| SimTime(x * 1_000_000_000);
    let names: Vec<&str> = s.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["wired/forward", "wired/reverse", "wlan/forward", "wlan/reverse", "umts"]);

    let w = |p, a, b| LossWindow { p, start: secs(a), end: secs(b) };
    assert_eq!(
        s.links[0].error,
        ErrorModelConfig::TimeWindow { windows: vec![w(0.01, 20, 21), w(0.03, 48, 50)] }
    );
    assert_eq!(s.links[1].error, ErrorModelConfig::TimeWindow { windows: vec![w(0.03, 48, 50)] });

    // Lim & Jang's WLAN by default (§5.1, Table 1).
    let lj = ErrorModelConfig::GilbertElliottTimed {
        good_duration: SimDuration::from_secs(1),
        bad_duration: SimDuration::from_millis(100),
        p_bad: 0.5,
        loss_good: 0.001,
        loss_bad: 0.1,
    };
    assert_eq!(s.links[2].error, lj);
    let sw = ArqConfig::StopAndWait {
        frame_loss: 0.1,
        retry_limit: 4,
        retry_delay: SimDuration::from_millis(1),
        backoff_max: SimDuration::ZERO,
    };
    assert_eq!(s.links[2].arq, Some(sw));
    assert_eq!(s.links[3].arq, None, "reverse.arq = none overrides the link's ARQ");
    let ge = ErrorModelConfig::GilbertElliott { p: 0.01, r: 0.1, loss_good: 0.0, loss_bad: 1.0 };
    assert_eq!(s.links[3].error, ge);

    assert_eq!(s.links[4].error, ErrorModelConfig::Bernoulli { p: 0.005 });
    assert_eq!(s.links[4].reorder, Some(ReorderConfig::Swap { q: 0.05, depth: 1, hold_timeout: None }));
    assert!(s.links[..4].iter().all(|l| l.reorder.is_none()));
}

#[test]
fn directions_without_arq_or_reordering_keep_their_canonical_json() {
    let s = load(TEXT, &[]).unwrap();
    let json = to_canonical_json(&s);
    assert_eq!(json.matches("\"arq\"").count(), 1, "{json}");
    assert_eq!(json.matches("\"reorder\"").count(), 1);
}

#[test]
fn overrides_reach_the_new_keys() {
    let set = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    let s = load(
        TEXT,
        &[
            set("links.umts.reorder.depth", "3"),
            set(
                "links.wlan.forward.arq",
                "{ kind = \"stop_and_wait\", retry_limit = 7, retry_delay = \"2ms\" }",
            ),
        ],
    )
    .unwrap();
    assert_eq!(s.links[4].reorder, Some(ReorderConfig::Swap { q: 0.05, depth: 3, hold_timeout: None }));
    let Some(ArqConfig::StopAndWait { retry_limit, frame_loss, .. }) = s.links[2].arq else { panic!() };
    assert_eq!((retry_limit, frame_loss), (7, 0.0));
    let e = load(TEXT, &[set("links.umts.reorder.depth", "0")]).unwrap_err();
    assert_eq!(e.path, "links.umts.reorder.depth");
}
