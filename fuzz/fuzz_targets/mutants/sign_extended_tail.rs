//! The reference against the mutant sign-extended-tail: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::sign_extended_tail(data));

#[cfg(not(fuzzing))]
fn main() {}
