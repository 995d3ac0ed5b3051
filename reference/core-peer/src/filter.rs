//! Core's `CBloomFilter` bits with its `insert` and `contains`, run by `core_bloom.c`.

/// What `core_bloom.c` reads: `vData`, `nHashFuncs` and `nTweak`.
#[repr(C)]
struct RawFilter {
    data: *mut u8,
    size: usize,
    hash_funcs: u32,
    tweak: u32,
}

extern "C" {
    fn core_bloom_insert(filter: *mut RawFilter, key: *const u8, len: usize);
    fn core_bloom_contains(filter: *const RawFilter, key: *const u8, len: usize) -> i32;
}

/// A filter whose `insert` and `contains` are the C build of Core's.
pub struct CoreFilter {
    /// Owns the bytes `raw.data` points to; never resized, so the pointer stays valid.
    data: Box<[u8]>,
    raw: RawFilter,
}

impl CoreFilter {
    /// The filter of these bytes, hash function count and tweak (a copy of the bytes).
    pub fn new(data: &[u8], hash_funcs: u32, tweak: u32) -> Self {
        let mut data: Box<[u8]> = data.into();
        let raw = RawFilter {
            data: data.as_mut_ptr(),
            size: data.len(),
            hash_funcs,
            tweak,
        };
        Self { data, raw }
    }

    /// Core's `insert`.
    pub fn insert(&mut self, element: &[u8]) {
        // SAFETY: `raw` describes `data`, which this value owns and never resizes; the C code
        // writes only inside it (the index is taken modulo its bit count) and reads `len`
        // bytes of `element`, keeping no pointer.
        unsafe { core_bloom_insert(&mut self.raw, element.as_ptr(), element.len()) }
    }

    /// Core's `contains`.
    pub fn contains(&self, element: &[u8]) -> bool {
        // SAFETY: as for `insert`; `contains` only reads.
        unsafe { core_bloom_contains(&self.raw, element.as_ptr(), element.len()) != 0 }
    }

    /// The filter's bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::CoreFilter;
    use crate::workload;
    use bip37_reference::BloomFilter;

    /// Distinct pseudo-random bytes for each `i`.
    fn element(i: u32, len: usize) -> Vec<u8> {
        workload::bytes(7, u64::from(i), len)
    }

    /// The same bits after the same inserts, and the same verdicts, as the reference, on the
    /// two filters the benches use, at every element size BIP 37 hashes.
    #[test]
    fn agrees_with_the_reference() {
        for (n, tweak) in [(1000, 0x8000_0001), (20000, 5)] {
            let mut ours = BloomFilter::new(n, 0.0001, tweak, 0).unwrap();
            let mut core = CoreFilter::new(ours.data(), ours.hash_funcs(), tweak);
            for len in [20, 32, 33, 36, 65, 520] {
                for i in 0..n / 4 {
                    ours.insert(&element(i, len));
                    core.insert(&element(i, len));
                }
                assert_eq!(core.data(), ours.data(), "{n}, {len} B");
                for i in 0..2000 {
                    let e = element(i, len);
                    assert_eq!(core.contains(&e), ours.contains(&e), "{n}, {len} B, {i}");
                }
            }
        }
    }

    /// The empty filter contains everything and takes no insert; no hash functions contain
    /// everything too (Core's guards, core-facts.md).
    #[test]
    fn empty_and_zero_functions_match_everything() {
        let mut empty = CoreFilter::new(&[], 10, 0);
        empty.insert(b"x");
        assert!(empty.data().is_empty() && empty.contains(b"anything"));
        let mut none = CoreFilter::new(&[0; 8], 0, 0);
        none.insert(b"x");
        assert_eq!(none.data(), &[0; 8]);
        assert!(none.contains(b"anything"));
    }
}
