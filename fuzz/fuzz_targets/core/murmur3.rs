//! The reference against Bitcoin Core's own code: `bip37_fuzz::core::murmur3`.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::core::murmur3(data));

#[cfg(not(fuzzing))]
fn main() {}
