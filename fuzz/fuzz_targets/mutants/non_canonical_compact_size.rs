//! The reference against the mutant non-canonical-compact-size: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::non_canonical_compact_size(data));

#[cfg(not(fuzzing))]
fn main() {}
