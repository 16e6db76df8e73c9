//! PyO3 glue of vhsim: no simulation logic lives here.
//!
//! `run()` releases the GIL while the event loop runs, converts a Rust panic into
//! `SimulationError`, and hands traces over as NumPy arrays (one array per column).

use numpy::{IntoPyArray, PyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::panic::{catch_unwind, AssertUnwindSafe};
use vhsim_scenario::{Detail, Scenario};
use vhsim_sim::trace::{PacketEvent, CAUSE_NAMES};
use vhsim_sim::Traces;
use vhsim_tcp::endpoint::{STATE_NAMES, STATE_UNIT};

create_exception!(_native, ScenarioError, PyValueError, "A scenario is invalid; the message names the key.");
create_exception!(_native, SimulationError, PyRuntimeError, "The simulation failed (an internal error).");

fn load(toml_text: &str, overrides: Vec<(String, String)>) -> PyResult<Scenario> {
    vhsim_scenario::load(toml_text, &overrides).map_err(|e| ScenarioError::new_err(e.to_string()))
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
    let tcp = vhsim_tcp::presets::PRESETS.iter().map(|p| (p.name, p.description, "tcp"));
    let sctp = vhsim_sctp::presets::PRESETS.iter().map(|p| (p.name, p.description, "sctp"));
    tcp.chain(sctp).collect()
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
    d.set_item("address", PyList::new(py, sc.addresses.iter().map(|a| a.ipv4.as_str()))?)?;
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

/// Run one simulation. Returns {"summary": dict, "traces": {table: {column: ndarray}}, "codes": {...}}.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides=Vec::new(), seed=None, detail=None))]
fn run<'py>(
    py: Python<'py>,
    toml_text: &str,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    detail: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut sc = load(toml_text, overrides)?;
    if let Some(s) = seed {
        sc.seed = s;
    }
    let detail = parse_detail(detail)?;
    let output =
        py.detach(|| catch_unwind(AssertUnwindSafe(|| vhsim_sim::run(&sc, detail)))).map_err(panic_error)?;
    let summary_json =
        serde_json::to_string(&output.summary).map_err(|e| SimulationError::new_err(e.to_string()))?;
    let summary = py.import("json")?.call_method1("loads", (summary_json,))?;
    let out = PyDict::new(py);
    out.set_item("summary", summary)?;
    out.set_item("traces", traces_to_py(py, &sc, output.traces)?)?;
    out.set_item("codes", codes(py, &sc)?)?;
    Ok(out)
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
    let mut sc = load(toml_text, overrides)?;
    if let Some(s) = seed {
        sc.seed = s;
    }
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
    m.add_function(wrap_pyfunction!(json_schema, m)?)?;
    m.add_function(wrap_pyfunction!(summary_schema, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(fingerprint, m)?)?;
    Ok(())
}
