//! Bitcoin Core's MurmurHash3 and its filter's `insert` and `contains` compiled as C
//! (`core_murmur3.c`, `core_bloom.c`, -O2), so that the reference can be timed against the
//! machine code Core runs on this machine, in the same process: `cargo bench -p
//! bip37-core-peer`. Core itself does not build here; the C files are Core's functions in
//! Core's shape, and the tests check them against the reference and `mur3`.

mod filter;
#[cfg(test)]
#[path = "../../benches/support/workload.rs"]
#[allow(dead_code)] // the transactions are for the reference's benches
mod workload;

pub use filter::CoreFilter;

mod ffi {
    extern "C" {
        pub fn core_murmur3(seed: u32, data: *const u8, len: usize) -> u32;
    }
}

/// MurmurHash3 x86_32 of `data` with `seed`, computed by the C build of Core's function.
pub fn core_murmur3(seed: u32, data: &[u8]) -> u32 {
    // SAFETY: the C function reads exactly `len` bytes from `data` and keeps no pointer.
    unsafe { ffi::core_murmur3(seed, data.as_ptr(), data.len()) }
}

#[cfg(test)]
mod tests {
    use super::core_murmur3;

    #[test]
    fn agrees_with_the_reference_and_mur3_at_every_length_to_600() {
        let data: Vec<u8> = (0..600u32).map(|i| (i * 131 + 7) as u8).collect();
        for len in 0..=data.len() {
            for seed in [0, 0xFBA4_C795, u32::MAX] {
                let d = &data[..len];
                assert_eq!(
                    core_murmur3(seed, d),
                    bip37_reference::murmur3(seed, d),
                    "{len}"
                );
                assert_eq!(
                    core_murmur3(seed, d),
                    mur3::murmurhash3_x86_32(d, seed),
                    "{len}"
                );
            }
        }
    }
}
