//! A global allocator that remembers the largest single allocation a piece of code asked for,
//! so the decoder targets can check the rule "never allocate from an untrusted length" on every
//! input instead of trusting a code review: a decoder that reserves what a length prefix claims
//! would ask for more bytes than the payload holds.
//!
//! It wraps the system allocator and only records sizes, per thread, while a measurement is
//! running; everything else passes straight through.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator with a per-thread record of the largest request.
pub struct CountingAllocator;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn record(size: usize) {
    // `try_with`: during thread teardown the slots may be gone; nothing is measured then.
    let measuring = MEASURING.try_with(Cell::get).unwrap_or(false);
    if measuring {
        let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
    }
}

// SAFETY: every call is forwarded unchanged to `System`; recording touches only
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

/// Runs `f` and returns its result with the largest single allocation (in bytes) it made.
pub fn largest_allocation<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LARGEST.with(|largest| largest.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    let result = f();
    MEASURING.with(|measuring| measuring.set(false));
    (result, LARGEST.with(Cell::get))
}

#[cfg(test)]
mod tests {
    use super::largest_allocation;

    #[test]
    fn sees_the_largest_request() {
        let (v, largest) = largest_allocation(|| Vec::<u8>::with_capacity(12_345));
        assert_eq!(v.capacity(), 12_345);
        assert_eq!(largest, 12_345);
        let ((), nothing) = largest_allocation(|| ());
        assert_eq!(nothing, 0);
    }
}
