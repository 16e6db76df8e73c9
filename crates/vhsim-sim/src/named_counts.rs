//! Counters by name for the summary (a flow's drops by cause, its engagement counters), kept as
//! one exact-size array of `(name, count)` sorted by name instead of a map of owned strings: a
//! run of 10,000 flows holds 10,000 of each while the summary is built (issue #29, memory per
//! flow). It serializes as the map it replaces (`{"agent": 0, "binding": 0, ...}`, keys in
//! order) and reads like one (`drops["link_down"]`, `get`, `values`).

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::ops::Index;

/// Counts by name, sorted by name, each name once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamedCounts(Box<[(&'static str, u64)]>);

impl NamedCounts {
    /// The counts of `pairs`, sorted by name; a name given twice is added up.
    pub fn new(pairs: impl IntoIterator<Item = (&'static str, u64)>) -> Self {
        let mut v: Vec<(&'static str, u64)> = pairs.into_iter().collect();
        v.sort_by_key(|&(name, _)| name);
        v.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
        NamedCounts(v.into_boxed_slice())
    }

    /// The count of `name`, if it is one of the names.
    pub fn get(&self, name: &str) -> Option<&u64> {
        self.0.binary_search_by_key(&name, |&(n, _)| n).ok().map(|i| &self.0[i].1)
    }

    /// (name, count) in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.0.iter().copied()
    }

    /// The counts, in name order.
    pub fn values(&self) -> impl Iterator<Item = &u64> + '_ {
        self.0.iter().map(|(_, n)| n)
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Index<&str> for NamedCounts {
    type Output = u64;

    fn index(&self, name: &str) -> &u64 {
        self.get(name).unwrap_or_else(|| panic!("no count named `{name}`"))
    }
}

impl Serialize for NamedCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, n) in self.iter() {
            map.serialize_entry(name, &n)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn serializes_as_the_sorted_map_and_adds_up_repeated_names() {
        let c = NamedCounts::new([("zeta", 1), ("alpha", 2), ("zeta", 3)]);
        let map: BTreeMap<String, u64> = [("alpha".to_owned(), 2), ("zeta".to_owned(), 4)].into();
        assert_eq!(serde_json::to_string(&c).unwrap(), serde_json::to_string(&map).unwrap());
        assert_eq!((c["zeta"], c.get("beta"), c.values().sum::<u64>()), (4, None, 6));
    }
}
