//! The reference against the mutant no-element-size-limit: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::no_element_size_limit(data));

#[cfg(not(fuzzing))]
fn main() {}
