//! Named presets: each scheme of the papers is a TOML table (`crates/vhsim-tcp/presets/`,
//! compiled into the library), merged under a flow's own `[tcp]` and `[sink]` tables before
//! they are read ([`crate::config::resolve`]). A preset file holds `description`, `source` (the
//! paper and section) and the `[tcp]` / `[sink]` tables; every axis of the composition is
//! written out, scalar settings come from the scenario's set of defaults ([`Defaults`]: the
//! RFCs' or ns-2.35's) unless the preset sets them (`linux`). Adding a preset = one file + one
//! line in [`FILES`].

use crate::config::{self, ConfigError, Defaults, SinkConfig, TcpConfig};
use std::sync::LazyLock;
use toml::{Table, Value};

/// The preset files, in the order `vhsim schemes` lists them.
const FILES: &[(&str, &str)] = &[
    ("sack", include_str!("../presets/sack.toml")),
    ("sack-rfc6675", include_str!("../presets/sack-rfc6675.toml")),
    ("newreno", include_str!("../presets/newreno.toml")),
    ("reno", include_str!("../presets/reno.toml")),
    ("frto", include_str!("../presets/frto.toml")),
    ("dcr", include_str!("../presets/dcr.toml")),
    ("dcr-frto", include_str!("../presets/dcr-frto.toml")),
    ("dcr-ld", include_str!("../presets/dcr-ld.toml")),
    ("dcr-frto-ld", include_str!("../presets/dcr-frto-ld.toml")),
    ("regular", include_str!("../presets/regular.toml")),
    ("enhanced", include_str!("../presets/enhanced.toml")),
    ("enhanced-a5", include_str!("../presets/enhanced-a5.toml")),
    ("vegas", include_str!("../presets/vegas.toml")),
    ("westwood", include_str!("../presets/westwood.toml")),
    ("freeze", include_str!("../presets/freeze.toml")),
    ("demo-vegas", include_str!("../presets/demo-vegas.toml")),
    ("ftv2", include_str!("../presets/ftv2.toml")),
    ("cubic", include_str!("../presets/cubic.toml")),
    ("newreno-prr", include_str!("../presets/newreno-prr.toml")),
    ("rack", include_str!("../presets/rack.toml")),
    ("linux", include_str!("../presets/linux.toml")),
];

/// One named preset.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Name used in scenarios (`scheme = "sack"`).
    pub name: &'static str,
    /// One line for `vhsim schemes`.
    pub description: String,
    /// The paper and section (or RFC) the composition comes from.
    pub source: String,
    tcp: Table,
    sink: Table,
}

static PRESETS: LazyLock<Vec<Preset>> =
    LazyLock::new(|| FILES.iter().map(|&(n, t)| Preset::parse(n, t)).collect());

/// All presets, in listing order.
pub fn all() -> &'static [Preset] {
    &PRESETS
}

/// Look up a preset by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// Names of all presets (for error messages).
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

impl Preset {
    /// Parse a shipped preset file; a malformed one is a bug of the package (the tests read
    /// every one).
    fn parse(name: &'static str, text: &str) -> Preset {
        let mut t: Table = toml::from_str(text).unwrap_or_else(|e| panic!("preset {name}: {e}"));
        let mut take_str = |k: &str| match t.remove(k) {
            Some(Value::String(s)) => s,
            _ => panic!("preset {name}: `{k}` must be a string"),
        };
        let (description, source) = (take_str("description"), take_str("source"));
        let mut take_table = |k: &str| match t.remove(k) {
            Some(Value::Table(x)) => x,
            None => Table::new(),
            Some(_) => panic!("preset {name}: `{k}` must be a table"),
        };
        let (tcp, sink) = (take_table("tcp"), take_table("sink"));
        assert!(t.is_empty(), "preset {name}: unknown keys {:?}", t.keys().collect::<Vec<_>>());
        Preset { name, description, source, tcp, sink }
    }

    /// The preset's own `[tcp]` table.
    pub fn tcp_table(&self) -> &Table {
        &self.tcp
    }

    /// The preset's own `[sink]` table.
    pub fn sink_table(&self) -> &Table {
        &self.sink
    }

    /// The configurations of a flow with this preset over the set of defaults `set` and the
    /// flow's own `[tcp]` and `[sink]` tables (error paths start with `tcp.` or `sink.`).
    pub fn resolve(
        &self,
        set: Defaults,
        tcp: &Table,
        sink: &Table,
    ) -> Result<(TcpConfig, SinkConfig), ConfigError> {
        config::resolve(set, &self.tcp, &self.sink, tcp, sink)
    }

    /// The preset's sender configuration over the library's defaults (the RFC set).
    pub fn tcp_config(&self) -> TcpConfig {
        self.configs(Defaults::Rfc).0
    }

    /// The preset's sink configuration over the library's defaults (the RFC set).
    pub fn sink_config(&self) -> SinkConfig {
        self.configs(Defaults::Rfc).1
    }

    /// The preset's sender and sink configurations over the set of defaults `set`.
    pub fn configs(&self, set: Defaults) -> (TcpConfig, SinkConfig) {
        self.resolve(set, &Table::new(), &Table::new()).unwrap_or_else(|e| panic!("preset {}: {e}", self.name))
    }

    /// The resolved composition over the set of defaults `set` as TOML (`vhsim schemes
    /// --show`): a comment with the description, source and set, then the full `[tcp]` and
    /// `[sink]` tables.
    pub fn to_toml(&self, set: Defaults) -> String {
        let (tcp, sink) = self.configs(set);
        let mut doc = Table::new();
        doc.insert("tcp".into(), Value::Table(Table::try_from(tcp).expect("a configuration serializes")));
        doc.insert("sink".into(), Value::Table(Table::try_from(sink).expect("a configuration serializes")));
        format!(
            "# {}: {}\n# source: {}\n# defaults: {}\n\n{}",
            self.name,
            self.description,
            self.source,
            set.name(),
            toml::to_string(&doc).expect("a configuration serializes")
        )
    }
}
