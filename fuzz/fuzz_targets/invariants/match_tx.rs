//! Arbitrary transactions and filters against the matching invariants.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::invariants::match_tx(data));

#[cfg(not(fuzzing))]
fn main() {}
