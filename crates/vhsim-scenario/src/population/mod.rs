//! Populations: `count` mobile nodes written once (docs/scenario-format.md "Populations").
//!
//! `[[populations]]` is taken out of the parsed TOML document, after the overrides, and the
//! rest of the file is read first; then each population is expanded, mobile node by mobile
//! node, straight into the file's collections (`ScenarioFile`), as the entries a hand-written
//! file would have: mobile node i gets node `<node pattern with {i}>` (default `<name>{i}`), a
//! `[[mobiles]]` entry from the `mobile` template, and the template's `nodes`, `links` and
//! `flows` named `<node>.<key>`, its `timeline` entries (a handover's `mobile` defaults to the
//! node) and its `agents` (whose `node` defaults to the node). In every string of the templates
//! `{i}` becomes the index and `{node}` the node's name; a table with one generator key
//! (`cycle`, `spread`, `uniform`, `poisson`; [`generators`]) becomes mobile node i's value.
//! Each generated table exists as TOML only while it is read into its typed entry, so the
//! document never holds a table per mobile node (issue #29: that was 2.5 KB per member, the
//! peak of loading). Generated entries follow the file's own, mobile node by mobile node
//! within each collection, so a population equals the file that writes its expansion out
//! (tested by fingerprint).
//!
//! Errors in the population's own keys name them (`populations[0].count`); an error in a
//! generated table is reported at the template key it came from, naming the mobile node
//! (`populations[0].flows.bulk.start (mobile node `u3`)`), whether it is found while the
//! table is read or later, when the file is resolved (`flows.u3.bulk.tcp.window` becomes
//! `populations[0].flows.bulk.tcp.window`: [`Rewrites::apply`], which recomputes where a
//! generated entry came from instead of keeping a record per entry).

mod generators;
mod rewrites;

use crate::error::{err, join, Result};
use crate::schema::{NodeSpec, ScenarioFile};
use indexmap::IndexMap;
pub(crate) use rewrites::Rewrites;
use rewrites::Layout;
use schemars::JsonSchema;
use serde::Deserialize;
use toml::{Table, Value};
use vhsim_core::RngStreams;

/// A table of the template (any keys: they are checked once expanded).
type Template = serde_json::Map<String, serde_json::Value>;

/// A population of mobile nodes: `count` copies of a template.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PopulationSpec {
    /// Name of the population (random streams of its generators: `population/<name>/...`).
    pub name: String,
    /// Number of mobile nodes (>= 1).
    pub count: u64,
    /// Node name of mobile node i, with `{i}` (default "<name>{i}").
    pub node: Option<String>,
    /// Template of each mobile node's `[mobile]` table, without `node`.
    #[schemars(with = "Template")]
    pub mobile: Table,
    /// Nodes of each mobile node's own (named `<node>.<key>`).
    #[serde(default)]
    #[schemars(with = "Template")]
    pub nodes: Table,
    /// Links of each mobile node's own, e.g. its 3G link (named `<node>.<key>`).
    #[serde(default)]
    #[schemars(with = "Template")]
    pub links: Table,
    /// Flows of each mobile node (named `<node>.<key>`).
    #[serde(default)]
    #[schemars(with = "Template")]
    pub flows: Table,
    /// Timeline entries of each mobile node (a handover's `mobile` defaults to it).
    #[serde(default)]
    #[schemars(with = "Vec<Template>")]
    pub timeline: Vec<Table>,
    /// Node agents of each mobile node (`node` defaults to it).
    #[serde(default)]
    #[schemars(with = "Vec<Template>")]
    pub agents: Vec<Table>,
}

/// Expand `populations` (the document's `populations` array, if any) into `file`'s
/// collections; random values are drawn with `seed`, or the file's. Returns how to report a
/// later error in a generated entry at its template ([`Rewrites::apply`]).
pub(crate) fn expand(populations: Option<Value>, file: &mut ScenarioFile, seed: Option<u64>) -> Result<Rewrites> {
    let mut rewrites = Rewrites::default();
    let Some(list) = populations else { return Ok(rewrites) };
    let Value::Array(list) = list else { return Err(err("populations", "expected an array of tables ([[populations]])")) };
    let streams = RngStreams::new(seed.or(file.seed).unwrap_or(1));
    for (p, value) in list.into_iter().enumerate() {
        let path = format!("populations[{p}]");
        let spec: PopulationSpec = serde_path_to_error::deserialize(value).map_err(|e| {
            let inner = crate::deserialize_error(e);
            err(join(&path, &inner.path), inner.message)
        })?;
        rewrites.populations.push(population(file, &spec, path, &streams)?);
    }
    Ok(rewrites)
}

/// `value` (generated for mobile node `node` from the template at `template`) read as a `T`;
/// an error is reported at the template key, naming the mobile node.
fn read<T: serde::de::DeserializeOwned>(value: Value, template: &str, node: &str) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = crate::deserialize_error(e);
        let path = if inner.path.is_empty() { template.to_owned() } else { join(template, &inner.path) };
        err(path, format!("{} (mobile node `{node}`)", inner.message))
    })
}

fn population(file: &mut ScenarioFile, spec: &PopulationSpec, path: String, streams: &RngStreams) -> Result<Layout> {
    let p = |k: &str| join(&path, k);
    if spec.count == 0 {
        return Err(err(p("count"), "must be at least 1 (the number of mobile nodes)"));
    }
    let pattern = spec.node.clone().unwrap_or_else(|| format!("{}{{i}}", spec.name));
    if spec.count > 1 && !pattern.contains("{i}") {
        return Err(err(p("node"), format!("\"{pattern}\" has no `{{i}}`: every mobile node needs its own name")));
    }
    if spec.mobile.contains_key("node") {
        return Err(err(p("mobile.node"), "the population names its mobile nodes (`node`, a pattern with {i})"));
    }
    let draws = generators::Draws { streams, population: &spec.name, count: spec.count };
    // The generators' values, by template path, each drawn once for all mobile nodes.
    let sections: [(&str, Value); 6] = [
        ("mobile", Value::Table(spec.mobile.clone())),
        ("nodes", Value::Table(spec.nodes.clone())),
        ("links", Value::Table(spec.links.clone())),
        ("flows", Value::Table(spec.flows.clone())),
        ("timeline", Value::Array(spec.timeline.iter().cloned().map(Value::Table).collect())),
        ("agents", Value::Array(spec.agents.iter().cloned().map(Value::Table).collect())),
    ];
    let mut drawn = IndexMap::new();
    for (key, v) in &sections {
        find_generators(v, &p(key), key, &draws, &mut drawn)?;
    }
    let keys = |section: &'static str, t: &Table| t.keys().map(move |k| (section, k.clone())).collect::<Vec<_>>();
    let layout = Layout {
        keys: [keys("nodes", &spec.nodes), keys("links", &spec.links), keys("flows", &spec.flows)].concat(),
        mobiles: file.mobiles.len(),
        timeline: (file.timeline.len(), spec.timeline.len()),
        agents: (file.agents.len(), spec.agents.len()),
        pattern,
        count: spec.count,
        path,
    };
    let count = spec.count as usize;
    // Exactly: a map's `reserve` rounds its entries up to its hash table's capacity, up to 75%
    // more entries than the members need, and these entries are the peak of a large population's
    // loading (issue #29, memory per flow).
    file.nodes.reserve_exact(count * (1 + spec.nodes.len()));
    file.links.reserve_exact(count * spec.links.len());
    file.flows.reserve_exact(count * spec.flows.len());
    file.mobiles.reserve(count);
    file.timeline.reserve(count * spec.timeline.len());
    file.agents.reserve(count * spec.agents.len());
    let p = |k: &str| join(&layout.path, k);
    for i in 0..spec.count {
        let node = layout.node(i);
        if file.nodes.contains_key(&node) {
            return Err(err(p("node"), format!("mobile node {i} would be `{node}`, which is already a node")));
        }
        let cx = Instance { i, node: &node, drawn: &drawn };
        file.nodes.insert(node.clone(), NodeSpec::default());
        let path = &layout.path;
        named(&cx, &spec.nodes, "nodes", &mut file.nodes, "a node", path)?;
        named(&cx, &spec.links, "links", &mut file.links, "one of the file's links", path)?;
        named(&cx, &spec.flows, "flows", &mut file.flows, "one of the file's flows", path)?;
        let Value::Table(template) = &sections[0].1 else { unreachable!() };
        // Room for `node`: growing the table for it would double its allocation.
        let mut mobile = cx.instantiate_table(template, "mobile", 1);
        mobile.insert("node".into(), Value::String(node.clone()));
        file.mobiles.push(read(Value::Table(mobile), &p("mobile"), &node)?);
        for (j, entry) in spec.timeline.iter().enumerate() {
            let Value::Table(mut e) = cx.instantiate(&Value::Table(entry.clone()), &format!("timeline[{j}]")) else { unreachable!() };
            if e.get("action").and_then(Value::as_str) == Some("handover") && !e.contains_key("mobile") {
                e.insert("mobile".into(), Value::String(node.clone()));
            }
            file.timeline.push(read(Value::Table(e), &p(&format!("timeline[{j}]")), &node)?);
        }
        for (j, entry) in spec.agents.iter().enumerate() {
            let Value::Table(mut a) = cx.instantiate(&Value::Table(entry.clone()), &format!("agents[{j}]")) else { unreachable!() };
            a.entry("node").or_insert_with(|| Value::String(node.clone()));
            file.agents.push(read(Value::Table(a), &p(&format!("agents[{j}]")), &node)?);
        }
    }
    Ok(layout)
}

/// Mobile node `cx`'s entries of the template `section` (`nodes`, `links` or `flows` of the
/// population at `path`), named `<node>.<key>`, read into `into`; a name already there is an
/// error (`taken` says where it is).
fn named<T: serde::de::DeserializeOwned>(
    cx: &Instance,
    templates: &Table,
    section: &str,
    into: &mut IndexMap<String, T>,
    taken: &str,
    path: &str,
) -> Result<()> {
    for (key, v) in templates {
        let (name, template) = (format!("{}.{key}", cx.node), join(path, &format!("{section}.{key}")));
        if into.contains_key(&name) {
            return Err(err(template, format!("`{name}` is already {taken}")));
        }
        let value = read(cx.instantiate(v, &format!("{section}.{key}")), &template, cx.node)?;
        into.insert(name, value);
    }
    Ok(())
}

/// Walk `v` (at error path `path`, template path `key`) and draw the values of its generators.
fn find_generators(
    v: &Value,
    path: &str,
    key: &str,
    draws: &generators::Draws,
    out: &mut IndexMap<String, Vec<Value>>,
) -> Result<()> {
    match v {
        Value::Table(t) if generators::is_generator(t) => {
            out.insert(key.to_owned(), generators::values(t, path, key, draws)?);
        }
        Value::Table(t) => {
            for (k, x) in t {
                find_generators(x, &join(path, k), &join(key, k), draws, out)?;
            }
        }
        Value::Array(a) => {
            for (j, x) in a.iter().enumerate() {
                find_generators(x, &format!("{path}[{j}]"), &format!("{key}[{j}]"), draws, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Mobile node `i` of a population.
struct Instance<'a> {
    i: u64,
    node: &'a str,
    drawn: &'a IndexMap<String, Vec<Value>>,
}

impl Instance<'_> {
    /// `v` (at template path `key`) for this mobile node: placeholders substituted, generators
    /// replaced by this node's value.
    fn instantiate(&self, v: &Value, key: &str) -> Value {
        match v {
            Value::String(s) => Value::String(self.substitute(s)),
            Value::Table(t) if generators::is_generator(t) => {
                let value = &self.drawn[key][self.i as usize];
                self.instantiate(value, "")
            }
            Value::Table(t) => Value::Table(self.instantiate_table(t, key, 0)),
            Value::Array(a) => {
                Value::Array(a.iter().enumerate().map(|(j, x)| self.instantiate(x, &format!("{key}[{j}]"))).collect())
            }
            other => other.clone(),
        }
    }

    /// The table `t` (at template path `key`) for this mobile node, with room for `room` more
    /// keys.
    fn instantiate_table(&self, t: &Table, key: &str, room: usize) -> Table {
        let mut out = Table::with_capacity(t.len() + room);
        for (k, x) in t {
            out.insert(self.substitute(k), self.instantiate(x, &join(key, k)));
        }
        out
    }

    fn substitute(&self, s: &str) -> String {
        if s.contains('{') {
            s.replace("{i}", &self.i.to_string()).replace("{node}", self.node)
        } else {
            s.to_owned()
        }
    }
}
