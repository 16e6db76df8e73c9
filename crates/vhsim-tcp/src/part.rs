//! Axes and their parts: how a variant of an axis is registered, configured and dispatched.
//!
//! An axis (window law, loss detection, recovery, ...) is a trait. Each variant is one file: a
//! state type implementing the axis trait and [`Part`] (its options type and constructor). One
//! [`axis!`](crate::axis) line per variant, `"kind" => Variant(file::StateType),`, registers it
//! (and declares the module `file`); the macro generates
//!
//! - the axis's **configuration enum**, read straight from the scenario: a bare kind
//!   (`recovery = "sack1"`, every option at its default) or a table whose first key is `kind`
//!   (`rto_response = { kind = "frto", variant = "sack" }`); the variant's options type denies
//!   unknown fields, so an option of a variant that is not selected is an error naming its key
//!   path. It serializes back as a table with `kind` first and describes itself in the JSON
//!   Schema;
//! - the **state enum** `Any..` built from it (enum dispatch: no `Box<dyn>` in the hot path);
//! - a local `dispatch` macro that the axis module uses to forward each trait method to the
//!   variant, so the compiler checks that every variant implements the whole trait.
//!
//! Tables merged from a preset and the user's overrides always have `kind` first
//! ([`crate::config::resolve`]); a table given directly (a test) must too.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A variant of an axis: its options and how it is built.
pub trait Part: Sized {
    /// The options of this variant as the scenario writes them next to `kind`; `Default` is the
    /// variant's documented defaults.
    type Config: PartConfig;
    /// What else the part may read when it is built (the sender's or the sink's configuration).
    type Settings;
    /// Build the part from its options.
    fn new(cfg: &Self::Config, settings: &Self::Settings) -> Self;
}

/// The options type of a variant.
pub trait PartConfig:
    Clone + fmt::Debug + PartialEq + Default + Serialize + DeserializeOwned + schemars::JsonSchema
{
    /// Range and cross-field checks of these options; the error's path is relative to the
    /// axis table (e.g. `k`).
    fn validate(&self) -> Result<(), crate::config::ConfigError> {
        Ok(())
    }
}

/// The options of a variant that has none (`{ kind = "conventional" }`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

impl PartConfig for NoOptions {}

/// A variant without options whose state starts at `Default`: declares its [`Part`] impl
/// (`no_options_part!(Reno, TcpConfig);`).
#[macro_export]
#[doc(hidden)]
macro_rules! no_options_part {
    ($Type:ty, $Settings:ty) => {
        impl $crate::part::Part for $Type {
            type Config = $crate::part::NoOptions;
            type Settings = $Settings;
            fn new(_: &$crate::part::NoOptions, _: &$Settings) -> Self {
                Default::default()
            }
        }
    };
}

/// `one of `a`, `b`` for messages.
#[doc(hidden)]
pub fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|k| format!("`{k}`")).collect();
    format!("one of {}", quoted.join(", "))
}

/// Reads `kind` and checks it against the axis's kinds, so that an unknown kind is reported
/// at the key path `<axis>.kind`.
pub(crate) struct KindSeed(pub &'static [&'static str]);

impl<'de> serde::de::DeserializeSeed<'de> for KindSeed {
    type Value = &'static str;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let kind = String::deserialize(d)?;
        self.0
            .iter()
            .find(|k| **k == kind)
            .copied()
            .ok_or_else(|| serde::de::Error::unknown_variant(&kind, self.0))
    }
}

/// The JSON Schema of one variant: its options' object schema with the `kind` property added.
pub(crate) fn variant_schema<C: schemars::JsonSchema>(
    gen: &mut schemars::SchemaGenerator,
    kind: &str,
    description: &str,
) -> schemars::Schema {
    let mut s = C::json_schema(gen);
    if let Some(obj) = s.as_object_mut() {
        let props = obj.entry("properties").or_insert_with(|| serde_json::json!({}));
        if let Some(p) = props.as_object_mut() {
            p.insert("kind".into(), serde_json::json!({ "const": kind }));
        }
        let req = obj.entry("required").or_insert_with(|| serde_json::json!([]));
        if let Some(r) = req.as_array_mut() {
            r.insert(0, serde_json::json!("kind"));
        }
        obj.insert("description".into(), tidy(description).into());
        obj.remove("title");
    }
    s
}

/// Doc-comment text as one description: lines trimmed, outer blank lines dropped.
fn tidy(doc: &str) -> String {
    doc.lines().map(str::trim).collect::<Vec<_>>().join("\n").trim().to_owned()
}

/// The JSON Schema of an axis: a kind name, or one of the variants' tables.
pub(crate) fn axis_schema(
    kinds: &[&str],
    variants: Vec<schemars::Schema>,
    description: &str,
) -> schemars::Schema {
    schemars::json_schema!({
        "description": tidy(description),
        "anyOf": [
            { "type": "string", "enum": kinds, "description": "A kind with all its options at their defaults." },
            { "oneOf": variants }
        ]
    })
}

/// Declare an axis: its configuration enum, its state enum and a dispatch macro, from one line
/// per variant (`"kind" => Variant(file::StateType),`, each with a doc comment), which also
/// declares the variant's module `file`. The first variant is the default. A variant written
/// `"kind" => Variant(file::StateType) boxed,` keeps its state behind a pointer: the state
/// enum is as large as its largest inline variant and every sender carries it, so a
/// scheme-specific state of more than a few words is boxed and the plain schemes stay small
/// (issue #29: memory per flow). See the module docs.
#[macro_export]
#[doc(hidden)]
macro_rules! axis {
    (
        @dollar ($d:tt)
        $(#[doc = $cdoc:literal])*
        config $Config:ident;
        $(#[doc = $adoc:literal])*
        state $Any:ident;
        dispatch $dispatch:ident;
        settings $Settings:ty;
        $( $(#[doc = $vdoc:literal])* $kind:literal => $Variant:ident($module:ident :: $State:ident) $($boxed:ident)?, )+
    ) => {
        $( pub mod $module; )+

        $(#[doc = $cdoc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(tag = "kind")]
        pub enum $Config {
            $( $(#[doc = $vdoc])* #[serde(rename = $kind)] $Variant(<$module::$State as $crate::part::Part>::Config), )+
        }

        impl $Config {
            /// The kinds of this axis, in the order of the files' documentation.
            pub const KINDS: &'static [&'static str] = &[$($kind),+];

            /// The selected kind.
            pub fn kind(&self) -> &'static str {
                match self { $( $Config::$Variant(_) => $kind, )+ }
            }

            /// The selected variant's own checks (paths relative to the axis table).
            pub fn validate(&self) -> Result<(), $crate::config::ConfigError> {
                match self { $( $Config::$Variant(c) => $crate::part::PartConfig::validate(c), )+ }
            }
        }

        impl Default for $Config {
            fn default() -> Self {
                $crate::axis!(@first $Config $( $Variant )+)
            }
        }

        impl<'de> serde::Deserialize<'de> for $Config {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = $Config;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        write!(f, "a kind ({}) or a table `{{ kind = ..., <options> }}`",
                            $crate::part::one_of($Config::KINDS))
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$Config, E> {
                        match v {
                            $( $kind => Ok($Config::$Variant(Default::default())), )+
                            _ => Err(E::unknown_variant(v, $Config::KINDS)),
                        }
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$Config, A::Error> {
                        use serde::de::Error as _;
                        match map.next_key::<String>()?.as_deref() {
                            Some("kind") => {}
                            Some(other) => {
                                return Err(A::Error::custom(format!(
                                    "`kind` must be the first key of the table (found `{other}` first)"
                                )))
                            }
                            None => return Err(A::Error::missing_field("kind")),
                        }
                        let kind = map.next_value_seed($crate::part::KindSeed($Config::KINDS))?;
                        let rest = serde::de::value::MapAccessDeserializer::new(map);
                        let result = match kind {
                            $( $kind => serde::Deserialize::deserialize(rest).map($Config::$Variant), )+
                            other => return Err(A::Error::unknown_variant(other, $Config::KINDS)),
                        };
                        // Say which kind the options were read for (an option of another kind
                        // is the usual mistake); the key path is the option's.
                        result.map_err(|e: A::Error| A::Error::custom(format!("{e} (options of kind = \"{kind}\")")))
                    }
                }
                d.deserialize_any(V)
            }
        }

        impl schemars::JsonSchema for $Config {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($Config).into()
            }
            fn json_schema(gen: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let variants = vec![$(
                    $crate::part::variant_schema::<<$module::$State as $crate::part::Part>::Config>(
                        gen, $kind, concat!($($vdoc, "\n",)* ""),
                    ),
                )+];
                $crate::part::axis_schema($Config::KINDS, variants, concat!($($cdoc, "\n",)* ""))
            }
        }

        $(#[doc = $adoc])*
        #[derive(Clone, Debug)]
        pub enum $Any {
            $( $(#[doc = $vdoc])* $Variant($crate::axis!(@slot $($boxed)? $module::$State)), )+
        }

        impl $Any {
            /// Build the selected variant.
            pub fn new(cfg: &$Config, settings: &$Settings) -> Self {
                match cfg {
                    $( $Config::$Variant(c) => $Any::$Variant(<$module::$State as $crate::part::Part>::new(c, settings).into()), )+
                }
            }
        }

        /// `dispatch!(self, p => p.method(args))`: call the selected variant.
        macro_rules! $dispatch {
            ($d this:expr, $d p:ident => $d body:expr) => {
                match $d this {
                    $( $Any::$Variant($d p) => { $( let $d p = $crate::part::$boxed($d p); )? $d body } )+
                }
            };
        }
    };
    (@first $Config:ident $First:ident $( $Rest:ident )*) => {
        $Config::$First(Default::default())
    };
    (@slot boxed $module:ident :: $State:ident) => { Box<$module::$State> };
    (@slot $module:ident :: $State:ident) => { $module::$State };
    ($($body:tt)*) => {
        $crate::axis! { @dollar ($) $($body)* }
    };
}

/// The state of a variant the [`axis!`](crate::axis) declares `boxed`, as a dispatch arm reaches
/// it: `&Box<T>` gives `&T` and `&mut Box<T>` gives `&mut T`, so the arm's body reads the same
/// whether the state is boxed or not.
#[doc(hidden)]
pub fn boxed<B: Unbox>(b: B) -> B::State {
    b.unbox()
}

/// A reference to a boxed state ([`boxed`]).
#[doc(hidden)]
pub trait Unbox {
    /// The reference to the state.
    type State;
    /// Reach through the box.
    fn unbox(self) -> Self::State;
}

#[allow(clippy::borrowed_box)]
impl<'a, T> Unbox for &'a Box<T> {
    type State = &'a T;
    fn unbox(self) -> &'a T {
        self
    }
}

impl<'a, T> Unbox for &'a mut Box<T> {
    type State = &'a mut T;
    fn unbox(self) -> &'a mut T {
        self
    }
}

/// Declare an enum written as one of a few names (`timer = "impatient"`), with its serde (a
/// wrong type is reported with the names allowed, which TOML's own enum reading does not do)
/// and its JSON Schema. The first name is the default.
#[macro_export]
#[doc(hidden)]
macro_rules! named_enum {
    (
        $(#[doc = $doc:literal])*
        pub enum $Enum:ident {
            $( $(#[doc = $vdoc:literal])* $name:literal => $Variant:ident, )+
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $Enum {
            $( $(#[doc = $vdoc])* $Variant, )+
        }

        impl $Enum {
            /// The names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The name.
            pub fn name(self) -> &'static str {
                match self { $( $Enum::$Variant => $name, )+ }
            }
        }

        impl Default for $Enum {
            fn default() -> Self {
                $crate::named_enum!(@first $Enum $( $Variant )+)
            }
        }

        impl serde::Serialize for $Enum {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $Enum {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $Enum;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str(&$crate::part::one_of($Enum::NAMES))
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$Enum, E> {
                        match v {
                            $( $name => Ok($Enum::$Variant), )+
                            _ => Err(E::unknown_variant(v, $Enum::NAMES)),
                        }
                    }
                }
                d.deserialize_any(V)
            }
        }

        impl schemars::JsonSchema for $Enum {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($Enum).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "enum": $Enum::NAMES,
                    "description": concat!($($doc, "\n",)* "").trim(),
                })
            }
        }
    };
    (@first $Enum:ident $First:ident $( $Rest:ident )*) => {
        $Enum::$First
    };
}
