//! The per-flow (and per-mobile-node) part of a summary as a table of columns, the form in
//! which Python gets it when a run has many flows (issue #29): one row per flow, one column per
//! scalar figure, instead of one JSON object per flow that Python would parse into dicts.
//!
//! The rows are flattened by the rules of Python's `Result.flows` (python/vhsim/result.py): a
//! transport part's figures join the flow's (`tcp.fast_retransmits` -> `fast_retransmits`,
//! SCTP's path i -> `path<i>.<metric>`), engagement counters become `engagement.<counter>`, drops
//! `drops_<cause>` (the five core causes always), goodput windows `goodput_kbps_<window>`, the
//! k-th handover's figures `ho<k>.<metric>`; other maps and lists (the application, decisions)
//! are left out. Columns come in the order of their first appearance, as pandas orders the
//! columns of a list of dicts. Each flow is walked through its JSON form, so a figure added to
//! the summary reaches the table by itself; the walk keeps the field order, which
//! `serde_json::Value` (a sorted map) would not.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// Drop causes that always have a `drops_<cause>` column (Python's `DROP_CAUSES`).
pub const DROP_CAUSES: [&str; 5] = ["queue_overflow", "error_model", "link_down", "binding", "agent"];

/// Transport parts whose figures join the flow's own (Python's `TRANSPORT_PARTS`).
const TRANSPORT_PARTS: [&str; 3] = ["tcp", "sctp", "datagram"];

/// A JSON scalar of a row. Strings are indices into the table's string pool (a population's
/// flows share their scheme's name).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    /// JSON `null` (an absent optional figure, or a NaN).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A string: index into [`Table::strings`].
    Str(u32),
}

/// One column, typed as pandas would type the same values given as a list of dicts.
#[derive(Debug, PartialEq)]
pub enum Column {
    /// Integers in every row.
    Int(Vec<i64>),
    /// Numbers, NaN where a row has none or `null`.
    Float(Vec<f64>),
    /// Booleans in every row.
    Bool(Vec<bool>),
    /// Anything else, left for Python to type: `None` where the row lacks the figure (NaN in
    /// pandas), `Some(Cell::Null)` where it is `null` (None in pandas).
    Objects(Vec<Option<Cell>>),
}

/// Rows named by flow (mobile node), columns named by figure.
#[derive(Debug, Default, PartialEq)]
pub struct Table {
    /// Row names, in order.
    pub names: Vec<String>,
    /// Columns in the order of their first appearance, typed by [`Table::finish`]; while rows
    /// are added, a column is typed only while every row so far has a cell of that type
    /// (`push_cell`).
    pub columns: Vec<(String, Column)>,
    /// The strings `Cell::Str` points at.
    pub strings: Vec<String>,
    index: HashMap<String, usize>,
    string_ids: HashMap<String, u32>,
}

impl Table {
    /// The flows of a summary, one row each (`Result.flows`' rules), consumed as they are
    /// added so that the summary and the table are not both whole at once.
    pub fn of_flows<S: Serialize>(flows: impl IntoIterator<Item = (String, S)>) -> Table {
        let mut t = Table::default();
        for (name, flow) in flows {
            t.push_flow(name, &flow);
        }
        t.finish()
    }

    /// Add flow `name`'s row (`Result.flows`' rules); [`Table::finish`] when all are in.
    pub fn push_flow<S: Serialize>(&mut self, name: String, flow: &S) {
        let row = flow_row(Tree::of(flow));
        self.push(name, row);
    }

    /// One row per item (its top-level scalars), named by its `key` field, which is left out
    /// (`Result.mobiles`: the mobile node's `name` is the index).
    pub fn of_records<S: Serialize>(items: impl IntoIterator<Item = S>, key: &str) -> Table {
        let mut t = Table::default();
        for item in items {
            let Tree::Map(fields) = Tree::of(&item) else { continue };
            let mut name = String::new();
            let mut row = Row::default();
            for (k, v) in fields {
                match v {
                    Tree::Scalar(Scalar::Str(s)) if k == key => name = s,
                    Tree::Scalar(s) if k != key => row.set(k, s),
                    _ => {}
                }
            }
            t.push(name, row);
        }
        t.finish()
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    fn push(&mut self, name: String, row: Row) {
        let n = self.names.len();
        for (key, value) in row.cells {
            let cell = match value {
                Scalar::Null => Cell::Null,
                Scalar::Bool(b) => Cell::Bool(b),
                Scalar::Int(i) => Cell::Int(i),
                Scalar::Float(x) => Cell::Float(x),
                Scalar::Str(s) => Cell::Str(self.string_id(s)),
            };
            let k = match self.index.get(&key) {
                Some(&k) => k,
                None => {
                    self.index.insert(key.clone(), self.columns.len());
                    // A column first seen in the first row may stay typed; a later one has
                    // gaps above it.
                    let column = if n == 0 { Column::Int(Vec::new()) } else { Column::Objects(vec![None; n]) };
                    self.columns.push((key, column));
                    self.columns.len() - 1
                }
            };
            push_cell(&mut self.columns[k].1, cell);
        }
        for (_, c) in &mut self.columns {
            if c.len() <= n {
                let cells = as_objects(c);
                cells.resize(n + 1, None);
            }
        }
        self.names.push(name);
    }

    fn string_id(&mut self, s: String) -> u32 {
        if let Some(&id) = self.string_ids.get(&s) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(s.clone());
        self.string_ids.insert(s, id);
        id
    }

    /// Type every column (see [`Column`]) and drop the look-up maps.
    pub fn finish(mut self) -> Table {
        for (_, c) in &mut self.columns {
            if let Column::Objects(cells) = c {
                *c = typed(std::mem::take(cells));
            }
        }
        self.index = HashMap::new();
        self.string_ids = HashMap::new();
        self
    }
}

impl Column {
    /// Rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Int(v) => v.len(),
            Column::Float(v) => v.len(),
            Column::Bool(v) => v.len(),
            Column::Objects(v) => v.len(),
        }
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Add a cell to a column being filled. While the rows are added, a typed column holds cells of
/// one kind in every row so far (`Int`: integers, `Bool`: booleans, `Float`: numbers with a
/// fraction, no gap), 8 bytes or less a cell instead of an `Option<Cell>`'s 16 (issue #29: the
/// table is made while the world is freed); a cell of another kind, or a gap, turns it into
/// `Objects` for good, typed by [`Table::finish`] as before. A typed column that stays typed is
/// what [`typed`] makes of the same cells. An empty column (a new one) takes the first cell's kind.
fn push_cell(column: &mut Column, cell: Cell) {
    if column.is_empty() && !matches!(column, Column::Objects(_)) {
        *column = match cell {
            Cell::Bool(_) => Column::Bool(Vec::new()),
            Cell::Float(_) => Column::Float(Vec::new()),
            Cell::Int(_) => Column::Int(Vec::new()),
            Cell::Null | Cell::Str(_) => Column::Objects(Vec::new()),
        };
    }
    match (&mut *column, cell) {
        (Column::Int(v), Cell::Int(i)) => v.push(i),
        (Column::Bool(v), Cell::Bool(b)) => v.push(b),
        (Column::Float(v), Cell::Float(x)) => v.push(x),
        (c, cell) => as_objects(c).push(Some(cell)),
    }
}

/// The column's cells as `Objects`, converting a typed column being filled (see [`push_cell`]).
fn as_objects(column: &mut Column) -> &mut Vec<Option<Cell>> {
    let cells: Option<Vec<Option<Cell>>> = match column {
        Column::Objects(_) => None,
        Column::Int(v) => Some(v.iter().map(|&i| Some(Cell::Int(i))).collect()),
        Column::Bool(v) => Some(v.iter().map(|&b| Some(Cell::Bool(b))).collect()),
        Column::Float(v) => Some(v.iter().map(|&x| Some(Cell::Float(x))).collect()),
    };
    if let Some(cells) = cells {
        *column = Column::Objects(cells);
    }
    let Column::Objects(cells) = column else { unreachable!("made objects above") };
    cells
}

/// The column pandas would make of these values (checked against pandas in
/// tests/test_flow_table.py): integers in every row -> int64, booleans in every row -> bool,
/// numbers with gaps or nulls -> float64 with NaN; anything else stays objects.
fn typed(cells: Vec<Option<Cell>>) -> Column {
    let all = |f: fn(&Cell) -> bool| cells.iter().all(|c| c.as_ref().is_some_and(f));
    if all(|c| matches!(c, Cell::Int(_))) {
        return Column::Int(cells.iter().map(|c| if let Some(Cell::Int(i)) = c { *i } else { 0 }).collect());
    }
    if all(|c| matches!(c, Cell::Bool(_))) {
        return Column::Bool(cells.iter().map(|c| matches!(c, Some(Cell::Bool(true)))).collect());
    }
    let numeric_or_gap = cells.iter().all(|c| matches!(c, None | Some(Cell::Null | Cell::Int(_) | Cell::Float(_))));
    let some_number = cells.iter().any(|c| matches!(c, Some(Cell::Int(_) | Cell::Float(_))));
    if numeric_or_gap && some_number {
        return Column::Float(
            cells
                .iter()
                .map(|c| match c {
                    Some(Cell::Int(i)) => *i as f64,
                    Some(Cell::Float(x)) => *x,
                    _ => f64::NAN,
                })
                .collect(),
        );
    }
    Column::Objects(cells)
}

/// A JSON scalar while a row is built.
#[derive(Clone, Debug, PartialEq)]
enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

/// A JSON value with its object's keys in their serialized order.
#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Scalar(Scalar),
    Map(Vec<(String, Tree)>),
    List(Vec<Tree>),
}

impl Tree {
    fn of<S: Serialize>(value: &S) -> Tree {
        let text = serde_json::to_string(value).expect("a summary serializes");
        serde_json::from_str(&text).expect("JSON written by serde_json parses")
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tree;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Scalar(Scalar::Null))
            }
            fn visit_bool<E>(self, b: bool) -> Result<Tree, E> {
                Ok(Tree::Scalar(Scalar::Bool(b)))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Tree, E> {
                Ok(Tree::Scalar(Scalar::Int(i)))
            }
            fn visit_u64<E>(self, u: u64) -> Result<Tree, E> {
                // Counts never reach 2^63; beyond it a float keeps the magnitude.
                Ok(Tree::Scalar(i64::try_from(u).map_or(Scalar::Float(u as f64), Scalar::Int)))
            }
            fn visit_f64<E>(self, x: f64) -> Result<Tree, E> {
                Ok(Tree::Scalar(Scalar::Float(x)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Tree, E> {
                Ok(Tree::Scalar(Scalar::Str(s.to_owned())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
                let mut items = Vec::new();
                while let Some(x) = seq.next_element()? {
                    items.push(x);
                }
                Ok(Tree::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
                let mut items = Vec::new();
                while let Some((k, v)) = map.next_entry()? {
                    items.push((k, v));
                }
                Ok(Tree::Map(items))
            }
        }
        d.deserialize_any(V)
    }
}

/// A row: figures in first-set order, a figure set again keeps its place (a Python dict).
#[derive(Default)]
struct Row {
    cells: Vec<(String, Scalar)>,
}

impl Row {
    fn position(&self, key: &str) -> Option<usize> {
        self.cells.iter().position(|(k, _)| k == key)
    }

    fn set(&mut self, key: String, value: Scalar) {
        match self.position(&key) {
            Some(i) => self.cells[i].1 = value,
            None => self.cells.push((key, value)),
        }
    }
}

/// Python's `flow_figures` then the row rules of `Result.flows`.
fn flow_row(tree: Tree) -> Row {
    let Tree::Map(fields) = tree else { return Row::default() };
    // flow_figures: the flow's own figures, engagement counters, then the transport parts'
    // (setdefault: a part's figure never replaces the flow's).
    let mut figures: Vec<(String, Tree)> = Vec::with_capacity(fields.len());
    let mut engagement = Vec::new();
    let mut parts: Vec<(usize, Vec<(String, Tree)>)> = Vec::new();
    for (k, v) in fields {
        if let Some(p) = TRANSPORT_PARTS.iter().position(|&t| t == k) {
            if let Tree::Map(m) = v {
                parts.push((p, m));
            }
        } else if k == "engagement" {
            if let Tree::Map(m) = v {
                engagement = m;
            }
        } else {
            figures.push((k, v));
        }
    }
    let set_default = |figures: &mut Vec<(String, Tree)>, k: String, v: Tree| {
        if !figures.iter().any(|(have, _)| *have == k) {
            figures.push((k, v));
        }
    };
    for (counter, n) in engagement {
        let key = format!("engagement.{counter}");
        match figures.iter().position(|(have, _)| *have == key) {
            Some(i) => figures[i].1 = n,
            None => figures.push((key, n)),
        }
    }
    parts.sort_by_key(|(p, _)| *p);
    for (_, part) in parts {
        for (key, value) in part {
            match value {
                Tree::List(paths) if key == "paths" => {
                    for (i, path) in paths.into_iter().enumerate() {
                        if let Tree::Map(metrics) = path {
                            for (metric, v) in metrics {
                                set_default(&mut figures, format!("path{i}.{metric}"), v);
                            }
                        }
                    }
                }
                value => set_default(&mut figures, key, value),
            }
        }
    }
    let mut row = Row::default();
    for (key, value) in figures {
        match (key.as_str(), value) {
            ("drops", Tree::Map(drops)) => {
                for cause in DROP_CAUSES {
                    let n = drops.iter().find(|(c, _)| c == cause).map_or(Scalar::Int(0), |(_, v)| as_int(v));
                    row.set(format!("drops_{cause}"), n);
                }
                for (cause, n) in drops {
                    let n = as_int(&n);
                    row.set(format!("drops_{cause}"), n);
                }
            }
            ("windows", Tree::Map(windows)) => {
                for (w, v) in windows {
                    if let Tree::Scalar(s) = v {
                        row.set(format!("goodput_kbps_{w}"), s);
                    }
                }
            }
            ("handovers", Tree::List(handovers)) => {
                for (k, stats) in handovers.into_iter().enumerate() {
                    if let Tree::Map(metrics) = stats {
                        for (m, v) in metrics {
                            if let Tree::Scalar(s) = v {
                                row.set(format!("ho{k}.{m}"), s);
                            }
                        }
                    }
                }
            }
            (_, Tree::Scalar(s)) => row.set(key, s),
            _ => {}
        }
    }
    row
}

/// `int(count)` of a drop count.
fn as_int(v: &Tree) -> Scalar {
    match v {
        Tree::Scalar(Scalar::Float(x)) => Scalar::Int(*x as i64),
        Tree::Scalar(s) => s.clone(),
        _ => Scalar::Int(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flows_flatten_by_the_python_rules_in_first_appearance_order() {
        let a = json!({"scheme": "sack", "goodput_kbps": 1.5, "drops": {"binding": 2},
            "windows": {"w": 3.0}, "handovers": [{"interruption_s": null, "rtos": 1}],
            "app": {"kind": "cbr"}, "tcp": {"fast_retransmits": 4}, "engagement": {"zwa_sent": 1}});
        let b = json!({"scheme": "sack", "goodput_kbps": 2, "drops": {}, "windows": {"w": 1.0},
            "handovers": [], "sctp": {"retx": 1, "paths": [{"cwnd_bytes": 10}]}});
        let t = Table::of_flows([("a".to_string(), a), ("b".to_string(), b)]);
        // json! sorts an object's keys.
        let names: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "drops_queue_overflow", "drops_error_model", "drops_link_down", "drops_binding", "drops_agent",
                "goodput_kbps", "ho0.interruption_s", "ho0.rtos", "scheme", "goodput_kbps_w", "engagement.zwa_sent",
                "fast_retransmits", "path0.cwnd_bytes", "retx"
            ]
        );
        let col = |n: &str| &t.columns.iter().find(|(c, _)| c == n).unwrap().1;
        assert_eq!(col("scheme"), &Column::Objects(vec![Some(Cell::Str(0)), Some(Cell::Str(0))]));
        assert_eq!(t.strings, ["sack"]);
        assert_eq!(col("drops_binding"), &Column::Int(vec![2, 0]));
        let Column::Float(g) = col("goodput_kbps") else { panic!("float") };
        assert_eq!(g, &[1.5, 2.0]);
        let Column::Float(r) = col("ho0.rtos") else { panic!("float with a gap") };
        assert!(r[0] == 1.0 && r[1].is_nan());
        assert_eq!(col("ho0.interruption_s"), &Column::Objects(vec![Some(Cell::Null), None]));
    }

    #[test]
    fn columns_keep_the_fields_serialized_order() {
        #[derive(Serialize)]
        struct Flow {
            zeta: u64,
            alpha: Option<f64>,
            tcp: Part,
        }
        #[derive(Serialize)]
        struct Part {
            zeta: u64,
            beta: bool,
        }
        let flow = |alpha| Flow { zeta: 1, alpha, tcp: Part { zeta: 9, beta: true } };
        let t = Table::of_flows([("f".to_string(), flow(Some(0.5))), ("g".to_string(), flow(None))]);
        // The flow's own `zeta` stays; the part's is left out (Python's setdefault).
        let names: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["zeta", "alpha", "beta"]);
        assert_eq!(t.columns[0].1, Column::Int(vec![1, 1]));
        let Column::Float(alpha) = &t.columns[1].1 else { panic!("alpha is a float column") };
        assert!(alpha[0] == 0.5 && alpha[1].is_nan());
        assert_eq!(t.columns[2].1, Column::Bool(vec![true, true]));
    }

    #[test]
    fn columns_typed_as_they_fill_match_the_columns_typed_at_the_end() {
        // Every pair of cells (or a gap) over two rows: the column made as the rows come is
        // the one `typed` makes of the same cells at the end.
        let kinds = [json!(null), json!(true), json!(3), json!(2.5), json!("s"), json!({})];
        for a in &kinds {
            for b in &kinds {
                let t = Table::of_records([json!({"name": "r0", "x": a}), json!({"name": "r1", "x": b})], "name");
                let cell = |v: &serde_json::Value| match v {
                    serde_json::Value::Null => Some(Cell::Null),
                    serde_json::Value::Bool(b) => Some(Cell::Bool(*b)),
                    serde_json::Value::Number(n) => Some(n.as_i64().map_or(Cell::Float(n.as_f64().unwrap()), Cell::Int)),
                    serde_json::Value::String(_) => Some(Cell::Str(0)),
                    _ => None,
                };
                let expected = match (cell(a), cell(b)) {
                    (None, None) => None,
                    (x, y) => Some(typed(vec![x, y])),
                };
                let got = t.columns.first().map(|(_, c)| c);
                assert_eq!(format!("{got:?}"), format!("{:?}", expected.as_ref()), "{a} then {b}");
            }
        }
    }

    #[test]
    fn records_use_their_key_as_the_row_name() {
        let t = Table::of_records([json!({"name": "u1", "handovers": 1}), json!({"name": "u2", "handovers": 0})], "name");
        assert_eq!(t.names, ["u1", "u2"]);
        assert_eq!(t.columns, vec![("handovers".to_string(), Column::Int(vec![1, 0]))]);
    }
}
