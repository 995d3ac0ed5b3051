//! The reference against the mutant signed-tweak: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::signed_tweak(data));

#[cfg(not(fuzzing))]
fn main() {}
