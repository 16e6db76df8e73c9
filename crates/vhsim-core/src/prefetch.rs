//! A hint that memory will be read soon (issue #29). With thousands of flows, consecutive
//! events belong to different flows in no order, and the state each one touches (its packet,
//! its flow's endpoints and records) is no longer in the caches: the event loop names what the
//! next events will touch while it handles the current one, so the fetches overlap with work.
//!
//! A prefetch changes no value and cannot fault (the processor drops a hint it cannot serve),
//! so it cannot change a run; on targets without the instruction it is nothing.

/// Bring the cache lines of `value` (at most `max_bytes` of it, from its start) towards the
/// processor.
#[inline(always)]
pub fn prefetch<T: ?Sized>(value: &T, max_bytes: usize) {
    let start = (value as *const T).cast::<u8>();
    let len = std::mem::size_of_val(value).min(max_bytes);
    if len == 0 {
        return;
    }
    // Every 64-byte line the bytes touch: steps of a line from the first byte, then the last.
    let mut offset = 0;
    while offset < len {
        prefetch_line(start.wrapping_add(offset));
        offset += LINE;
    }
    prefetch_line(start.wrapping_add(len - 1));
}

/// A cache line's size on the processors this runs on.
const LINE: usize = 64;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
fn prefetch_line(p: *const u8) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: PREFETCHT0 reads nothing into the program and never faults, whatever the
    // address (the intrinsic is `unsafe` only for its target feature, SSE, which every
    // x86-64 processor has).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_line(_: *const u8) {}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn a_prefetch_changes_nothing() {
        // Whole values, a prefix, an empty one, a slice across lines: the values stay as they were.
        let v: Vec<u64> = (0..100).collect();
        prefetch(&v[..], usize::MAX);
        prefetch(&v[3..], 100);
        prefetch(&v[..0], usize::MAX);
        let s = String::from("x");
        prefetch(&s, 8);
        assert_eq!(v.iter().sum::<u64>(), 4950);
        assert_eq!(s, "x");
    }
}
