//! The reference against Bitcoin Core's own code: `bip37_fuzz::core::filterload`.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::core::filterload(data));

#[cfg(not(fuzzing))]
fn main() {}
