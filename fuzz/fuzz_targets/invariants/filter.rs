//! Arbitrary filters against the properties every Bloom filter has.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::invariants::filter(data));

#[cfg(not(fuzzing))]
fn main() {}
