//! Lists of indices per owner (per mobile node, per node) in two flat arrays: `groups[k]` is
//! owner `k`'s list, a slice. A `Vec<Vec<u32>>` costs 24 bytes per owner and one allocation per
//! non-empty list; this costs 4 bytes per owner and two allocations in all (issue #29, memory
//! per flow: a population has one mobile node per user).

use std::ops::Index;

/// The lists of `len()` owners, each in the order its items were given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups {
    /// Owner `k`'s items are `items[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Groups {
    /// `owners` lists from `(owner, item)` pairs, in any order of owners; each owner's items
    /// keep the order of the pairs.
    pub fn new(owners: usize, pairs: impl IntoIterator<Item = (usize, u32)> + Clone) -> Self {
        let mut start = vec![0u32; owners + 1];
        for (k, _) in pairs.clone() {
            start[k + 1] += 1;
        }
        for k in 0..owners {
            start[k + 1] += start[k];
        }
        let mut items = vec![0u32; start[owners] as usize];
        let mut next: Vec<u32> = start[..owners].to_vec();
        for (k, item) in pairs {
            items[next[k] as usize] = item;
            next[k] += 1;
        }
        Groups { start, items }
    }

    /// The number of owners.
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Whether there are no owners.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Groups {
    /// No owners.
    fn default() -> Self {
        Groups { start: vec![0], items: Vec::new() }
    }
}

impl Index<usize> for Groups {
    type Output = [u32];

    #[inline]
    fn index(&self, k: usize) -> &[u32] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::Groups;

    #[test]
    fn each_owner_gets_its_items_in_the_order_given() {
        let g = Groups::new(4, [(2, 7), (0, 1), (2, 3), (0, 9)]);
        assert_eq!(g.len(), 4);
        assert_eq!((&g[0], &g[1], &g[2], &g[3]), (&[1, 9][..], &[][..], &[7, 3][..], &[][..]));
        assert!(Groups::new(0, []).is_empty() && Groups::default().is_empty());
    }
}
