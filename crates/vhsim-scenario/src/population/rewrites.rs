//! Where a generated entry came from: an error found when the expanded file is resolved
//! (`flows.u3.bulk.tcp.window`, `mobiles[7].anchor`, `timeline[12].to`) is reported at the
//! template key (`populations[0].flows.bulk.tcp.window`) with the mobile node's name.
//!
//! Nothing is recorded per generated entry: a population's entries are laid out by rule
//! (mobile node i's `[[mobiles]]` entry at a fixed offset plus i, its timeline entries and
//! agents in blocks of the template's length, its named entries `<node>.<key>`), so the rule is
//! run backwards on the one path of the error.

use crate::error::ScenarioError;

/// How one population's entries are laid out in the file's collections.
#[derive(Debug)]
pub(crate) struct Layout {
    /// The population's key path (`populations[0]`).
    pub path: String,
    /// Node name pattern (`u{i}`).
    pub pattern: String,
    /// Number of mobile nodes.
    pub count: u64,
    /// The template's named entries: (section, key), e.g. ("flows", "bulk").
    pub keys: Vec<(&'static str, String)>,
    /// Index of mobile node 0's entry in `mobiles`.
    pub mobiles: usize,
    /// Index of mobile node 0's first timeline entry, and entries per mobile node.
    pub timeline: (usize, usize),
    /// Index of mobile node 0's first agent, and agents per mobile node.
    pub agents: (usize, usize),
}

impl Layout {
    /// The node name of mobile node `i`.
    pub fn node(&self, i: u64) -> String {
        self.pattern.replace("{i}", &i.to_string())
    }

    /// The template path and mobile node of the generated path `path`, with the rest of it.
    fn origin<'p>(&self, path: &'p str) -> Option<(String, u64, &'p str)> {
        let template = |k: &str| format!("{}.{k}", self.path);
        if let Some((k, rest)) = indexed(path, "mobiles") {
            let i = k.checked_sub(self.mobiles).filter(|&i| i < self.count as usize)?;
            return Some((template("mobile"), i as u64, rest));
        }
        for (list, (first, per)) in [("timeline", self.timeline), ("agents", self.agents)] {
            if let Some((k, rest)) = indexed(path, list) {
                let at = k.checked_sub(first).filter(|&at| per > 0 && at < per * self.count as usize)?;
                return Some((template(&format!("{list}[{}]", at % per)), (at / per) as u64, rest));
            }
        }
        // Named entries: try each mobile node (only ever for the one path of an error).
        for i in 0..self.count {
            let node = self.node(i);
            for (section, key) in &self.keys {
                let generated = format!("{section}.{node}.{key}");
                if let Some(rest) = path.strip_prefix(generated.as_str()).filter(|r| boundary(r)) {
                    return Some((template(&format!("{section}.{key}")), i, rest));
                }
            }
        }
        None
    }
}

/// `path` = `<list>[k]<rest>`: k and the rest.
fn indexed<'p>(path: &'p str, list: &str) -> Option<(usize, &'p str)> {
    let tail = path.strip_prefix(list)?.strip_prefix('[')?;
    let (k, rest) = tail.split_once(']')?;
    Some((k.parse().ok()?, rest)).filter(|(_, rest)| boundary(rest))
}

/// Whether `rest` ends a path or starts a key or an index below it.
fn boundary(rest: &str) -> bool {
    rest.is_empty() || rest.starts_with(['.', '['])
}

/// The layouts of a file's populations.
#[derive(Debug, Default)]
pub(crate) struct Rewrites {
    pub(super) populations: Vec<Layout>,
}

impl Rewrites {
    /// `e` with its path moved from a generated entry to the template key it came from.
    pub(crate) fn apply(&self, mut e: ScenarioError) -> ScenarioError {
        if let Some((template, i, rest, layout)) =
            self.populations.iter().find_map(|l| l.origin(&e.path).map(|(t, i, r)| (t, i, r.to_owned(), l)))
        {
            e.path = format!("{template}{rest}");
            e.message = format!("{} (mobile node `{}`)", e.message, layout.node(i));
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_paths_go_back_to_their_template_and_mobile_node() {
        let layout = Layout {
            path: "populations[1]".into(),
            pattern: "u{i}".into(),
            count: 3,
            keys: vec![("flows", "bulk".into()), ("links", "umts".into())],
            mobiles: 2,
            timeline: (1, 2),
            agents: (0, 0),
        };
        let r = Rewrites { populations: vec![layout] };
        let at = |path: &str| {
            let e = r.apply(ScenarioError::new(path, "bad"));
            (e.path, e.message)
        };
        let named = |p: &str, n: &str| (p.to_owned(), format!("bad (mobile node `{n}`)"));
        assert_eq!(at("flows.u2.bulk.tcp.window"), named("populations[1].flows.bulk.tcp.window", "u2"));
        assert_eq!(at("links.u0.umts"), named("populations[1].links.umts", "u0"));
        assert_eq!(at("mobiles[3].anchor"), named("populations[1].mobile.anchor", "u1"));
        assert_eq!(at("timeline[6]"), named("populations[1].timeline[1]", "u2"));
        assert_eq!(at("timeline[2].to"), named("populations[1].timeline[1].to", "u0"));
        // The file's own entries stay where they are.
        for own in ["flows.u2.bulkier", "flows.u3.bulk", "mobiles[1]", "mobiles[5]", "timeline[0]", "timeline[7]", "agents[0]", "mobiles[2x]"] {
            assert_eq!(at(own), (own.to_owned(), "bad".to_owned()), "{own}");
        }
    }
}
