//! Values that differ from one mobile node of a population to the next: a table with one of
//! the keys below in place of a value of the template (docs/scenario-format.md "Populations").
//!
//! * `{ cycle = [a, b, c] }`: mobile node i takes element `i mod 3` (a mix of schemes in fixed
//!   proportions: `["ftv2", "ftv2", "vegas", "reno"]`);
//! * `{ spread = [lo, hi] }`: evenly over `[lo, hi)`, `lo + i * (hi - lo) / count` (arrivals over
//!   an interval, speeds in steps);
//! * `{ uniform = [lo, hi] }`: `lo + U_i * (hi - lo)`, U_i draw i in [0, 1) of the random
//!   stream `population/<name>/<key path in the template>` of the run's seed;
//! * `{ poisson = { from = "0s", rate = 2.0 } }`: arrival times of a Poisson process of `rate`
//!   arrivals a second starting at `from`: mobile node i arrives at `from + E_0 + ... + E_i`,
//!   E_j = -ln(1 - U_j) / rate seconds, U_j from the same kind of stream.
//!
//! Bounds are numbers or values with a unit (`"30km/h"`, `"10s"`); both bounds of one
//! generator are of the same kind (`["0s", "10ms"]` is fine), and the result is written in the
//! finer of their two units, as a decimal with at most nine digits after the point, which the
//! unit parsers read. Between two integers the result is rounded down to an integer.

use crate::error::{err, join, Result};
use toml::{Table, Value};
use vhsim_core::RngStreams;

/// The keys that make a table a generator.
pub(super) const KINDS: &[&str] = &["cycle", "spread", "uniform", "poisson"];

/// Whether `t` is a generator (a table whose only key is one of [`KINDS`]).
pub(super) fn is_generator(t: &Table) -> bool {
    t.len() == 1 && t.keys().all(|k| KINDS.contains(&k.as_str()))
}

/// What the values are drawn from.
pub(super) struct Draws<'a> {
    /// The run's random streams (of the scenario's seed).
    pub streams: &'a RngStreams,
    /// The population's name (streams are `population/<name>/<template path>`).
    pub population: &'a str,
    /// Number of mobile nodes.
    pub count: u64,
}

/// The `count` values of generator `t`, found at `path` (the error path) whose template path
/// (the stream's name) is `key`.
pub(super) fn values(t: &Table, path: &str, key: &str, d: &Draws) -> Result<Vec<Value>> {
    let (kind, arg) = t.iter().next().expect("a generator has one key");
    let p = join(path, kind);
    let mut stream = d.streams.stream(&format!("population/{}/{key}", d.population));
    let n = d.count;
    match kind.as_str() {
        "cycle" => {
            let items = arg.as_array().filter(|a| !a.is_empty()).ok_or_else(|| {
                err(&p, "expected a non-empty array of values, taken in turn by the mobile nodes")
            })?;
            Ok((0..n).map(|i| items[(i % items.len() as u64) as usize].clone()).collect())
        }
        "spread" | "uniform" => {
            let (lo, hi) = bounds(arg, &p)?;
            let fraction = |i: u64, s: &mut vhsim_core::RngStream| {
                if kind == "spread" {
                    i as f64 / n as f64
                } else {
                    s.uniform()
                }
            };
            Ok((0..n).map(|i| lo.at(&hi, fraction(i, &mut stream))).collect())
        }
        "poisson" => {
            let spec = arg.as_table().ok_or_else(|| err(&p, "expected a table { from = \"0s\", rate = 2.0 }"))?;
            if let Some(k) = spec.keys().find(|k| *k != "from" && *k != "rate") {
                return Err(err(join(&p, k), format!("unknown field `{k}`, expected one of `from`, `rate`")));
            }
            let rate = match spec.get("rate") {
                Some(Value::Float(r)) => *r,
                Some(Value::Integer(r)) => *r as f64,
                Some(_) => return Err(err(join(&p, "rate"), "expected a number of arrivals per second")),
                None => return Err(err(&p, "missing field `rate` (arrivals per second, e.g. 2.0)")),
            };
            if !(rate > 0.0 && rate.is_finite()) {
                return Err(err(join(&p, "rate"), format!("{rate} arrivals per second: a rate must be greater than 0")));
            }
            let from = match spec.get("from") {
                None => 0,
                Some(v) => {
                    let text = v.as_str().ok_or_else(|| err(join(&p, "from"), "expected a duration like \"0s\""))?;
                    crate::units::DURATION.parse(text).map_err(|e| err(join(&p, "from"), e.to_string()))?.0
                }
            };
            let mut t = from as f64;
            Ok((0..n)
                .map(|_| {
                    t += -(1.0 - stream.uniform()).ln() / rate * 1e9;
                    Value::String(format!("{}ns", t.round() as u64))
                })
                .collect())
        }
        _ => unreachable!("is_generator checked the kind"),
    }
}

/// A bound of `spread` or `uniform`: a number, or a number with a unit.
#[derive(Clone, Debug)]
struct Bound {
    value: f64,
    unit: Option<String>,
    integer: bool,
}

impl Bound {
    /// The value a `fraction` of the way from `self` to `hi` (in the same unit).
    fn at(&self, hi: &Bound, fraction: f64) -> Value {
        let v = self.value + fraction * (hi.value - self.value);
        match &self.unit {
            Some(u) => Value::String(format!("{}{u}", decimal(v))),
            None if self.integer && hi.integer => Value::Integer(v.floor() as i64),
            None => Value::Float(v),
        }
    }

    /// This bound in `unit`, `scale` times finer than its own.
    fn rescaled(&self, unit: &str, scale: f64) -> Bound {
        Bound { value: self.value * scale, unit: Some(unit.to_owned()), integer: false }
    }
}

fn bounds(arg: &Value, path: &str) -> Result<(Bound, Bound)> {
    let pair = arg
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| err(path, "expected two bounds [lo, hi], numbers or values with a unit"))?;
    let mut lo = bound(&pair[0], &format!("{path}[0]"))?;
    let mut hi = bound(&pair[1], &format!("{path}[1]"))?;
    if lo.unit != hi.unit {
        let unit = |b: &Bound| b.unit.clone().unwrap_or_else(|| "no unit".into());
        let (a, b) = (unit(&lo), unit(&hi));
        let Some((ma, mb)) = vhsim_core::units::common_scale(&a, &b) else {
            let msg = format!("the bounds are not of the same kind ({a} and {b}); give both as durations, rates, ...");
            return Err(err(path, msg));
        };
        // Both in the finer unit.
        if ma <= mb {
            hi = hi.rescaled(&a, mb as f64 / ma as f64);
        } else {
            lo = lo.rescaled(&b, ma as f64 / mb as f64);
        }
    }
    if lo.value > hi.value {
        return Err(err(path, format!("the lower bound {} is above the upper bound {}", decimal(lo.value), decimal(hi.value))));
    }
    Ok((lo, hi))
}

fn bound(v: &Value, path: &str) -> Result<Bound> {
    match v {
        Value::Integer(i) => Ok(Bound { value: *i as f64, unit: None, integer: true }),
        Value::Float(f) => Ok(Bound { value: *f, unit: None, integer: false }),
        Value::String(s) => {
            let s = s.trim();
            let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).unwrap_or(s.len());
            let value = s[..end].parse::<f64>().map_err(|_| {
                err(path, format!("\"{s}\" is not a number with a unit (write e.g. \"30km/h\" or \"10s\")"))
            })?;
            Ok(Bound { value, unit: Some(s[end..].trim().to_owned()), integer: false })
        }
        _ => Err(err(path, "expected a number or a value with a unit such as \"30km/h\"")),
    }
}

/// `v` as a decimal the unit parsers read: no exponent, at most nine digits after the point.
fn decimal(v: f64) -> String {
    let s = format!("{v:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(text: &str, count: u64) -> Result<Vec<Value>> {
        let t: Table = toml::from_str(&format!("g = {text}")).unwrap();
        let g = t["g"].as_table().unwrap();
        assert!(is_generator(g));
        let streams = RngStreams::new(1);
        values(g, "p", "k", &Draws { streams: &streams, population: "pop", count })
    }

    #[test]
    fn spread_is_even_over_a_half_open_interval_and_keeps_the_unit() {
        let v = gen(r#"{ spread = ["0s", "10s"] }"#, 4).unwrap();
        assert_eq!(v, ["0s", "2.5s", "5s", "7.5s"].map(|s| Value::String(s.into())));
        assert_eq!(gen("{ spread = [0, 10] }", 4).unwrap(), [0, 2, 5, 7].map(Value::Integer));
        // Units of one kind mix: the finer one is kept.
        let v = gen(r#"{ spread = ["0s", "10ms"] }"#, 4).unwrap();
        assert_eq!(v, ["0ms", "2.5ms", "5ms", "7.5ms"].map(|s| Value::String(s.into())));
    }

    #[test]
    fn cycle_takes_the_values_in_turn() {
        let v = gen(r#"{ cycle = ["a", "b", "c"] }"#, 5).unwrap();
        assert_eq!(v, ["a", "b", "c", "a", "b"].map(|s| Value::String(s.into())));
    }

    #[test]
    fn uniform_and_poisson_draw_from_named_streams_in_range() {
        let v = gen(r#"{ uniform = ["30km/h", "60km/h"] }"#, 50).unwrap();
        for x in &v {
            let s = x.as_str().unwrap();
            let n: f64 = s.trim_end_matches("km/h").parse().unwrap();
            assert!((30.0..60.0).contains(&n), "{s}");
        }
        assert_eq!(v, gen(r#"{ uniform = ["30km/h", "60km/h"] }"#, 50).unwrap(), "same seed, same draws");
        let t = gen(r#"{ poisson = { from = "1s", rate = 100 } }"#, 1000).unwrap();
        let ns: Vec<u64> = t.iter().map(|x| x.as_str().unwrap().trim_end_matches("ns").parse().unwrap()).collect();
        assert!(ns.windows(2).all(|w| w[0] <= w[1]) && ns[0] >= 1_000_000_000);
        // 1000 arrivals at 100 a second take about 10 s (the sum of 1000 gaps: sd 0.32 s).
        let span = (ns[999] - 1_000_000_000) as f64 / 1e9;
        assert!((8.5..11.5).contains(&span), "{span}");
    }

    #[test]
    fn bad_generators_name_their_key() {
        let e = gen(r#"{ poisson = { rate = -2.0 } }"#, 3).unwrap_err();
        assert_eq!(e.path, "p.poisson.rate");
        assert!(e.message.contains("greater than 0"), "{e}");
        let e = gen(r#"{ spread = ["1s", "2km/h"] }"#, 3).unwrap_err();
        assert_eq!(e.path, "p.spread");
        assert!(e.message.contains("not of the same kind"), "{e}");
        let e = gen(r#"{ uniform = ["9s", "2s"] }"#, 3).unwrap_err();
        assert!(e.message.contains("above the upper bound"), "{e}");
        assert_eq!(gen("{ cycle = [] }", 3).unwrap_err().path, "p.cycle");
    }
}
