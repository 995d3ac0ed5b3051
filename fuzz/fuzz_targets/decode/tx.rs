//! The reference transaction decoder on arbitrary bytes.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::decode::tx(data));

#[cfg(not(fuzzing))]
fn main() {}
