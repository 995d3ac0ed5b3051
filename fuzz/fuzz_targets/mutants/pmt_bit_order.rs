//! The reference against the mutant pmt-bit-order: the fuzzer must find its planted bug.
#![cfg_attr(fuzzing, no_main)]

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bip37_fuzz::mutants::pmt_bit_order(data));

#[cfg(not(fuzzing))]
fn main() {}
