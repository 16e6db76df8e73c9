//! A segment number or none in one word (issue #29, memory per flow): `Option<u64>` takes two
//! words, and every sender carries several such fields. No segment is numbered `u64::MAX` (a
//! flow would have to send 2^64 segments), so that value stands for none.

/// A segment number, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OptSeq(u64);

impl OptSeq {
    /// No segment.
    pub(crate) const NONE: OptSeq = OptSeq(u64::MAX);

    /// Segment `seq` (never `u64::MAX`).
    #[inline]
    pub(crate) fn some(seq: u64) -> Self {
        debug_assert_ne!(seq, u64::MAX, "no segment has the number that stands for none");
        OptSeq(seq)
    }

    /// The segment, if any.
    #[inline]
    pub(crate) fn get(self) -> Option<u64> {
        (self.0 != u64::MAX).then_some(self.0)
    }
}

impl Default for OptSeq {
    fn default() -> Self {
        OptSeq::NONE
    }
}

impl From<Option<u64>> for OptSeq {
    fn from(seq: Option<u64>) -> Self {
        seq.map_or(OptSeq::NONE, OptSeq::some)
    }
}

#[cfg(test)]
mod tests {
    use super::OptSeq;

    #[test]
    fn a_segment_number_round_trips_and_none_is_none() {
        for seq in [0, 1, 41, u64::MAX - 1] {
            assert_eq!(OptSeq::some(seq).get(), Some(seq));
            assert_eq!(OptSeq::from(Some(seq)).get(), Some(seq));
        }
        assert_eq!(OptSeq::NONE.get(), None);
        assert_eq!(OptSeq::default().get(), None);
        assert_eq!(OptSeq::from(None).get(), None);
    }
}
