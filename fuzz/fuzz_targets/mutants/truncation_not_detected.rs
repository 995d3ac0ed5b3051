//! The reference against the mutant truncation-not-detected: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::truncation_not_detected(data));

#[cfg(not(fuzzing))]
fn main() {}
