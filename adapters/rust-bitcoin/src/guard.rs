//! A panic inside rust-bitcoin reported as the crash it is, instead of unwinding through the
//! runner (in-process) or ending the server (over the subprocess protocol).

use bip37_harness::implementation::{Answer, Fault};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The answer of `work`, or a [`Fault::Crash`] carrying the panic's message.
pub fn guarded<T>(work: impl FnOnce() -> Answer<T>) -> Answer<T> {
    // The closures only read their inputs and build fresh values: nothing observes a
    // half-updated state after a panic.
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Answer::Fault(Fault::Crash(format!("rust-bitcoin panicked: {why}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_crash_with_its_message() {
        let answer: Answer<()> = guarded(|| panic!("assertion failed: left != right"));
        match answer {
            Answer::Fault(Fault::Crash(why)) => assert!(why.contains("left != right"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(guarded(|| Answer::Ok(7)), Answer::Ok(7));
    }
}
