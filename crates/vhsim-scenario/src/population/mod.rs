//! Populations: `count` mobile nodes written once (docs/scenario-format.md "Populations").
//!
//! `[[populations]]` is expanded in the parsed TOML document, after the overrides and before
//! the document is read, into the tables a hand-written file would have: mobile node i gets
//! node `<node pattern with {i}>` (default `<name>{i}`), a `[[mobiles]]` entry from the
//! `mobile` template, and the template's `nodes`, `links` and `flows` named `<node>.<key>`,
//! its `timeline` entries (a handover's `mobile` defaults to the node) and its `agents` (whose
//! `node` defaults to the node). In every string of the templates `{i}` becomes the index and
//! `{node}` the node's name; a table with one generator key (`cycle`, `spread`, `uniform`,
//! `poisson`; [`generators`]) becomes mobile node i's value. Generated entries follow the
//! file's own, mobile node by mobile node within each collection, so a population equals the
//! file that writes its expansion out (tested by fingerprint).
//!
//! Errors in the population's own keys name them (`populations[0].count`); an error the
//! generated tables cause later is reported at the template key it came from
//! (`flows.u3.bulk.tcp.window` becomes `populations[0].flows.bulk.tcp.window`, naming the
//! mobile node) by [`Rewrites::apply`].

mod generators;

use crate::error::{err, join, Result, ScenarioError};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::HashSet;
use std::rc::Rc;
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

/// Where generated tables came from: (path prefix in the expanded document, template path,
/// mobile node name). A population makes thousands of entries from a few templates, so the
/// template paths and node names are shared, not copied per entry.
#[derive(Debug, Default)]
pub(crate) struct Rewrites {
    entries: Vec<(String, Rc<str>, Rc<str>)>,
    templates: Vec<Rc<str>>,
}

impl Rewrites {
    /// Tables at `generated` came from template path `template` for mobile node `node`.
    fn push(&mut self, generated: String, template: String, node: &Rc<str>) {
        let shared = match self.templates.iter().find(|t| ***t == *template) {
            Some(t) => Rc::clone(t),
            None => {
                let t: Rc<str> = template.into();
                self.templates.push(Rc::clone(&t));
                t
            }
        };
        self.entries.push((generated, shared, Rc::clone(node)));
    }

    /// `e` with its path moved from a generated table to the template key it came from.
    pub(crate) fn apply(&self, mut e: ScenarioError) -> ScenarioError {
        let hit = self.entries.iter().find(|(generated, _, _)| {
            e.path.strip_prefix(generated.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        });
        if let Some((generated, template, node)) = hit {
            e.path = format!("{template}{}", &e.path[generated.len()..]);
            e.message = format!("{} (mobile node `{node}`)", e.message);
        }
        e
    }
}

/// Expand the `populations` of `doc` in place; random values are drawn with `seed`, or the
/// file's.
pub(crate) fn expand(doc: &mut Table, seed: Option<u64>) -> Result<Rewrites> {
    let mut rewrites = Rewrites::default();
    let Some(list) = doc.remove("populations") else { return Ok(rewrites) };
    let Value::Array(list) = list else { return Err(err("populations", "expected an array of tables ([[populations]])")) };
    let seed = seed.unwrap_or_else(|| doc.get("seed").and_then(Value::as_integer).map_or(1, |s| s as u64));
    let streams = RngStreams::new(seed);
    let mut names: HashSet<String> = collection(doc, "nodes")?.keys().cloned().collect();
    for (p, value) in list.into_iter().enumerate() {
        let path = format!("populations[{p}]");
        let spec: PopulationSpec = serde_path_to_error::deserialize(value).map_err(|e| {
            let inner = crate::deserialize_error(e);
            err(join(&path, &inner.path), inner.message)
        })?;
        population(doc, &spec, &path, &streams, &mut names, &mut rewrites)?;
    }
    rewrites.entries.shrink_to_fit();
    Ok(rewrites)
}

/// The table `doc[key]`, created if absent.
fn collection<'a>(doc: &'a mut Table, key: &str) -> Result<&'a mut Table> {
    doc.entry(key).or_insert_with(|| Value::Table(Table::new())).as_table_mut().ok_or_else(|| err(key, "expected a table"))
}

/// The array `doc[key]`, created if absent.
fn array<'a>(doc: &'a mut Table, key: &str) -> Result<&'a mut Vec<Value>> {
    doc.entry(key).or_insert_with(|| Value::Array(Vec::new())).as_array_mut().ok_or_else(|| err(key, "expected an array of tables"))
}

fn population(
    doc: &mut Table,
    spec: &PopulationSpec,
    path: &str,
    streams: &RngStreams,
    names: &mut HashSet<String>,
    rewrites: &mut Rewrites,
) -> Result<()> {
    let p = |k: &str| join(path, k);
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
    for i in 0..spec.count {
        let node = pattern.replace("{i}", &i.to_string());
        if !names.insert(node.clone()) {
            return Err(err(p("node"), format!("mobile node {i} would be `{node}`, which is already a node")));
        }
        let cx = Instance { i, node: &node, drawn: &drawn };
        let node_name: Rc<str> = Rc::from(node.as_str());
        collection(doc, "nodes")?.insert(node.clone(), Value::Table(Table::new()));
        for (section, generated) in [("nodes", "nodes"), ("links", "links"), ("flows", "flows")] {
            let Some((_, Value::Table(t))) = sections.iter().find(|(k, _)| *k == section) else { continue };
            for (key, v) in t {
                let name = format!("{node}.{key}");
                if section == "nodes" && !names.insert(name.clone()) {
                    return Err(err(p(&format!("nodes.{key}")), format!("`{name}` is already a node")));
                }
                let out = cx.instantiate(v, &format!("{section}.{key}"));
                rewrites.push(format!("{generated}.{name}"), p(&format!("{section}.{key}")), &node_name);
                if collection(doc, generated)?.insert(name.clone(), out).is_some() {
                    return Err(err(p(&format!("{section}.{key}")), format!("`{name}` is already one of the file's {section}")));
                }
            }
        }
        let Value::Table(template) = &sections[0].1 else { unreachable!() };
        // Room for `node`: growing the table for it would double its allocation.
        let mut mobile = cx.instantiate_table(template, "mobile", 1);
        mobile.insert("node".into(), Value::String(node.clone()));
        let mobiles = array(doc, "mobiles")?;
        rewrites.push(format!("mobiles[{}]", mobiles.len()), p("mobile"), &node_name);
        mobiles.push(Value::Table(mobile));
        for (j, entry) in spec.timeline.iter().enumerate() {
            let Value::Table(mut e) = cx.instantiate(&Value::Table(entry.clone()), &format!("timeline[{j}]")) else { unreachable!() };
            if e.get("action").and_then(Value::as_str) == Some("handover") && !e.contains_key("mobile") {
                e.insert("mobile".into(), Value::String(node.clone()));
            }
            let timeline = array(doc, "timeline")?;
            rewrites.push(format!("timeline[{}]", timeline.len()), p(&format!("timeline[{j}]")), &node_name);
            timeline.push(Value::Table(e));
        }
        for (j, entry) in spec.agents.iter().enumerate() {
            let Value::Table(mut a) = cx.instantiate(&Value::Table(entry.clone()), &format!("agents[{j}]")) else { unreachable!() };
            a.entry("node").or_insert_with(|| Value::String(node.clone()));
            let agents = array(doc, "agents")?;
            rewrites.push(format!("agents[{}]", agents.len()), p(&format!("agents[{j}]")), &node_name);
            agents.push(Value::Table(a));
        }
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
