//! The reference against the mutant seed-not-wrapped: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::seed_not_wrapped(data));

#[cfg(not(fuzzing))]
fn main() {}
