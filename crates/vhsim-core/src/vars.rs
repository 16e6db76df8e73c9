//! Traced variables: each part of an endpoint reports its own state as (name, unit, value), so a
//! new part adds time-series columns without editing the world, the trace or the bindings.

/// One traced variable's current value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracedVar {
    /// Column name without unit, e.g. `cwnd`, `ld_tcur`.
    pub name: &'static str,
    /// Unit suffix, e.g. `pkts`, `s` (the Python column is `<name>_<unit>`).
    pub unit: &'static str,
    /// Current value (NaN = not defined yet).
    pub value: f64,
    /// Whether a change of this variable alone starts a new time-series row. Variables that
    /// change on every sample (the smoothed RTT) are recorded with the rows the others start.
    pub starts_row: bool,
}

impl TracedVar {
    /// A variable whose change starts a new row.
    pub const fn new(name: &'static str, unit: &'static str, value: f64) -> Self {
        TracedVar { name, unit, value, starts_row: true }
    }

    /// A variable recorded only with rows other variables start.
    pub const fn passive(name: &'static str, unit: &'static str, value: f64) -> Self {
        TracedVar { name, unit, value, starts_row: false }
    }
}
