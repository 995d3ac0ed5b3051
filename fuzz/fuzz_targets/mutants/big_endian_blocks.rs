//! The reference against the mutant big-endian-blocks: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::big_endian_blocks(data));

#[cfg(not(fuzzing))]
fn main() {}
