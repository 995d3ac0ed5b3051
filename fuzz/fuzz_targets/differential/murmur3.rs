//! MurmurHash3: the reference against the mur3 crate.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::hashing::murmur3_target(data));

#[cfg(not(fuzzing))]
fn main() {}
