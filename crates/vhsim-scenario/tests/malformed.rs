//! Malformed scenarios: each is rejected with the key path and a message that says what is wrong,
//! and none panics.

use std::panic::catch_unwind;

/// A valid scenario every case starts from.
const BASE: &str = r#"duration = "300s"
[nodes.cn]
[nodes.r]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "1ms"
[links.access]
between = ["r", "mn"]
rate = "1Mbps"
delay = "10ms"
[flows.bulk]
from = "cn"
to = "mn"
"#;

/// Appended to BASE to make timeline cases.
const TIMELINE: &str = "[[timeline]]\nat = \"10s\"\naction = \"link_down\"\nlink = \"access\"\n\
                        [[timeline]]\nat = \"12s\"\naction = \"link_up\"\nlink = \"access\"\n";

/// (name, text to find in BASE, its replacement (or text to append when `find` is empty),
/// expected error path, phrase the message must contain).
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    ("unknown top-level key", "duration = \"300s\"", "duration = \"300s\"\ndurration = 1", "durration", "unknown field `durration`, expected one of"),
    ("unknown link key", "delay = \"1ms\"", "delay = \"1ms\"\nlimt = 3", "links.wired.limt", "unknown field `limt`"),
    ("unknown key in direction table", "", "[links.access.forward]\nrat = \"1Mbps\"", "links.access.forward.rat", "unknown field `rat`"),
    ("unknown key in tcp table", "", "[flows.bulk.tcp]\nwindw = \"20pkt\"", "flows.bulk.tcp.windw", "unknown field `windw`"),
    ("rate unit typo", "100Mbps", "100Mbs", "links.wired.rate", "unknown unit \"Mbs\""),
    ("zero rate", "100Mbps", "0Mbps", "links.wired.rate", "greater than zero"),
    ("negative rate", "100Mbps", "-1Mbps", "links.wired.rate", "negative"),
    ("zero queue", "delay = \"1ms\"", "delay = \"1ms\"\nqueue = \"0pkt\"", "links.wired.queue", "at least one packet"),
    ("queue without unit", "delay = \"1ms\"", "delay = \"1ms\"\nqueue = 100", "links.wired.queue", "without a unit"),
    ("negative delay", "\"1ms\"", "\"-1ms\"", "links.wired.delay", "negative"),
    ("delay without unit", "\"10ms\"", "\"9\"", "links.access.delay", "\"9\" has no unit; expected a duration like \"9ms\" (units: ns, us, ms, s, min)"),
    ("unknown node in link", "[\"cn\", \"r\"]", "[\"cn\", \"rr\"]", "links.wired.between[1]", "unknown node `rr` (nodes: `cn`, `r`, `mn`)"),
    ("unknown node in flow", "to = \"mn\"", "to = \"mm\"", "flows.bulk.to", "unknown node `mm`"),
    ("route to unknown node", "[nodes.r]", "[nodes.r]\nroutes = { xx = \"access\" }", "nodes.r.routes.xx", "unknown node `xx`"),
    ("route over unknown link", "[nodes.r]", "[nodes.r]\nroutes = { mn = \"acces\" }", "nodes.r.routes.mn", "unknown link `acces` (links: `wired`, `access`)"),
    ("route over a link not at the node", "[nodes.cn]", "[nodes.cn]\nroutes = { mn = \"access\" }", "nodes.cn.routes.mn", "does not leave node `cn`"),
    ("routing loop", "[nodes.r]", "[nodes.r]\nroutes = { mn = \"wired\" }", "flows.bulk", "routing loop"),
    ("between and from", "delay = \"1ms\"", "delay = \"1ms\"\nfrom = \"cn\"", "links.wired", "not both"),
    ("neither between nor from/to", "between = [\"cn\", \"r\"]", "", "links.wired", "needs `between = [a, b]`"),
    ("simplex without to", "between = [\"cn\", \"r\"]", "from = \"cn\"", "links.wired.to", "missing field `to`"),
    ("link to itself", "[\"cn\", \"r\"]", "[\"cn\", \"cn\"]", "links.wired.between", "two different nodes"),
    ("unknown scheme", "to = \"mn\"", "to = \"mn\"\nscheme = \"bbr\"", "flows.bulk.scheme", "unknown scheme `bbr` (schemes: `sack`"),
    ("unknown set of defaults", "duration = \"300s\"", "duration = \"300s\"\ndefaults = \"ns2\"", "defaults", "unknown variant `ns2`, expected `rfc` or `ns-2.35`"),
    ("set of defaults not a string", "duration = \"300s\"", "duration = \"300s\"\ndefaults = 2", "defaults", "expected one of `rfc`, `ns-2.35`"),
    ("unknown protocol", "to = \"mn\"", "to = \"mn\"\nprotocol = \"udp\"", "flows.bulk.protocol", "unknown variant `udp`, expected one of `tcp`, `datagram`, `sctp`"),
    ("timeline at the end", "", "[[timeline]]\nat = \"400s\"\naction = \"link_down\"\nlink = \"access\"", "timeline[2].at", "400s is not before the end of the run (duration 300s)"),
    ("timeline unknown link", "", "[[timeline]]\nat = \"1s\"\naction = \"link_up\"\nlink = \"wlan\"", "timeline[2].link", "unknown link `wlan`"),
    ("timeline unknown action", "", "[[timeline]]\nat = \"1s\"\naction = \"teleport\"\nlink = \"access\"", "timeline[2].action", "unknown variant `teleport`"),
    ("set_link without rate or delay", "", "[[timeline]]\nat = \"1s\"\naction = \"set_link\"\nlink = \"access\"", "timeline[2]", "needs `rate`, `delay` or both"),
    ("rate on link_down", "", "[[timeline]]\nat = \"1s\"\naction = \"link_down\"\nlink = \"access\"\nrate = \"1Mbps\"", "timeline[2].rate", "only allowed with action = \"set_link\""),
    ("missing duration", "duration = \"300s\"", "", "", "missing field `duration`"),
    ("missing rate", "rate = \"1Mbps\"", "", "links.access.rate", "missing field `rate`"),
    ("missing delay", "delay = \"10ms\"", "", "links.access.delay", "missing field `delay`"),
    ("missing flow from", "from = \"cn\"", "", "flows.bulk", "missing field `from`"),
    ("duration as a number", "\"300s\"", "5", "duration", "5 is a number without a unit"),
    ("duration as a boolean", "\"300s\"", "true", "duration", "invalid type: boolean `true`, expected a duration like"),
    ("zero duration", "\"300s\"", "\"0s\"", "duration", "longer than 0s"),
    ("bernoulli p above 1", "", "[links.access.forward]\nerror = { kind = \"bernoulli\", p = 1.5 }", "links.access.forward.error.p", "expected a number in [0, 1]"),
    ("bernoulli p missing", "", "[links.access.forward]\nerror = { kind = \"bernoulli\" }", "links.access.forward.error.p", "missing field `p`"),
    ("p on drop_list", "", "[links.access.error]\nkind = \"drop_list\"\nflow = \"bulk\"\nseqs = [1]\np = 0.5", "links.access.error.p", "only allowed with kind = \"bernoulli\""),
    ("drop_list unknown flow", "", "[links.access.error]\nkind = \"drop_list\"\nflow = \"bluk\"\nseqs = [1]", "links.access.error.flow", "unknown flow `bluk` (flows: `bulk`)"),
    ("unknown error kind", "", "[links.access.forward]\nerror = { kind = \"gilbert\" }", "links.access.forward.error.kind", "unknown variant `gilbert`, expected one of `none`, `bernoulli`, `drop_list`, `gilbert_elliott`, `gilbert_elliott_timed`, `time_window`"),
    ("gilbert_elliott p above 1", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 1.5, r = 0.1 }", "links.access.forward.error.p", "1.5 is not a probability; expected a number in [0, 1]"),
    ("gilbert_elliott r missing", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 0.01 }", "links.access.forward.error.r", "missing field `r`"),
    ("gilbert_elliott r negative", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 0.01, r = -0.1 }", "links.access.forward.error.r", "expected a number in [0, 1]"),
    ("gilbert_elliott loss_bad above 1", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 0.01, r = 0.1, loss_bad = 2.0 }", "links.access.forward.error.loss_bad", "expected a number in [0, 1]"),
    ("gilbert_elliott loss_good NaN", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 0.01, r = 0.1, loss_good = nan }", "links.access.forward.error.loss_good", "NaN is not a probability"),
    ("r on bernoulli", "", "[links.access.forward]\nerror = { kind = \"bernoulli\", p = 0.01, r = 0.1 }", "links.access.forward.error.r", "only allowed with kind = \"gilbert_elliott\""),
    ("good_duration on gilbert_elliott", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott\", p = 0.01, r = 0.1, good_duration = \"1s\" }", "links.access.forward.error.good_duration", "only allowed with kind = \"gilbert_elliott_timed\""),
    ("loss_good on bernoulli", "", "[links.access.forward]\nerror = { kind = \"bernoulli\", p = 0.01, loss_good = 0.1 }", "links.access.forward.error.loss_good", "only allowed with kind = \"gilbert_elliott\" or \"gilbert_elliott_timed\""),
    ("timed good_duration zero", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", good_duration = \"0s\" }", "links.access.forward.error.good_duration", "must be greater than 0s"),
    ("timed bad_duration zero", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", bad_duration = \"0ms\" }", "links.access.forward.error.bad_duration", "must be greater than 0s"),
    ("timed bad_duration negative", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", bad_duration = \"-100ms\" }", "links.access.forward.error.bad_duration", "negative values are not allowed"),
    ("timed p_bad above 1", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", p_bad = 1.01 }", "links.access.forward.error.p_bad", "expected a number in [0, 1]"),
    ("timed duration without unit", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", good_duration = 1 }", "links.access.forward.error.good_duration", "a number without a unit"),
    ("p on gilbert_elliott_timed", "", "[links.access.forward]\nerror = { kind = \"gilbert_elliott_timed\", p = 0.5 }", "links.access.forward.error.p", "only allowed with kind = \"bernoulli\", \"gilbert_elliott\" or \"time_window\""),
    ("time_window start after end", "", "[links.access.forward]\nerror = { kind = \"time_window\", p = 0.03, start = \"50s\", end = \"48s\" }", "links.access.forward.error.start", "start 50s must be before end 48s"),
    ("time_window start equals end", "", "[links.access.forward]\nerror = { kind = \"time_window\", p = 0.03, start = \"48s\", end = \"48s\" }", "links.access.forward.error.start", "start 48s must be before end 48s"),
    ("time_window end missing", "", "[links.access.forward]\nerror = { kind = \"time_window\", p = 0.03, start = \"48s\" }", "links.access.forward.error.end", "missing field `end`"),
    ("time_window p above 1", "", "[links.access.forward]\nerror = { kind = \"time_window\", p = 3, start = \"48s\", end = \"50s\" }", "links.access.forward.error.p", "3 is not a probability"),
    ("time_window both forms", "", "[links.access.forward]\nerror = { kind = \"time_window\", p = 0.03, windows = [{ p = 0.01, start = \"1s\", end = \"2s\" }] }", "links.access.forward.error.windows", "not both"),
    ("time_window no windows", "", "[links.access.forward]\nerror = { kind = \"time_window\", windows = [] }", "links.access.forward.error.windows", "at least one window is required"),
    ("time_window overlapping windows", "", "[links.access.forward]\nerror = { kind = \"time_window\", windows = [{ p = 0.01, start = \"10s\", end = \"20s\" }, { p = 0.01, start = \"5s\", end = \"11s\" }] }", "links.access.forward.error.windows[0]", "window [10s, 20s) overlaps windows[1] [5s, 11s)"),
    ("time_window window reversed", "", "[links.access.forward]\nerror = { kind = \"time_window\", windows = [{ p = 0.01, start = \"1s\", end = \"2s\" }, { p = 0.01, start = \"9s\", end = \"3s\" }] }", "links.access.forward.error.windows[1].start", "start 9s must be before end 3s"),
    ("time_window window p below 0", "", "[links.access.forward]\nerror = { kind = \"time_window\", windows = [{ p = -0.01, start = \"1s\", end = \"2s\" }] }", "links.access.forward.error.windows[0].p", "expected a number in [0, 1]"),
    ("time_window window unknown key", "", "[links.access.forward]\nerror = { kind = \"time_window\", windows = [{ q = 0.01, start = \"1s\", end = \"2s\" }] }", "links.access.forward.error.windows[0].q", "unknown field `q`, expected one of `p`, `start`, `end`"),
    ("start on bernoulli", "", "[links.access.forward]\nerror = { kind = \"bernoulli\", p = 0.01, start = \"1s\" }", "links.access.forward.error.start", "only allowed with kind = \"time_window\""),
    ("unknown arq kind", "", "[links.access.forward]\narq = { kind = \"selective_repeat\" }", "links.access.forward.arq.kind", "unknown variant `selective_repeat`, expected `none` or `stop_and_wait`"),
    ("arq retry_limit zero", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", retry_limit = 0, retry_delay = \"1ms\" }", "links.access.forward.arq.retry_limit", "must be at least 1: it counts all attempts"),
    ("arq retry_limit negative", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", retry_limit = -1, retry_delay = \"1ms\" }", "links.access.forward.arq.retry_limit", "invalid value: integer `-1`"),
    ("arq frame_loss above 1", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", frame_loss = 1.1, retry_delay = \"1ms\" }", "links.access.forward.arq.frame_loss", "expected a number in [0, 1]"),
    ("arq retry_delay missing", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", frame_loss = 0.1 }", "links.access.forward.arq.retry_delay", "missing field `retry_delay`"),
    ("arq retry_delay negative", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", retry_delay = \"-1ms\" }", "links.access.forward.arq.retry_delay", "negative values are not allowed"),
    ("arq backoff_max without unit", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", retry_delay = \"1ms\", backoff_max = 5 }", "links.access.forward.arq.backoff_max", "a number without a unit"),
    ("arq unknown key", "", "[links.access.forward]\narq = { kind = \"stop_and_wait\", retry_delay = \"1ms\", retries = 3 }", "links.access.forward.arq.retries", "unknown field `retries`"),
    ("arq field on kind none", "", "[links.access.forward]\narq = { kind = \"none\", retry_limit = 3 }", "links.access.forward.arq.retry_limit", "only allowed with kind = \"stop_and_wait\""),
    ("link-level arq retry_limit zero", "", "[links.access.arq]\nkind = \"stop_and_wait\"
retry_limit = 0
retry_delay = \"1ms\"", "links.access.arq.retry_limit", "must be at least 1"),
    ("unknown reorder kind", "", "[links.access.forward]\nreorder = { kind = \"shuffle\", q = 0.05 }", "links.access.forward.reorder.kind", "unknown variant `shuffle`, expected `none` or `swap`"),
    ("reorder depth zero", "", "[links.access.forward]\nreorder = { kind = \"swap\", q = 0.05, depth = 0 }", "links.access.forward.reorder.depth", "must be at least 1"),
    ("reorder q above 1", "", "[links.access.forward]\nreorder = { kind = \"swap\", q = 5.0 }", "links.access.forward.reorder.q", "5 is not a probability"),
    ("reorder q missing", "", "[links.access.forward]\nreorder = { kind = \"swap\", depth = 3 }", "links.access.forward.reorder.q", "missing field `q`"),
    ("reorder hold_timeout zero", "", "[links.access.forward]\nreorder = { kind = \"swap\", q = 0.05, hold_timeout = \"0s\" }", "links.access.forward.reorder.hold_timeout", "must be greater than 0s"),
    ("reorder field on kind none", "", "[links.access.forward]\nreorder = { kind = \"none\", depth = 3 }", "links.access.forward.reorder.depth", "only allowed with kind = \"swap\""),
    ("reorder unknown key", "", "[links.access.forward]\nreorder = { kind = \"swap\", q = 0.05, dept = 3 }", "links.access.forward.reorder.dept", "unknown field `dept`"),
    ("link-level reorder q above 1", "delay = \"10ms\"", "delay = \"10ms\"\nreorder = { kind = \"swap\", q = 1.5 }", "links.access.reorder.q", "expected a number in [0, 1]"),
    ("segment_size zero", "", "[flows.bulk.tcp]\nsegment_size = \"0B\"", "flows.bulk.tcp.segment_size", "at least 1B"),
    ("fractional bytes", "", "[flows.bulk.tcp]\nsegment_size = \"1.5B\"", "flows.bulk.tcp.segment_size", "whole number of bytes"),
    ("window zero", "", "[flows.bulk.tcp]\nwindow = \"0pkt\"", "flows.bulk.tcp.window", "at least 1pkt"),
    ("window below a segment", "", "[flows.bulk.tcp]\nwindow = \"500B\"", "flows.bulk.tcp.window", "less than one segment (segment_size 1000B)"),
    ("initial_window zero", "", "[flows.bulk.tcp]\ninitial_window = 0", "flows.bulk.tcp.initial_window", "at least 1pkt"),
    ("min_rto above max_rto", "", "[flows.bulk.tcp]\nmin_rto = \"100s\"", "flows.bulk.tcp.min_rto", "100s is greater than max_rto (60s)"),
    ("bad recovery name", "", "[flows.bulk.tcp]\nrecovery = \"sack\"", "flows.bulk.tcp.recovery", "expected one of `sack1`, `new_reno`, `reno`, `rfc6675`"),
    ("flow to itself", "to = \"mn\"", "to = \"cn\"", "flows.bulk.to", "two different nodes"),
    ("no route back", "between = [\"r\", \"mn\"]", "from = \"r\"\nto = \"mn\"", "flows.bulk", "no route from `mn` to `cn` for the ACKs"),
    ("stop before start", "to = \"mn\"", "to = \"mn\"\nstart = \"5s\"\nstop = \"5s\"", "flows.bulk.stop", "not after start"),
    ("goodput window reversed", "", "[metrics.windows]\nw = [\"20s\", \"10s\"]", "metrics.windows.w", "start 20s must be before end 10s"),
    ("goodput window past the end", "", "[metrics.windows]\nw = [\"0s\", \"301s\"]", "metrics.windows.w", "after the end of the run (duration 300s)"),
    ("no flows", "[flows.bulk]\nfrom = \"cn\"\nto = \"mn\"\n", "", "flows", "at least one flow is required"),
    ("negative seed", "duration = \"300s\"", "duration = \"300s\"\nseed = -1", "seed", "invalid value"),
    ("bad detail", "", "[output]\ndetail = \"everything\"", "output.detail", "expected one of `summary`, `timeseries`, `packets`"),
    ("reverse of a simplex link", "", "[links.extra]\nfrom = \"mn\"\nto = \"cn\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n[[timeline]]\nat = \"1s\"\naction = \"link_down\"\nlink = \"extra\"\ndirection = \"reverse\"", "timeline[2].direction", "no reverse direction"),
    ("TOML syntax error", "rate = \"1Mbps\"", "rate = 1Mbps", "", "TOML parse error at line"),
];

fn text_of(find: &str, replace: &str) -> String {
    let mut text = BASE.to_owned();
    if find.is_empty() {
        text.push_str(TIMELINE);
        text.push_str(replace);
    } else {
        assert!(text.contains(find), "case does not apply: {find:?}");
        text = text.replacen(find, replace, 1);
        text.push_str(TIMELINE);
    }
    text
}

#[test]
fn base_is_valid() {
    vhsim_scenario::load(&text_of("", ""), &[]).unwrap();
}

#[test]
fn malformed_scenarios_are_rejected_with_path_and_reason() {
    assert!(CASES.len() >= 20);
    for &(name, find, replace, path, phrase) in CASES {
        let text = text_of(find, replace);
        let result = catch_unwind(|| vhsim_scenario::load(&text, &[]));
        let Ok(result) = result else { panic!("{name}: load panicked") };
        let e = result.expect_err(name);
        assert_eq!(e.path, path, "{name}: {e}");
        assert!(e.message.contains(phrase), "{name}: message {:?} lacks {phrase:?}", e.message);
        let shown = e.to_string();
        assert!(if path.is_empty() { shown == e.message } else { shown.starts_with(&format!("{path}: ")) });
    }
}
