//! The reference against the mutant limit-off-by-one: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::limit_off_by_one(data));

#[cfg(not(fuzzing))]
fn main() {}
