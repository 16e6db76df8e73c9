//! Giving the memory a run freed back to the system before Python builds its results (issue
//! #29, memory per idle flow; docs/performance.md "Issue #29: the last bytes of an idle flow").
//!
//! A run of many flows frees the world (its endpoints, records, routing) before its results
//! become Python objects. The allocator keeps the freed pages, but Python's objects come from
//! its own arenas, which cannot reuse them: without this step the results were built on top of
//! the world's peak, and that sum was the process's peak resident memory (0.4 KB per idle flow
//! at 10,000 flows). glibc's `malloc_trim` returns every whole free page to the system; the
//! pages are still the allocator's, and a later allocation simply touches them again. It
//! changes no value the run computed. Elsewhere than glibc it does nothing.

/// Return the pages freed so far to the system (glibc); nothing elsewhere.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn release_freed_memory() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::os::raw::c_int;
    }
    // SAFETY: `malloc_trim` only gives free pages back to the kernel (madvise); it frees no
    // live allocation and may be called at any time from any thread.
    unsafe {
        malloc_trim(0);
    }
}

/// Return the pages freed so far to the system (glibc); nothing elsewhere.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_freed_memory() {}
