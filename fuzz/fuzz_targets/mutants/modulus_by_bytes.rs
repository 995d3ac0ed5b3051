//! The reference against the mutant modulus-by-bytes: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::modulus_by_bytes(data));

#[cfg(not(fuzzing))]
fn main() {}
