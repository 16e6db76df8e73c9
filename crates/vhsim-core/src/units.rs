//! Values with units, as scenario files write them: `"9ms"`, `"6400kbps"`, `"1460B"`, `"20pkt"`.
//!
//! A value is a decimal number (digits, optionally `.` and more digits; no sign, no exponent),
//! optional spaces, and a unit from a fixed, case-sensitive table. Decimal digits are exact
//! (no floating point): a duration is rounded to the nearest nanosecond and a rate to the nearest
//! bit/s (halves round up), while sizes and packet counts must come out whole. Each unit type
//! deserializes from a TOML string (packet counts also from a bare integer) and describes itself
//! in the JSON Schema as a string with a `pattern`.

use crate::{Rate, SimDuration};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A family of units: what the value is, and each unit's size in the base unit.
#[derive(Debug)]
pub struct UnitKind {
    /// "duration", "rate", ... (for messages).
    what: &'static str,
    /// Unit used in the example of an error message (`like "9ms"`).
    example_unit: &'static str,
    /// (unit, multiplier to the base unit).
    units: &'static [(&'static str, u128)],
    /// Whether the result must be a whole number of base units (otherwise: round).
    whole: Option<&'static str>,
}

/// Durations; base unit ns.
pub const DURATION: UnitKind = UnitKind {
    what: "duration",
    example_unit: "ms",
    units: &[("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("min", 60_000_000_000)],
    whole: None,
};

/// Rates; base unit bit/s (1 kbps = 1000 bit/s).
pub const RATE: UnitKind = UnitKind {
    what: "rate",
    example_unit: "Mbps",
    units: &[
        ("bps", 1),
        ("kbps", 1_000),
        ("Mbps", 1_000_000),
        ("Gbps", 1_000_000_000),
        ("b/s", 1),
        ("kb/s", 1_000),
        ("Mb/s", 1_000_000),
        ("Gb/s", 1_000_000_000),
    ],
    whole: None,
};

/// Sizes; base unit byte.
pub const SIZE: UnitKind = UnitKind {
    what: "size",
    example_unit: "B",
    units: &[("B", 1), ("kB", 1_000), ("KiB", 1_024), ("MB", 1_000_000), ("MiB", 1_048_576)],
    whole: Some("bytes"),
};

/// Packet counts.
pub const PACKETS: UnitKind =
    UnitKind { what: "packet count", example_unit: "pkt", units: &[("pkt", 1)], whole: Some("packets") };

/// A packet count or a size (queue limits, windows); `pkt` must stay the first unit.
pub const AMOUNT: UnitKind = UnitKind {
    what: "packet count or size",
    example_unit: "pkt",
    units: &[("pkt", 1), ("B", 1), ("kB", 1_000), ("KiB", 1_024), ("MB", 1_000_000), ("MiB", 1_048_576)],
    whole: Some("packets or bytes"),
};

/// Speeds; base unit mm/h, so that km/h and m/s are both whole multiples (park §4.1 gives
/// MN speeds in km/h).
pub const SPEED: UnitKind = UnitKind {
    what: "speed",
    example_unit: "km/h",
    units: &[("km/h", 1_000_000), ("m/s", 3_600_000)],
    whole: None,
};

/// Lengths (cell radius, distances); base unit mm.
pub const LENGTH: UnitKind =
    UnitKind { what: "length", example_unit: "m", units: &[("m", 1_000), ("km", 1_000_000)], whole: None };

/// The sizes in their kind's base unit of units `a` and `b`, if one kind of value (durations,
/// rates, sizes, speeds, lengths) has both: how to convert between them.
pub fn common_scale(a: &str, b: &str) -> Option<(u128, u128)> {
    let mult = |k: &UnitKind, u: &str| k.units.iter().find(|x| x.0 == u).map(|x| x.1);
    [&DURATION, &RATE, &SIZE, &SPEED, &LENGTH].into_iter().find_map(|k| Some((mult(k, a)?, mult(k, b)?)))
}

impl UnitKind {
    fn unit_names(&self) -> String {
        self.units.iter().map(|u| u.0).collect::<Vec<_>>().join(", ")
    }

    /// `a duration like "9ms" (units: ns, us, ms, s, min)`, using `num` in the example.
    fn like(&self, num: &str) -> String {
        let num = if num.is_empty() { "10" } else { num };
        format!("a {} like \"{num}{}\" (units: {})", self.what, self.example_unit, self.unit_names())
    }

    /// `expected a duration like ...`.
    fn hint(&self, num: &str) -> String {
        format!("expected {}", self.like(num))
    }

    /// Regular expression of the accepted strings (for the JSON Schema).
    fn pattern(&self) -> String {
        let alts: Vec<String> = self.units.iter().map(|u| u.0.replace('.', "\\.")).collect();
        format!("^[0-9]+(\\.[0-9]+)? *({})$", alts.join("|"))
    }

    /// Parse `text` into (value in base units, unit name).
    pub fn parse(&self, text: &str) -> Result<(u64, &'static str), String> {
        let t = text.trim();
        if let Some(abs) = t.strip_prefix('-') {
            let num = &abs[..abs.find(|c: char| !c.is_ascii_digit()).unwrap_or(abs.len())];
            return Err(format!("{text:?}: negative values are not allowed; {}", self.hint(num)));
        }
        let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
        let (num, unit) = (&t[..split], t[split..].trim_start());
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        let digits_ok = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits_ok(int) || (num.contains('.') && !digits_ok(frac)) {
            return Err(format!("{text:?} is not a {}; {}", self.what, self.hint("")));
        }
        if unit.is_empty() {
            return Err(format!("{text:?} has no unit; {}", self.hint(num)));
        }
        let Some(&(name, mult)) = self.units.iter().find(|u| u.0 == unit) else {
            return Err(format!("{text:?} has an unknown unit {unit:?}; {}", self.hint(num)));
        };
        let too_large = || format!("{text:?} is too large");
        let scale = 10u128.checked_pow(frac.len() as u32).ok_or_else(too_large)?;
        let mantissa: u128 = format!("{int}{frac}").parse().map_err(|_| too_large())?;
        let scaled = mantissa.checked_mul(mult).ok_or_else(too_large)?;
        if let Some(base) = self.whole {
            if scaled % scale != 0 {
                return Err(format!("{text:?} is not a whole number of {base}"));
            }
        }
        let value = scaled.checked_add(scale / 2).ok_or_else(too_large)? / scale;
        Ok((u64::try_from(value).map_err(|_| too_large())?, name))
    }
}

/// Parse a duration such as `"9ms"` or `"1.5s"` (the scenario format's rule).
pub fn parse_duration(text: &str) -> Result<SimDuration, String> {
    DURATION.parse(text).map(|(ns, _)| SimDuration::from_nanos(ns))
}

/// Format a duration for messages: `400s`, `1.5ms`, `250us`, `7ns`.
pub fn fmt_duration(d: SimDuration) -> String {
    let ns = d.as_nanos();
    let (div, unit) = match ns {
        0 => return "0s".to_owned(),
        n if n >= 1_000_000_000 => (1_000_000_000u64, "s"),
        n if n >= 1_000_000 => (1_000_000, "ms"),
        n if n >= 1_000 => (1_000, "us"),
        _ => (1, "ns"),
    };
    let frac = format!("{:0width$}", ns % div, width = div.ilog10() as usize);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{}{unit}", ns / div)
    } else {
        format!("{}.{frac}{unit}", ns / div)
    }
}

/// How a parsed (value, unit) becomes the Rust value; an `Err` is the message.
type Make<T> = fn(u64, &'static str) -> Result<T, String>;

/// Deserializes a unit-carrying string (and, if `bare_int`, a non-negative integer).
struct UnitVisitor<T> {
    kind: &'static UnitKind,
    bare_int: bool,
    make: Make<T>,
    _t: PhantomData<T>,
}

impl<T> UnitVisitor<T> {
    fn no_unit<E: de::Error>(&self, n: impl fmt::Display) -> E {
        E::custom(format!("{n} is a number without a unit; {}", self.kind.hint(&n.to_string())))
    }
}

impl<'de, T> Visitor<'de> for UnitVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind.like(""))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        let (n, unit) = self.kind.parse(v).map_err(E::custom)?;
        (self.make)(n, unit).map_err(|m| E::custom(format!("{v:?}: {m}")))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        if v < 0 {
            let msg = format!(
                "{v}: negative values are not allowed; {}",
                self.kind.hint(&v.unsigned_abs().to_string())
            );
            return Err(E::custom(msg));
        }
        self.visit_u64(v as u64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        if !self.bare_int {
            return Err(self.no_unit(v));
        }
        (self.make)(v, self.kind.units[0].0).map_err(|m| E::custom(format!("{v}: {m}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        // `inf`, `nan` and huge floats are TOML numbers too: no example built from them.
        if !v.is_finite() || v.abs() >= 1e15 {
            let shown = if v.is_finite() { format!("{v:e}") } else { v.to_string() };
            return Err(E::custom(format!("{shown} is not {}", self.kind.like(""))));
        }
        Err(self.no_unit(v))
    }
}

/// JSON Schema of a unit type: a string with a pattern (or also an integer).
fn unit_schema(kind: &UnitKind, bare_int: bool, description: &str) -> Schema {
    let string = json_schema!({ "type": "string", "pattern": kind.pattern() });
    if bare_int {
        json_schema!({
            "description": description,
            "anyOf": [{ "type": "integer", "minimum": 0 }, string],
        })
    } else {
        let mut s = string;
        s.insert("description".into(), description.into());
        s
    }
}

/// Declare a unit newtype with its `Deserialize` and `JsonSchema` impls.
macro_rules! unit_type {
    ($(#[$doc:meta])* $name:ident($inner:ty), $kind:expr, bare_int = $bare:expr, $make:expr, $desc:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let make: Make<$inner> = $make;
                d.deserialize_any(UnitVisitor { kind: &$kind, bare_int: $bare, make, _t: PhantomData })
                    .map($name)
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                unit_schema(&$kind, $bare, $desc)
            }
        }
    };
}

unit_type!(
    /// A duration such as `"9ms"` or `"1.5s"`.
    Duration(SimDuration), DURATION, bare_int = false,
    |n, _| Ok(SimDuration::from_nanos(n)),
    "A duration: a number and a unit (ns, us, ms, s, min), e.g. \"9ms\", \"1.5s\", \"0s\". \
     Rounded to the nearest nanosecond."
);

unit_type!(
    /// A link rate such as `"6400kbps"`; never zero.
    RateValue(Rate), RATE, bare_int = false,
    |n, _| if n == 0 { Err("a rate must be greater than zero".to_owned()) } else { Ok(Rate::bps(n)) },
    "A rate greater than zero: a number and a unit (bps, kbps, Mbps, Gbps, or b/s, kb/s, Mb/s, \
     Gb/s; 1 kbps = 1000 bit/s), e.g. \"6400kbps\", \"1.5Mbps\"."
);

unit_type!(
    /// A size in bytes such as `"1460B"` or `"64kB"`.
    Size(u64), SIZE, bare_int = false,
    |n, _| Ok(n),
    "A size: a number and a unit (B, kB = 1000 B, KiB = 1024 B, MB, MiB), e.g. \"1460B\", \"64kB\"; \
     it must come out as a whole number of bytes."
);

unit_type!(
    /// A packet count: `"20pkt"` or a bare integer.
    Packets(u64), PACKETS, bare_int = true,
    |n, _| Ok(n),
    "A packet count: a non-negative integer or a string like \"20pkt\"."
);

unit_type!(
    /// A speed in mm/h such as `"50km/h"` or `"10m/s"`; never zero.
    Speed(u64), SPEED, bare_int = false,
    |n, _| if n == 0 { Err("a speed must be greater than zero".to_owned()) } else { Ok(n) },
    "A speed greater than zero: a number and a unit (km/h, m/s), e.g. \"50km/h\", \"10m/s\". \
     Rounded to the nearest mm/h."
);

unit_type!(
    /// A length in mm such as `"500m"` or `"1.2km"`.
    Length(u64), LENGTH, bare_int = false,
    |n, _| Ok(n),
    "A length: a number and a unit (m, km), e.g. \"500m\", \"0.75km\". Rounded to the nearest mm."
);

/// A packet count or a size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmountKind {
    /// A number of packets.
    Packets(u64),
    /// A number of bytes.
    Bytes(u64),
}

unit_type!(
    /// A queue limit or a window: `"20pkt"` or a size like `"64000B"` (a unit is required).
    Amount(AmountKind), AMOUNT, bare_int = false,
    |n, unit| Ok(if unit == "pkt" { AmountKind::Packets(n) } else { AmountKind::Bytes(n) }),
    "A packet count like \"20pkt\" or a size like \"64000B\" (units: pkt, B, kB, KiB, MB, MiB)."
);

/// Serde for a [`SimDuration`] field written with a unit (`"200ms"`): it reads like
/// [`Duration`] and writes the exact shortest form of [`fmt_duration`], so a value reads back
/// unchanged. Use with `#[serde(with = "vhsim_core::units::as_duration")]` and
/// `#[schemars(with = "vhsim_core::units::Duration")]`.
pub mod as_duration {
    use super::{fmt_duration, Duration};
    use crate::SimDuration;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Write as `"200ms"`.
    pub fn serialize<S: Serializer>(d: &SimDuration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&fmt_duration(*d))
    }

    /// Read a duration with a unit.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SimDuration, D::Error> {
        Duration::deserialize(d).map(|v| v.0)
    }
}

/// Serde for a byte count held as `u32` and written as a size (`"1000B"`); a size that does
/// not fit in `u32` is an error. Schema: [`Size`].
pub mod as_bytes_u32 {
    use super::Size;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Write as `"1000B"`.
    pub fn serialize<S: Serializer>(n: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{n}B"))
    }

    /// Read a size.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let b = Size::deserialize(d)?.0;
        u32::try_from(b).map_err(|_| D::Error::custom(format!("{b}B is too large")))
    }
}

/// Serde for a packet count held as `u32`, written as an integer and read as [`Packets`]
/// (`20` or `"20pkt"`); a count that does not fit in `u32` is an error.
pub mod as_packets_u32 {
    use super::Packets;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Write as an integer.
    pub fn serialize<S: Serializer>(n: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*n)
    }

    /// Read a packet count.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let n = Packets::deserialize(d)?.0;
        u32::try_from(n).map_err(|_| D::Error::custom(format!("{n}pkt is too large")))
    }
}

/// Serde for a packet count held as `u32` and written with its unit (`"20pkt"`), for keys that
/// also accept sizes (windows: [`Amount`], converted to packets before they are read); reads
/// like [`as_packets_u32`].
pub mod as_packets_with_unit {
    use serde::{Deserializer, Serializer};

    /// Write as `"20pkt"`.
    pub fn serialize<S: Serializer>(n: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{n}pkt"))
    }

    /// Read a packet count.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        super::as_packets_u32::deserialize(d)
    }
}

/// Serde for an optional packet count held as `Option<u32>` (absent = `None`); use with
/// `#[serde(default, skip_serializing_if = "Option::is_none")]`.
pub mod as_opt_packets_u32 {
    use serde::{Deserializer, Serializer};

    /// Write the count as an integer (`None` is skipped by the field's attributes).
    pub fn serialize<S: Serializer>(n: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
        match n {
            Some(n) => s.serialize_u32(*n),
            None => s.serialize_none(),
        }
    }

    /// Read a packet count.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        super::as_packets_u32::deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_floats_get_no_odd_example() {
        #[derive(Debug, serde::Deserialize)]
        struct T {
            #[allow(dead_code)]
            d: Duration,
        }
        for (text, shown) in [("inf", "inf"), ("-inf", "-inf"), ("nan", "NaN"), ("1e300", "1e300")] {
            let e = toml::from_str::<T>(&format!("d = {text}")).unwrap_err().to_string();
            assert!(e.contains(&format!("{shown} is not a duration like \"10ms\"")), "{e}");
            assert!(!e.contains("infms") && e.len() < 300, "{e}");
        }
        let e = toml::from_str::<T>("d = 1.5").unwrap_err().to_string();
        assert!(e.contains("1.5 is a number without a unit; expected a duration like \"1.5ms\""), "{e}");
    }

    fn dur(s: &str) -> Result<u64, String> {
        DURATION.parse(s).map(|v| v.0)
    }

    #[test]
    fn every_unit_of_every_kind() {
        for kind in [&DURATION, &RATE, &SIZE, &PACKETS, &AMOUNT, &SPEED, &LENGTH] {
            for &(unit, mult) in kind.units {
                assert_eq!(kind.parse(&format!("3{unit}")), Ok((3 * mult as u64, unit)), "{unit}");
                assert!(kind.parse(&format!("3{}", unit.to_uppercase() + "x")).is_err(), "{unit}");
                let e = kind.parse("3").unwrap_err();
                assert!(
                    e.contains("has no unit") && e.contains(&format!("units: {}", kind.unit_names())),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn durations() {
        assert_eq!(dur("9ms"), Ok(9_000_000));
        assert_eq!(dur("1.5ms"), Ok(1_500_000));
        assert_eq!(dur("0.5s"), Ok(500_000_000));
        assert_eq!(dur("2min"), Ok(120_000_000_000));
        assert_eq!(dur("7ns"), Ok(7));
        assert_eq!(dur("3 us"), Ok(3_000));
        assert_eq!(dur("0s"), Ok(0));
        // Rounded to the nearest ns, halves up.
        assert_eq!(dur("1.4ns"), Ok(1));
        assert_eq!(dur("1.5ns"), Ok(2));
        assert_eq!(dur("0.0000000015s"), Ok(2));
        assert_eq!(dur("0.333333333333s"), Ok(333_333_333));
    }

    #[test]
    fn duration_errors() {
        let e = dur("9").unwrap_err();
        assert_eq!(e, "\"9\" has no unit; expected a duration like \"9ms\" (units: ns, us, ms, s, min)");
        assert!(dur("9sec").unwrap_err().contains("unknown unit \"sec\""));
        assert!(dur("-1ms").unwrap_err().contains("negative"));
        assert!(dur("ms").unwrap_err().contains("is not a duration"));
        assert!(dur("1.ms").unwrap_err().contains("is not a duration"));
        assert!(dur("1e3ms").unwrap_err().contains("unknown unit \"e3ms\""));
        assert!(dur("99999999999999999999999s").unwrap_err().contains("too large"));
    }

    #[test]
    fn rates_sizes_packets() {
        assert_eq!(RATE.parse("6400kbps"), Ok((6_400_000, "kbps")));
        assert_eq!(RATE.parse("1.5Mb/s").map(|v| v.0), Ok(1_500_000));
        assert_eq!(RATE.parse("1Gbps").map(|v| v.0), Ok(1_000_000_000));
        assert_eq!(RATE.parse("0.0004bps").map(|v| v.0), Ok(0));
        assert!(RATE.parse("10Mbs").unwrap_err().contains("unknown unit \"Mbs\""));
        assert_eq!(SIZE.parse("64kB").map(|v| v.0), Ok(64_000));
        assert_eq!(SIZE.parse("2KiB").map(|v| v.0), Ok(2_048));
        assert_eq!(SIZE.parse("1.5kB").map(|v| v.0), Ok(1_500));
        assert_eq!(SIZE.parse("1MiB").map(|v| v.0), Ok(1_048_576));
        assert!(SIZE.parse("1.5B").unwrap_err().contains("whole number of bytes"));
        assert_eq!(PACKETS.parse("20pkt").map(|v| v.0), Ok(20));
        assert!(PACKETS.parse("2.5pkt").unwrap_err().contains("whole number of packets"));
        assert_eq!(AMOUNT.parse("100pkt"), Ok((100, "pkt")));
        assert_eq!(AMOUNT.parse("64kB"), Ok((64_000, "kB")));
    }

    #[test]
    fn speeds_and_lengths() {
        assert_eq!(SPEED.parse("36km/h"), Ok((36_000_000, "km/h")));
        assert_eq!(SPEED.parse("10m/s"), Ok((36_000_000, "m/s")));
        assert_eq!(SPEED.parse("0.5 km/h").map(|v| v.0), Ok(500_000));
        assert!(SPEED.parse("50kmh").unwrap_err().contains("unknown unit \"kmh\""));
        assert!(SPEED.parse("-50km/h").unwrap_err().contains("negative"));
        assert_eq!(LENGTH.parse("500m"), Ok((500_000, "m")));
        assert_eq!(LENGTH.parse("0.75km").map(|v| v.0), Ok(750_000));
        assert_eq!(LENGTH.parse("0.0004m").map(|v| v.0), Ok(0));
        assert!(LENGTH.parse("500").unwrap_err().contains("has no unit"));
    }

    #[test]
    fn formats_durations() {
        let f = |ns| fmt_duration(SimDuration::from_nanos(ns));
        assert_eq!(f(400_000_000_000), "400s");
        assert_eq!(f(1_500_000), "1.5ms");
        assert_eq!(f(1_000_001), "1.000001ms");
        assert_eq!(f(250_000), "250us");
        assert_eq!(f(7), "7ns");
        assert_eq!(f(0), "0s");
    }

    #[test]
    fn deserializes_from_toml() {
        #[derive(Deserialize)]
        struct T {
            d: Duration,
            r: RateValue,
            p: Packets,
            q: Packets,
            a: Amount,
        }
        let t: T = toml::from_str("d = \"1.5s\"\nr = \"2Mbps\"\np = 3\nq = \"4pkt\"\na = \"1kB\"").unwrap();
        assert_eq!(t.d.0, SimDuration::from_millis(1_500));
        assert_eq!(t.r.0, Rate::mbps(2));
        assert_eq!((t.p.0, t.q.0), (3, 4));
        assert_eq!(t.a.0, AmountKind::Bytes(1_000));
        let e = toml::from_str::<T>("d = 5\nr = \"2Mbps\"\np = 3\nq = 1\na = \"1B\"").err().unwrap();
        assert!(e.message().contains("5 is a number without a unit"), "{e}");
        let e = toml::from_str::<T>("d = \"5s\"\nr = \"0Mbps\"\np = 3\nq = 1\na = \"1B\"").err().unwrap();
        assert!(e.message().contains("greater than zero"), "{e}");
        let e = toml::from_str::<T>("d = \"5s\"\nr = \"1bps\"\np = -3\nq = 1\na = \"1B\"").err().unwrap();
        assert!(e.message().contains("negative"), "{e}");
        let e = toml::from_str::<T>("d = true\nr = \"1bps\"\np = 3\nq = 1\na = \"1B\"").err().unwrap();
        assert!(e.message().contains("invalid type: boolean `true`, expected a duration like"), "{e}");
    }
}
