//! The reference block decoder on arbitrary bytes.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::decode::block(data));

#[cfg(not(fuzzing))]
fn main() {}
