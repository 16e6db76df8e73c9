//! `[output]`: packet capture points (`output.pcap`) and their snap length.
//!
//! A capture point names link directions: `"<link>/forward"` or `"<link>/reverse"` (one
//! direction of a duplex link), `"<link>"` (both directions of a duplex link, or the one
//! direction of a simplex link), or `"all"`. The same rules serve the command line's `--pcap`
//! ([`capture_points`] with another key).

use crate::error::{err, list, Result};
use crate::model::{CapturePoint, LinkModel, PcapModel};
use crate::schema::OutputSpec;

/// Smallest snap length: an IPv4 header (20 bytes) plus the longest TCP header (60 bytes), so
/// every captured header is whole.
pub const MIN_SNAPLEN: u64 = 80;
/// Largest snap length: the largest IPv4 packet.
pub const MAX_SNAPLEN: u64 = 65_535;

/// The captures the file asks for (`None` when it names no capture point and no snap length).
pub(crate) fn resolve(spec: &OutputSpec, links: &[LinkModel]) -> Result<Option<PcapModel>> {
    let snaplen = spec
        .pcap_snaplen
        .map(|s| {
            if !(MIN_SNAPLEN..=MAX_SNAPLEN).contains(&s.0) {
                let msg = format!(
                    "{}B is outside {MIN_SNAPLEN}B..={MAX_SNAPLEN}B (the headers of a packet take up to \
                     {MIN_SNAPLEN}B; an IPv4 packet has at most {MAX_SNAPLEN}B)",
                    s.0
                );
                return Err(err("output.pcap_snaplen", msg));
            }
            Ok(s.0 as u32)
        })
        .transpose()?;
    if spec.pcap.is_empty() && snaplen.is_none() {
        return Ok(None);
    }
    let points = capture_points(links, &spec.pcap, |i| format!("output.pcap[{i}]"))?;
    Ok(Some(PcapModel { points, snaplen }))
}

/// Resolve capture point names against `links`; `key(i)` names entry `i` in errors. Returns
/// the link directions in id order, each once, with the key of the first entry naming it.
pub fn capture_points(links: &[LinkModel], entries: &[String], key: impl Fn(usize) -> String) -> Result<Vec<CapturePoint>> {
    let mut keys: Vec<Option<String>> = vec![None; links.len()];
    for (i, entry) in entries.iter().enumerate() {
        for l in directions(links, entry.trim()).map_err(|msg| err(key(i), msg))? {
            keys[l as usize].get_or_insert_with(|| key(i));
        }
    }
    let points: Vec<CapturePoint> = keys
        .into_iter()
        .enumerate()
        .filter_map(|(l, k)| k.map(|key| CapturePoint { link: l as u32, key }))
        .collect();
    check_file_names(links, &points)?;
    Ok(points)
}

/// The link directions one entry names, or what is wrong with it.
fn directions(links: &[LinkModel], entry: &str) -> std::result::Result<Vec<u32>, String> {
    if entry == "all" {
        return Ok((0..links.len() as u32).collect());
    }
    if let Some(l) = links.iter().position(|l| l.name == entry) {
        return Ok(vec![l as u32]);
    }
    // A duplex link's directions are `<link>/forward` and `<link>/reverse` (resolve::topology).
    let of_link = |name: &str| -> Vec<u32> {
        let dirs = [format!("{name}/forward"), format!("{name}/reverse")];
        (0..links.len() as u32).filter(|&l| dirs.contains(&links[l as usize].name)).collect()
    };
    let both = of_link(entry);
    if !both.is_empty() {
        return Ok(both);
    }
    if let Some((link, dir)) = entry.rsplit_once('/') {
        let dirs = of_link(link);
        if !dirs.is_empty() {
            let names: Vec<&str> = dirs.iter().map(|&l| &links[l as usize].name[link.len() + 1..]).collect();
            return Err(format!(
                "link `{link}` has no direction `{dir}` (its directions: {}; or `{link}` for both)",
                list(names)
            ));
        }
        if links.iter().any(|l| l.name == link) {
            return Err(format!("link `{link}` is simplex: it has one direction, captured as `{link}`"));
        }
    }
    if entry.is_empty() {
        return Err(format!("an empty name (expected a link direction, a link or `all`; {})", known(links)));
    }
    Err(format!("unknown link direction `{entry}` ({})", known(links)))
}

fn known(links: &[LinkModel]) -> String {
    if links.is_empty() {
        return "no links are defined".to_owned();
    }
    format!("link directions: {}; or a link name for both directions, or `all`", list(links.iter().map(|l| &l.name)))
}

/// Two link directions whose names map to the same file (`a-b/forward` and a simplex
/// `a-b-forward`) cannot both be captured.
fn check_file_names(links: &[LinkModel], points: &[CapturePoint]) -> Result<()> {
    for (i, a) in points.iter().enumerate() {
        let fa = CapturePoint::file_name(&links[a.link as usize].name);
        if let Some(b) = points[..i].iter().find(|b| CapturePoint::file_name(&links[b.link as usize].name) == fa) {
            let msg = format!(
                "link directions `{}` and `{}` would both be written to `{fa}`; rename one of the links",
                links[b.link as usize].name, links[a.link as usize].name
            );
            return Err(err(a.key.clone(), msg));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(output: &str) -> Result<crate::Scenario> {
        let text = format!(
            r#"
duration = "1s"
[nodes.a]
[nodes.b]
[links.ab]
between = ["a", "b"]
rate = "1Mbps"
delay = "1ms"
[links.up]
from = "a"
to = "b"
rate = "1Mbps"
delay = "1ms"
[flows.f]
from = "a"
to = "b"
[output]
{output}
"#
        );
        crate::load(&text, &[])
    }

    fn links(output: &str) -> Vec<(u32, String)> {
        let sc = scenario(output).unwrap();
        sc.pcap.unwrap().points.into_iter().map(|p| (p.link, p.key)).collect()
    }

    fn error(output: &str) -> String {
        scenario(output).unwrap_err().to_string()
    }

    #[test]
    fn names_resolve_to_link_directions_in_id_order_each_once() {
        assert_eq!(links(r#"pcap = ["ab/reverse"]"#), vec![(1, "output.pcap[0]".to_owned())]);
        assert_eq!(
            links(r#"pcap = ["up", "ab", "ab/forward"]"#),
            vec![(0, "output.pcap[1]".into()), (1, "output.pcap[1]".into()), (2, "output.pcap[0]".into())]
        );
        assert_eq!(links(r#"pcap = ["all"]"#).len(), 3);
        assert!(scenario("").unwrap().pcap.is_none());
        let sc = scenario(r#"pcap_snaplen = "128B""#).unwrap();
        assert_eq!(sc.pcap, Some(PcapModel { points: vec![], snaplen: Some(128) }));
    }

    #[test]
    fn bad_names_are_errors_naming_the_entry() {
        assert_eq!(
            error(r#"pcap = ["ab/forward", "cd/forward"]"#),
            "output.pcap[1]: unknown link direction `cd/forward` (link directions: `ab/forward`, `ab/reverse`, \
             `up`; or a link name for both directions, or `all`)"
        );
        assert_eq!(
            error(r#"pcap = ["ab/sideways"]"#),
            "output.pcap[0]: link `ab` has no direction `sideways` (its directions: `forward`, `reverse`; or `ab` for both)"
        );
        assert_eq!(
            error(r#"pcap = ["up/forward"]"#),
            "output.pcap[0]: link `up` is simplex: it has one direction, captured as `up`"
        );
        assert!(error(r#"pcap = [""]"#).starts_with("output.pcap[0]: an empty name"));
        assert!(error(r#"pcap = "all""#).starts_with("output.pcap: invalid type"));
        assert!(error(r#"pcap_snaplen = "40B""#).starts_with("output.pcap_snaplen: 40B is outside 80B..=65535B"));
        assert!(error(r#"pcap_snaplen = "1MB""#).starts_with("output.pcap_snaplen: 1000000B is outside"));
    }

    #[test]
    fn the_command_line_key_names_its_entries() {
        let sc = scenario("").unwrap();
        let e = crate::capture_points(&sc, &["nope".to_owned()], "--pcap").unwrap_err();
        assert!(e.to_string().starts_with("--pcap: unknown link direction `nope`"), "{e}");
        let p = crate::capture_points(&sc, &["ab".to_owned()], "--pcap").unwrap();
        assert_eq!(p.iter().map(|p| (p.link, p.key.as_str())).collect::<Vec<_>>(), vec![(0, "--pcap"), (1, "--pcap")]);
    }

    #[test]
    fn file_names_follow_link_directions_and_must_not_clash() {
        assert_eq!(CapturePoint::file_name("access/forward"), "access-forward.pcap");
        assert_eq!(CapturePoint::file_name("up"), "up.pcap");
        let text = r#"
duration = "1s"
[nodes.a]
[nodes.b]
[links.a-b]
between = ["a", "b"]
rate = "1Mbps"
delay = "1ms"
[links.a-b-forward]
from = "a"
to = "b"
rate = "1Mbps"
delay = "1ms"
[flows.f]
from = "a"
to = "b"
[output]
pcap = ["all"]
"#;
        let e = crate::load(text, &[]).unwrap_err().to_string();
        assert_eq!(
            e,
            "output.pcap[0]: link directions `a-b/forward` and `a-b-forward` would both be written to \
             `a-b-forward.pcap`; rename one of the links"
        );
    }
}
