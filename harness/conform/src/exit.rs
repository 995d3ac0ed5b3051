//! The exit codes of `bip37-conform`, for CI systems to act on (also in `--help` and README).

/// At least one test passed, and every other selected test passed, was not claimed, or failed
/// as the expectations file says.
pub const CONFORMANT: u8 = 0;
/// Some test failed, a listed failure passed, or an expectations entry is stale.
pub const FAILURES: u8 = 1;
/// Bad arguments, unreadable or unwritable files (stdout included), or an implementation that
/// cannot start.
pub const HARNESS_ERROR: u8 = 2;
/// The implementation crashed or timed out, or the run hit its overall time bound.
pub const BREAKDOWN: u8 = 3;
/// A vector file is invalid.
pub const INVALID_VECTORS: u8 = 4;
/// Nothing failed, but no test passed: nothing was exercised (`--allow-empty` turns this
/// into [`CONFORMANT`]).
pub const NOTHING_EXERCISED: u8 = 5;

/// The exit code of an implementation that cannot be started: 3 when it crashed or timed out
/// on the way, 2 when it could not be run or greeted at all (a missing program, or an
/// interpreter saying the adapter's file is missing).
pub fn of_start_error(error: &bip37_harness::subprocess::StartError) -> u8 {
    if error.is_breakdown() {
        BREAKDOWN
    } else {
        HARNESS_ERROR
    }
}
