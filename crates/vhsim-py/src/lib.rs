//! PyO3 glue of vhsim: no simulation logic lives here.
//!
//! `run()` releases the GIL while the event loop runs, converts a Rust panic into
//! `SimulationError`, and hands traces over as NumPy arrays (one array per column). A
//! `RunControl` lets another Python thread read the progress and stop the run.

use numpy::{IntoPyArray, PyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use vhsim_scenario::{Detail, Scenario};
use vhsim_sim::summary_table::{Cell, Column, Table};
use vhsim_sim::trace::{PacketEvent, CAUSE_NAMES};
use vhsim_sim::trace_filter::{TraceFilter, TraceFilterSpec};
use vhsim_sim::Traces;
use vhsim_tcp::endpoint::{STATE_NAMES, STATE_UNIT};

mod trim;

create_exception!(_native, ScenarioError, PyValueError, "A scenario is invalid; the message names the key.");
create_exception!(_native, SimulationError, PyRuntimeError, "The simulation failed (an internal error).");

fn load(toml_text: &str, overrides: Vec<(String, String)>) -> PyResult<Scenario> {
    seeded(toml_text, overrides, None)
}

/// [`load`] with the run's seed (set before populations draw their random values).
fn seeded(toml_text: &str, overrides: Vec<(String, String)>, seed: Option<u64>) -> PyResult<Scenario> {
    vhsim_scenario::load_seeded(toml_text, &overrides, seed).map_err(|e| ScenarioError::new_err(e.to_string()))
}

fn parse_detail(detail: Option<&str>) -> PyResult<Option<Detail>> {
    Ok(match detail {
        None => None,
        Some("summary") => Some(Detail::Summary),
        Some("timeseries") => Some(Detail::Timeseries),
        Some("packets") => Some(Detail::Packets),
        Some(other) => {
            return Err(ScenarioError::new_err(format!(
                "detail: unknown level '{other}' (expected one of: summary, timeseries, packets)"
            )))
        }
    })
}

/// vhsim version.
#[pyfunction]
fn version() -> &'static str {
    vhsim_sim::VERSION
}

/// (name, description, protocol) of every sender preset: TCP's, then SCTP's.
#[pyfunction]
fn schemes() -> Vec<(&'static str, &'static str, &'static str)> {
    let tcp = vhsim_tcp::presets::all().iter().map(|p| (p.name, p.description.as_str(), "tcp"));
    let sctp = vhsim_sctp::presets::PRESETS.iter().map(|p| (p.name, p.description, "sctp"));
    tcp.chain(sctp).collect()
}

/// (description, source, resolved composition as TOML) of the TCP preset `name` over the set
/// of defaults `defaults` ("rfc" or "ns-2.35").
#[pyfunction]
#[pyo3(signature = (name, defaults = "rfc"))]
fn scheme(name: &str, defaults: &str) -> PyResult<(&'static str, &'static str, String)> {
    let p = vhsim_tcp::presets::preset(name).ok_or_else(|| {
        ScenarioError::new_err(format!(
            "unknown scheme '{name}' (schemes: {})",
            vhsim_tcp::presets::preset_names().join(", ")
        ))
    })?;
    let names = vhsim_tcp::Defaults::NAMES;
    let set = [vhsim_tcp::Defaults::Rfc, vhsim_tcp::Defaults::Ns2_35]
        .into_iter()
        .find(|s| s.name() == defaults)
        .ok_or_else(|| {
            ScenarioError::new_err(format!("defaults: unknown set '{defaults}' (sets: {})", names.join(", ")))
        })?;
    Ok((p.description.as_str(), p.source.as_str(), p.to_toml(set)))
}

/// JSON Schema of the scenario file format.
#[pyfunction]
fn json_schema() -> String {
    vhsim_scenario::json_schema()
}

/// JSON Schema of `summary.json`.
#[pyfunction]
fn summary_schema() -> String {
    vhsim_sim::summary::json_schema()
}

/// Nanoseconds of a duration such as "295s" (the scenario format's rule).
#[pyfunction]
fn duration_ns(text: &str) -> PyResult<u64> {
    vhsim_scenario::parse_duration(text).map(|d| d.as_nanos()).map_err(ScenarioError::new_err)
}

/// Validate a scenario (with overrides) and return its resolved form as canonical JSON.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides=Vec::new()))]
fn resolve(toml_text: &str, overrides: Vec<(String, String)>) -> PyResult<String> {
    Ok(vhsim_scenario::to_canonical_json(&load(toml_text, overrides)?))
}

fn col<'py, T: numpy::Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyArray1<T>> {
    v.into_pyarray(py)
}

fn secs(ns: &[u64]) -> Vec<f64> {
    ns.iter().map(|&t| t as f64 / 1e9).collect()
}

fn traces_to_py<'py>(py: Python<'py>, sc: &Scenario, traces: Traces) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    // Goodput: one row per flow per interval up to the end of the run.
    let interval = sc.metrics.goodput_interval.0.max(1);
    let n_bins = sc.duration.0.div_ceil(interval) as usize;
    let (mut t, mut fl, mut bytes) = (Vec::new(), Vec::new(), Vec::new());
    for (f, bins) in traces.goodput.bins.iter().enumerate() {
        for i in 0..n_bins {
            t.push(((i as u64 + 1) * interval).min(sc.duration.0) as f64 / 1e9);
            fl.push(f as i32);
            bytes.push(bins.get(i).copied().unwrap_or(0) as i64);
        }
    }
    let g = PyDict::new(py);
    g.set_item("time_s", col(py, t))?;
    g.set_item("flow", col(py, fl))?;
    g.set_item("bytes", col(py, bytes))?;
    out.set_item("goodput", g)?;
    if let Some(ts) = traces.timeseries {
        // One column per traced variable: `<name>_<unit>` (`cwnd_pkts`, `srtt_s`), or `<name>`
        // holding small-integer codes when the unit is "code" (`state`, named in `codes`).
        let d = PyDict::new(py);
        d.set_item("time_s", col(py, secs(&ts.time_ns)))?;
        d.set_item("flow", col(py, ts.flow.into_iter().map(|x| x as i32).collect::<Vec<_>>()))?;
        d.set_item("path", col(py, ts.path.into_iter().map(|x| x as i32).collect::<Vec<_>>()))?;
        for c in ts.columns {
            if c.unit == STATE_UNIT {
                let codes: Vec<u8> = c.values.iter().map(|&v| v as u8).collect();
                d.set_item(c.name, col(py, codes))?;
            } else {
                d.set_item(format!("{}_{}", c.name, c.unit), col(py, c.values))?;
            }
        }
        out.set_item("timeseries", d)?;
    }
    if let Some(p) = traces.packets {
        let d = PyDict::new(py);
        d.set_item("time_s", col(py, secs(&p.time_ns)))?;
        d.set_item("flow", col(py, p.flow.into_iter().map(|x| x as i32).collect::<Vec<_>>()))?;
        d.set_item("event", col(py, p.event))?;
        d.set_item("seq", col(py, p.seq))?;
        d.set_item("link", col(py, p.link))?;
        d.set_item("cause", col(py, p.cause))?;
        d.set_item("spurious", col(py, p.spurious))?;
        d.set_item("size", col(py, p.size))?;
        d.set_item("src", col(py, p.src))?;
        d.set_item("dst", col(py, p.dst))?;
        d.set_item("path", col(py, p.path))?;
        d.set_item("flags", col(py, p.flags))?;
        out.set_item("packets", d)?;
    }
    Ok(out)
}

fn codes<'py>(py: Python<'py>, sc: &Scenario) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("flow", PyList::new(py, sc.flows.iter().map(|f| f.name.as_str()))?)?;
    d.set_item("link", PyList::new(py, sc.links.iter().map(|l| l.name.as_str()))?)?;
    d.set_item("state", PyList::new(py, STATE_NAMES)?)?;
    d.set_item("address", PyList::new(py, sc.addresses.iter().map(|a| a.ipv4.to_string()))?)?;
    d.set_item("event", PyList::new(py, PacketEvent::NAMES)?)?;
    d.set_item("cause", PyList::new(py, CAUSE_NAMES)?)?;
    Ok(d)
}

fn panic_error(panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let msg = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    SimulationError::new_err(format!("internal error in the simulator: {msg}"))
}

/// Most rows of the goodput table, one per flow per interval up to the end of the run (10^8
/// rows take 2 GB): a huge duration with a short interval is refused before the run, rather
/// than running out of memory when the table is built.
const MAX_GOODPUT_ROWS: u64 = 100_000_000;

fn check_goodput_rows(sc: &Scenario) -> PyResult<()> {
    let interval = sc.metrics.goodput_interval.0.max(1);
    let rows = sc.duration.0.div_ceil(interval).saturating_mul(sc.flows.len() as u64);
    if rows > MAX_GOODPUT_ROWS {
        return Err(ScenarioError::new_err(format!(
            "metrics.goodput_interval: the goodput table of this run would have {rows} rows (one per flow \
             per interval of {} s over {} s), more than {MAX_GOODPUT_ROWS}; use a longer interval or a \
             shorter duration",
            interval as f64 / 1e9,
            sc.duration.as_secs_f64()
        )));
    }
    Ok(())
}

/// Stop flag and progress counters of a run, shared with the thread that runs it: Python
/// polls `progress()` and calls `stop()` (e.g. from a signal handler) while `run` simulates
/// with the GIL released.
#[pyclass(frozen)]
struct RunControl {
    inner: Arc<vhsim_sim::RunControl>,
}

#[pymethods]
impl RunControl {
    #[new]
    fn new() -> Self {
        RunControl { inner: Arc::new(vhsim_sim::RunControl::new()) }
    }

    /// Ask the run to stop; `run` then raises KeyboardInterrupt.
    fn stop(&self) {
        self.inner.request_stop();
    }

    /// (simulated ns reached, simulated ns at the end, events so far).
    fn progress(&self) -> (u64, u64, u64) {
        let p = self.inner.progress();
        (p.sim_ns, p.end_ns, p.events)
    }
}

/// Run one simulation. Returns {"summary": dict, "tables": {...}, "traces": {table: {column:
/// ndarray}}, "codes": {...}, "captures": [{"link", "path", "packets"}]}.
///
/// With `tables_above`, a run of more flows (mobile nodes) than that hands them over as a
/// table of columns (`tables`; issue #29) instead of in the summary.
/// `trace_*` select trace rows (vhsim-sim `trace_filter`); with `control`, the run can be
/// stopped from another thread (KeyboardInterrupt). With `pcap_dir`, the scenario's
/// `output.pcap` captures and the `pcap` ones (link directions named as in `output.pcap`;
/// errors about them name `pcap_key`) are written there; without it, none.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides=Vec::new(), seed=None, detail=None, trace_window=None,
                    trace_flows=Vec::new(), trace_links=Vec::new(), trace_events=Vec::new(), control=None,
                    pcap_dir=None, pcap=Vec::new(), pcap_key="--pcap", tables_above=None))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    toml_text: &str,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    detail: Option<&str>,
    trace_window: Option<String>,
    trace_flows: Vec<String>,
    trace_links: Vec<String>,
    trace_events: Vec<String>,
    control: Option<&RunControl>,
    pcap_dir: Option<std::path::PathBuf>,
    pcap: Vec<String>,
    pcap_key: &str,
    tables_above: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    // Shared with the run's world, which would otherwise keep a copy.
    let sc = Arc::new(seeded(toml_text, overrides, seed)?);
    let detail = parse_detail(detail)?;
    check_goodput_rows(&sc)?;
    let spec = TraceFilterSpec {
        window: trace_window,
        flows: trace_flows,
        links: trace_links,
        events: trace_events,
    };
    let filter = TraceFilter::resolve(&spec, &sc).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    let control = control.map_or_else(|| Arc::new(vhsim_sim::RunControl::new()), |c| c.inner.clone());
    let extra =
        vhsim_scenario::capture_points(&sc, &pcap, pcap_key).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    if pcap_dir.is_none() && !extra.is_empty() {
        return Err(ScenarioError::new_err(format!("{pcap_key}: captures need an output folder (pcap_dir)")));
    }
    let opts = vhsim_sim::RunOptions {
        filter,
        control: Some(&control),
        capture_dir: pcap_dir.as_deref(),
        extra_captures: &extra,
        flow_table_above: tables_above,
    };
    let output = py
        .detach(|| catch_unwind(AssertUnwindSafe(|| vhsim_sim::run_with_options(&sc, detail, &opts))))
        .map_err(panic_error)?
        .map_err(|e| match e {
            vhsim_sim::RunError::Interrupted(stopped) => PyKeyboardInterrupt::new_err(stopped.to_string()),
            vhsim_sim::RunError::Capture(c) => PyOSError::new_err(c.to_string()),
        })?;
    if output.flow_table.is_some() {
        // The world is freed: its pages go back before Python's objects take new ones (`trim.rs`).
        trim::release_freed_memory();
    }
    output_to_py(py, &sc, output, tables_above)
}

/// A run's output as {"summary", "traces", "codes", "captures"}, and "tables" when a run has
/// more than `tables_above` flows (mobile nodes): {"flows": table, "mobiles": table} (see
/// [`table_to_py`]), then left out of "summary".
fn output_to_py<'py>(
    py: Python<'py>,
    sc: &Scenario,
    output: vhsim_sim::RunOutput,
    tables_above: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let vhsim_sim::RunOutput { mut summary, traces, captures: written, flow_table } = output;
    let above = |n: usize| tables_above.is_some_and(|limit| n > limit);
    // A run made the table itself (`RunOptions::flow_table_above`); branches make it here,
    // freeing each flow's summary as its row is made.
    let flows = flow_table
        .or_else(|| above(summary.flows.len()).then(|| Table::of_flows(std::mem::take(&mut summary.flows))));
    let mobiles = above(summary.mobiles.len()).then(|| Table::of_records(std::mem::take(&mut summary.mobiles), "name"));
    let summary_json = serde_json::to_string(&summary).map_err(|e| SimulationError::new_err(e.to_string()))?;
    // Freed before Python builds its dicts: with many flows the two together set the peak.
    drop(summary);
    let summary = py.import("json")?.call_method1("loads", (summary_json,))?;
    let out = PyDict::new(py);
    let tables = PyDict::new(py);
    if let Some(t) = flows {
        summary.del_item("flows")?;
        tables.set_item("flows", table_to_py(py, t)?)?;
    }
    if let Some(t) = mobiles {
        tables.set_item("mobiles", table_to_py(py, t)?)?;
    }
    out.set_item("summary", summary)?;
    out.set_item("tables", tables)?;
    out.set_item("traces", traces_to_py(py, sc, traces)?)?;
    out.set_item("codes", codes(py, sc)?)?;
    let captures = PyList::empty(py);
    for c in &written {
        let d = PyDict::new(py);
        d.set_item("link", &c.link)?;
        d.set_item("path", c.path.to_string_lossy())?;
        d.set_item("packets", c.packets)?;
        captures.append(d)?;
    }
    out.set_item("captures", captures)?;
    Ok(out)
}

/// A table as {"names": [str], "columns": {name: ndarray | list}}: int64, float64 (NaN for a
/// gap) and bool columns as NumPy arrays, the others as lists for pandas to type (NaN where a
/// row lacks the figure, None where it is null; equal strings are one object).
fn table_to_py(py: Python<'_>, t: Table) -> PyResult<Bound<'_, PyDict>> {
    let Table { names, columns, strings, .. } = t;
    let strings: Vec<Bound<'_, PyString>> = strings.iter().map(|s| PyString::new(py, s)).collect();
    let nan = PyFloat::new(py, f64::NAN);
    let cols = PyDict::new(py);
    for (name, column) in columns {
        match column {
            Column::Int(v) => cols.set_item(name, col(py, v))?,
            Column::Float(v) => cols.set_item(name, col(py, v))?,
            Column::Bool(v) => cols.set_item(name, col(py, v))?,
            Column::Objects(cells) => {
                let list = PyList::empty(py);
                for c in cells {
                    match c {
                        None => list.append(&nan)?,
                        Some(Cell::Null) => list.append(py.None())?,
                        Some(Cell::Bool(b)) => list.append(b)?,
                        Some(Cell::Int(i)) => list.append(i)?,
                        Some(Cell::Float(x)) => list.append(x)?,
                        Some(Cell::Str(k)) => list.append(&strings[k as usize])?,
                    }
                }
                cols.set_item(name, list)?;
            }
        }
    }
    let d = PyDict::new(py);
    d.set_item("names", PyList::new(py, names)?)?;
    d.set_item("columns", cols)?;
    Ok(d)
}

/// Run the scenarios `toml_text` + each of `variants` (overrides) with `seed` as branches of one
/// trunk (vhsim-sim `branch`): they must differ only in one timeline entry's time (and the
/// duration). Returns one dict per variant, as `run` does. ValueError("not branchable: ...")
/// when they differ otherwise; ScenarioError for an invalid variant.
#[pyfunction]
#[pyo3(signature = (toml_text, variants, seed=None, detail=None, tables_above=None))]
fn run_branches<'py>(
    py: Python<'py>,
    toml_text: &str,
    variants: Vec<Vec<(String, String)>>,
    seed: Option<u64>,
    detail: Option<&str>,
    tables_above: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let mut scenarios = Vec::with_capacity(variants.len());
    for overrides in variants {
        let sc = seeded(toml_text, overrides, seed)?;
        check_goodput_rows(&sc)?;
        scenarios.push(sc);
    }
    let detail = parse_detail(detail)?;
    let outputs = py
        .detach(|| catch_unwind(AssertUnwindSafe(|| vhsim_sim::branch::run_branches(&scenarios, detail))))
        .map_err(panic_error)?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let list = PyList::empty(py);
    for (sc, output) in scenarios.iter().zip(outputs) {
        list.append(output_to_py(py, sc, output, tables_above)?)?;
    }
    Ok(list)
}

/// Fingerprint of one run at `packets` detail (tests/fingerprints.tsv): hex hashes of the packet
/// trace, the time series and the summary's simulation figures, and the event count.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides=Vec::new(), seed=None))]
fn fingerprint(
    py: Python<'_>,
    toml_text: &str,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
) -> PyResult<(String, String, String, u64)> {
    let sc = seeded(toml_text, overrides, seed)?;
    let output = py
        .detach(|| catch_unwind(AssertUnwindSafe(|| vhsim_sim::run(&sc, Some(Detail::Packets)))))
        .map_err(panic_error)?;
    let f = vhsim_sim::fingerprint::fingerprint(&output);
    Ok((
        format!("{:016x}", f.packets),
        format!("{:016x}", f.timeseries),
        format!("{:016x}", f.summary),
        output.summary.events,
    ))
}

/// The native core of vhsim.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(schemes, m)?)?;
    m.add_function(wrap_pyfunction!(scheme, m)?)?;
    m.add_function(wrap_pyfunction!(json_schema, m)?)?;
    m.add_function(wrap_pyfunction!(summary_schema, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(duration_ns, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_class::<RunControl>()?;
    m.add_function(wrap_pyfunction!(fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(run_branches, m)?)?;
    Ok(())
}
