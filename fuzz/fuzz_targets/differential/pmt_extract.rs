//! Partial merkle tree parsing and extraction: the reference against the bitcoin crate 0.32.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::merkle::pmt_extract(data));

#[cfg(not(fuzzing))]
fn main() {}
