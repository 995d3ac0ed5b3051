//! Bit indexes of the reference against BIP 37's formula over the mur3 crate.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::hashing::bit_indexes_target(data));

#[cfg(not(fuzzing))]
fn main() {}
