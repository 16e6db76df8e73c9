//! From a preset and a flow's overrides to a checked configuration.
//!
//! 1. The named set of defaults ([`TcpConfig::defaults`], [`SinkConfig::defaults`]) as TOML
//!    tables;
//! 2. the preset's `[tcp]` / `[sink]` tables merged over them, then the flow's own ([`merge`]);
//! 3. windows given in bytes converted to whole segments of the flow's `segment_size`; the RFC
//!    set's initial window and window, when neither table sets them, computed from it;
//! 4. deserialized (unknown keys are errors, with their key path) and validated.
//!
//! Keys that older scenario files used for axis options are reported with their new place
//! ([`LEGACY_KEYS`]).

use super::defaults::{rfc5681_initial_window, rfc_window};
use super::{ConfigError, Defaults, SinkConfig, TcpConfig};
use serde::Deserialize;
use toml::{Table, Value};
use vhsim_core::units::{Amount, AmountKind, Size};

/// Keys of the flat format before axes became tagged tables: (old key, where the option lives
/// now, how to write it).
pub const LEGACY_KEYS: &[(&str, &str, &str)] = &[
    ("newreno_timer", "recovery.timer", "recovery = { kind = \"new_reno\", timer = ... }"),
    ("frto_variant", "rto_response.variant", "rto_response = { kind = \"frto\", variant = ... }"),
    ("spurious_response", "rto_response.response", "rto_response = { kind = \"frto\", response = ... }"),
    ("dcr_trigger", "dupack_response.trigger", "dupack_response = { kind = \"dcr\", trigger = ... }"),
    ("dcr_tau", "dupack_response.tau", "dupack_response = { kind = \"dcr\", tau = ... }"),
    ("ld_k", "loss_classifier.k", "loss_classifier = { kind = \"ld\", k = ... }"),
    (
        "ld_suspend_rounds",
        "loss_classifier.suspend_rounds",
        "loss_classifier = { kind = \"ld\", suspend_rounds = ... }",
    ),
    (
        "ld_handover_reset",
        "loss_classifier.handover_reset",
        "loss_classifier = { kind = \"ld\", handover_reset = ... }",
    ),
    (
        "ld_initial_tdev",
        "loss_classifier.initial_tdev",
        "loss_classifier = { kind = \"ld\", initial_tdev = ... }",
    ),
    ("cross_layer", "handover", "handover = { kind = \"cross_layer\", a1 = ..., ... }"),
];

/// Merge `over` into `base`, key by key. Tables merge recursively; any other value replaces.
/// An axis (a table with `kind` in `base`) may be given as a bare kind (`"frto"` stands for
/// `{ kind = "frto" }`); a table of the same kind, or without `kind`, changes only the options
/// it gives, while one naming another kind replaces the axis, so that kind starts from its own
/// defaults. `kind` stays the first key of every axis table.
pub fn merge(base: &mut Table, over: &Table) {
    for (key, value) in over {
        let axis_kind = base.get(key).and_then(Value::as_table).and_then(|t| t.get("kind")).cloned();
        let value = match (value, &axis_kind) {
            (Value::String(kind), Some(_)) => {
                Value::Table(Table::from_iter([("kind".into(), kind.clone().into())]))
            }
            _ => value.clone(),
        };
        let same_kind = |o: &Table| o.get("kind").is_none_or(|k| Some(k) == axis_kind.as_ref());
        match (base.get_mut(key), value) {
            (Some(Value::Table(b)), Value::Table(o)) if axis_kind.is_none() || same_kind(&o) => merge(b, &o),
            (_, Value::Table(o)) if axis_kind.is_some() => {
                base.insert(key.clone(), Value::Table(kind_first(&o)));
            }
            (_, v) => {
                base.insert(key.clone(), v);
            }
        }
    }
}

/// A copy of an axis table with `kind` as its first key.
fn kind_first(t: &Table) -> Table {
    let mut out = Table::new();
    if let Some(k) = t.get("kind") {
        out.insert("kind".into(), k.clone());
    }
    out.extend(t.iter().filter(|(k, _)| *k != "kind").map(|(k, v)| (k.clone(), v.clone())));
    out
}

/// Whether the dotted `path` is set in `t` (or a prefix of it is set to a non-table).
fn has_path(t: &Table, path: &str) -> bool {
    let mut cur = t;
    for key in path.split('.') {
        match cur.get(key) {
            Some(Value::Table(next)) => cur = next,
            Some(_) => return true,
            None => return false,
        }
    }
    true
}

/// The resolved sender and sink configurations of a flow with the set of defaults `set`,
/// preset tables `preset_*` and the flow's own tables `user_*`. Error paths start with `tcp.`
/// or `sink.`.
pub fn resolve(
    set: Defaults,
    preset_tcp: &Table,
    preset_sink: &Table,
    user_tcp: &Table,
    user_sink: &Table,
) -> Result<(TcpConfig, SinkConfig), ConfigError> {
    for (old, new, example) in LEGACY_KEYS {
        if user_tcp.contains_key(*old) {
            return Err(ConfigError::new(
                format!("tcp.{old}"),
                format!("`{old}` is now `{new}` (write {example})"),
            ));
        }
    }
    let mut tcp = Table::try_from(TcpConfig::defaults(set)).expect("the defaults serialize");
    merge(&mut tcp, preset_tcp);
    merge(&mut tcp, user_tcp);
    let mut sink = Table::try_from(SinkConfig::defaults(set)).expect("the defaults serialize");
    merge(&mut sink, preset_sink);
    merge(&mut sink, user_sink);
    let segment_size = tcp.get("segment_size").and_then(|v| Size::deserialize(v.clone()).ok()).map(|s| s.0);
    if let Some(seg) = segment_size.filter(|&s| s > 0) {
        to_segments(&mut tcp, "window", [user_tcp, preset_tcp], seg, "tcp")?;
        to_segments(&mut sink, "advertised_window", [user_sink, preset_sink], seg, "sink")?;
        let seg = u32::try_from(seg).unwrap_or(u32::MAX);
        for (key, value) in [("initial_window", rfc5681_initial_window(seg)), ("window", rfc_window(seg))] {
            if set.derives(key) && ![user_tcp, preset_tcp].iter().any(|t| t.contains_key(key)) {
                tcp.insert(key.into(), Value::Integer(value.into()));
            }
        }
    }
    let tcp_cfg: TcpConfig = deserialize(tcp, "tcp", user_tcp)?;
    tcp_cfg.validate_blaming(&|k| has_path(user_tcp, k)).map_err(|e| e.under("tcp"))?;
    let sink_cfg: SinkConfig = deserialize(sink, "sink", user_sink)?;
    sink_cfg.validate().map_err(|e| e.under("sink"))?;
    Ok((tcp_cfg, sink_cfg))
}

impl TcpConfig {
    /// This configuration with `overrides` (keys of a `[tcp]` table) merged over it, as a
    /// flow's table merges over its preset's (error paths start with `tcp.`).
    pub fn merged(&self, overrides: &Table) -> Result<TcpConfig, ConfigError> {
        let base = Table::try_from(self).expect("a configuration serializes");
        // Every key of `base` is set, so the set of defaults fills none.
        resolve(Defaults::Rfc, &base, &Table::new(), overrides, &Table::new()).map(|(tcp, _)| tcp)
    }
}

/// A window (`key`) written by one of `sources` as a packet count or a size becomes whole
/// segments of `segment_size` bytes. A window nobody wrote keeps its default.
fn to_segments(
    merged: &mut Table,
    key: &str,
    sources: [&Table; 2],
    segment_size: u64,
    table: &str,
) -> Result<(), ConfigError> {
    if !sources.iter().any(|s| s.contains_key(key)) {
        return Ok(());
    }
    let Some(v) = merged.get(key) else { return Ok(()) };
    let path = format!("{table}.{key}");
    let amount =
        Amount::deserialize(v.clone()).map_err(|e| ConfigError::new(&path, e.message().trim_end()))?;
    let packets = match amount.0 {
        AmountKind::Packets(n) => n,
        AmountKind::Bytes(b) if b < segment_size => {
            return Err(ConfigError::new(
                path,
                format!(
                    "{b}B is less than one segment (segment_size {segment_size}B); use at least \
                     {segment_size}B or \"1pkt\""
                ),
            ))
        }
        AmountKind::Bytes(b) => b / segment_size,
    };
    let n =
        i64::try_from(packets).map_err(|_| ConfigError::new(&path, format!("{packets}pkt is too large")))?;
    merged.insert(key.into(), Value::Integer(n));
    Ok(())
}

/// Deserialize a merged table, turning an error into one with its key path under `table`. An
/// error in the kind of an axis the user gave as a bare kind (`recovery = "sack"`) is reported
/// at the axis key, where the user wrote it.
fn deserialize<T: serde::de::DeserializeOwned>(
    t: Table,
    table: &str,
    user: &Table,
) -> Result<T, ConfigError> {
    serde_path_to_error::deserialize(Value::Table(t)).map_err(|e| {
        use serde_path_to_error::Segment;
        let segs: Vec<&Segment> = e.path().iter().collect();
        let bare_kind = match segs.as_slice() {
            [Segment::Map { key: axis }, Segment::Map { key: k }] if k == "kind" => {
                user.get(axis).is_some_and(Value::is_str)
            }
            _ => false,
        };
        let mut path = table.to_owned();
        for seg in &segs[..segs.len() - usize::from(bare_kind)] {
            match seg {
                Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    path.push('.');
                    path.push_str(key);
                }
                Segment::Unknown => path.push_str(".?"),
            }
        }
        ConfigError::new(path, e.inner().message().trim_end())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn axes_merge_by_kind_and_scalars_replace() {
        let mut base = t("window = \"20pkt\"\nrto_response = { kind = \"frto\", variant = \"sack\", response = \"full_revert\" }");
        merge(&mut base, &t("window = \"40pkt\"\nrto_response = { response = \"ssthresh\" }"));
        assert_eq!(base, t("window = \"40pkt\"\nrto_response = { kind = \"frto\", variant = \"sack\", response = \"ssthresh\" }"));
        // The same kind, bare: the options stay.
        merge(&mut base, &t("rto_response = \"frto\""));
        assert_eq!(base["rto_response"]["variant"].as_str(), Some("sack"));
        // Another kind replaces the table, kind first.
        merge(&mut base, &t("rto_response = { response = \"x\", kind = \"conventional\" }"));
        assert_eq!(base["rto_response"], t("kind = \"conventional\"\nresponse = \"x\"").into());
        assert_eq!(base["rto_response"].as_table().unwrap().keys().next().map(String::as_str), Some("kind"));
        merge(&mut base, &t("rto_response = \"frto\""));
        assert_eq!(base["rto_response"], t("kind = \"frto\"").into());
        // A value of the wrong type replaces whatever was there (and is reported when read).
        merge(&mut base, &t("rto_response = 3"));
        assert_eq!(base["rto_response"].as_integer(), Some(3));
    }

    #[test]
    fn windows_in_bytes_become_whole_segments_and_bare_integers_are_refused() {
        let empty = Table::new();
        let (tcp, sink) = resolve(
            Defaults::Rfc,
            &empty,
            &empty,
            &t("segment_size = \"1460B\"\nwindow = \"64000B\""),
            &t("advertised_window = \"14600B\""),
        )
        .unwrap();
        assert_eq!((tcp.window, sink.advertised_window), (43, 10));
        let e = resolve(Defaults::Rfc, &empty, &empty, &t("window = 20"), &empty).unwrap_err();
        assert_eq!(e.path, "tcp.window");
        assert!(e.message.contains("20 is a number without a unit"), "{e}");
    }

    #[test]
    fn the_rfc_set_derives_the_initial_window_and_window_from_the_segment_size() {
        let empty = Table::new();
        let get = |set, user: &str| resolve(set, &empty, &empty, &t(user), &empty).unwrap().0;
        // 1000-byte segments: RFC 5681 §3.1 gives 4, and 65535 B hold 65 of them.
        let c = get(Defaults::Rfc, "");
        assert_eq!((c.segment_size, c.initial_window, c.window), (1000, 4, 65));
        let c = get(Defaults::Rfc, "segment_size = \"1460B\"");
        assert_eq!((c.initial_window, c.window), (3, 44));
        // A key the flow sets wins.
        let c = get(Defaults::Rfc, "segment_size = \"1000B\"\ninitial_window = \"2pkt\"\nwindow = \"20pkt\"");
        assert_eq!((c.initial_window, c.window), (2, 20));
        // ns-2.35's set derives nothing.
        let c = get(Defaults::Ns2_35, "segment_size = \"1460B\"");
        assert_eq!((c.initial_window, c.window), (2, 20));
    }
}
