//! Handles on Core's objects for the benches (shim/bench.cpp): each is built once, and each
//! timed method is one call of Core's function on it. `cargo bench --bench vs_core`.

use std::marker::PhantomData;

/// Core's `CBloomFilter`, `CMutableTransaction`, `CTransaction`, `CPartialMerkleTree` and the
/// tree's inputs, opaque behind their pointers.
#[repr(C)]
struct Opaque {
    _private: [u8; 0],
    _not_send: PhantomData<*mut u8>,
}

extern "C" {
    fn bip37_bench_init(name: *mut u8, cap: usize) -> usize;
    fn bip37_bench_murmur3(seed: u32, data: *const u8, len: usize) -> u32;
    fn bip37_bench_filter_load(payload: *const u8, len: usize) -> *mut Opaque;
    fn bip37_bench_filter_save(filter: *const Opaque, out: *mut u8, cap: usize) -> usize;
    fn bip37_bench_filter_free(filter: *mut Opaque);
    fn bip37_bench_filter_insert(filter: *mut Opaque, data: *const u8, len: usize);
    fn bip37_bench_filter_contains(filter: *const Opaque, data: *const u8, len: usize) -> bool;
    fn bip37_bench_filter_is_relevant_and_update(filter: *mut Opaque, tx: *const Opaque) -> bool;
    fn bip37_bench_mtx_decode(bytes: *const u8, len: usize) -> *mut Opaque;
    fn bip37_bench_mtx_free(tx: *mut Opaque);
    fn bip37_bench_mtx_txid(tx: *const Opaque, out: *mut u8);
    fn bip37_bench_tx_new(tx: *const Opaque) -> *mut Opaque;
    fn bip37_bench_tx_free(tx: *mut Opaque);
    fn bip37_bench_tree_inputs(txids: *const u8, matches: *const u8, count: usize) -> *mut Opaque;
    fn bip37_bench_tree_inputs_free(inputs: *mut Opaque);
    fn bip37_bench_pmt_build(inputs: *const Opaque) -> u32;
    fn bip37_bench_pmt_new(inputs: *const Opaque) -> *mut Opaque;
    fn bip37_bench_pmt_free(tree: *mut Opaque);
    fn bip37_bench_pmt_save(tree: *const Opaque, out: *mut u8, cap: usize) -> usize;
    fn bip37_bench_pmt_extract(tree: *mut Opaque, root: *mut u8) -> usize;
}

// SAFETY (every call below): each handle is a live pointer the shim returned and only its
// owner's Drop frees; each pointer and length passed is a live borrow of that length for the
// call, and the shim keeps none of them.

/// Runs Core's `SHA256AutoDetect()`, as bitcoind does at startup (else `CSHA256` runs the
/// portable transform), and returns the implementation it chose.
pub fn init() -> String {
    let mut name = [0u8; 256];
    let len = unsafe { bip37_bench_init(name.as_mut_ptr(), name.len()) };
    String::from_utf8_lossy(&name[..len]).into_owned()
}

/// Core's `MurmurHash3(seed, data)` (src/hash.cpp, from Core's library).
pub fn murmur3(seed: u32, data: &[u8]) -> u32 {
    unsafe { bip37_bench_murmur3(seed, data.as_ptr(), data.len()) }
}

/// Reads a serialization the shim writes with `save(out, cap) -> length`.
fn saved(save: impl Fn(*mut u8, usize) -> usize) -> Vec<u8> {
    let mut out = vec![0u8; save(std::ptr::null_mut(), 0)];
    let len = save(out.as_mut_ptr(), out.len());
    out.truncate(len);
    out
}

/// Core's `CBloomFilter`.
pub struct Filter(*mut Opaque);

impl Filter {
    /// The filter of a `filterload` payload, read as a node reads one; `None` when Core refuses it.
    pub fn load(payload: &[u8]) -> Option<Self> {
        let ptr = unsafe { bip37_bench_filter_load(payload.as_ptr(), payload.len()) };
        (!ptr.is_null()).then_some(Self(ptr))
    }

    /// The filter serialized: its `filterload` payload.
    pub fn save(&self) -> Vec<u8> {
        saved(|out, cap| unsafe { bip37_bench_filter_save(self.0, out, cap) })
    }

    /// `insert(element)`.
    pub fn insert(&mut self, element: &[u8]) {
        unsafe { bip37_bench_filter_insert(self.0, element.as_ptr(), element.len()) }
    }

    /// `contains(element)`.
    pub fn contains(&self, element: &[u8]) -> bool {
        unsafe { bip37_bench_filter_contains(self.0, element.as_ptr(), element.len()) }
    }

    /// `IsRelevantAndUpdate(tx)`.
    pub fn is_relevant_and_update(&mut self, tx: &Tx) -> bool {
        unsafe { bip37_bench_filter_is_relevant_and_update(self.0, tx.0) }
    }
}

impl Drop for Filter {
    fn drop(&mut self) {
        unsafe { bip37_bench_filter_free(self.0) }
    }
}

/// Core's `CMutableTransaction`.
pub struct MutableTx(*mut Opaque);

impl MutableTx {
    /// A transaction decoded from its wire bytes; `None` when Core refuses them.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let ptr = unsafe { bip37_bench_mtx_decode(bytes.as_ptr(), bytes.len()) };
        (!ptr.is_null()).then_some(Self(ptr))
    }

    /// `GetHash()`: the txid computed now (serialized without witness, double SHA-256).
    pub fn txid(&self) -> [u8; 32] {
        let mut txid = [0u8; 32];
        unsafe { bip37_bench_mtx_txid(self.0, txid.as_mut_ptr()) };
        txid
    }
}

impl Drop for MutableTx {
    fn drop(&mut self) {
        unsafe { bip37_bench_mtx_free(self.0) }
    }
}

/// Core's `CTransaction`, its txid computed once when it was made.
pub struct Tx(*mut Opaque);

impl Tx {
    pub fn new(tx: &MutableTx) -> Self {
        Self(unsafe { bip37_bench_tx_new(tx.0) })
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        unsafe { bip37_bench_tx_free(self.0) }
    }
}

/// The inputs of `CPartialMerkleTree(vTxid, vMatch)` in Core's types.
pub struct TreeInputs(*mut Opaque);

impl TreeInputs {
    /// From txids (internal byte order) and one match flag per txid; `None` when the counts
    /// differ or there are no txids (Core reads txid 0 and a flag per txid).
    pub fn new(txids: &[[u8; 32]], matches: &[bool]) -> Option<Self> {
        if txids.is_empty() || txids.len() != matches.len() {
            return None;
        }
        let flags: Vec<u8> = matches.iter().map(|&m| u8::from(m)).collect();
        let ptr = unsafe {
            bip37_bench_tree_inputs(txids.as_flattened().as_ptr(), flags.as_ptr(), txids.len())
        };
        Some(Self(ptr))
    }

    /// `CPartialMerkleTree(vTxid, vMatch)`, built and dropped; its transaction count.
    pub fn build(&self) -> u32 {
        unsafe { bip37_bench_pmt_build(self.0) }
    }

    /// The same tree, kept.
    pub fn tree(&self) -> Tree {
        Tree(unsafe { bip37_bench_pmt_new(self.0) })
    }
}

impl Drop for TreeInputs {
    fn drop(&mut self) {
        unsafe { bip37_bench_tree_inputs_free(self.0) }
    }
}

/// Core's `CPartialMerkleTree`.
pub struct Tree(*mut Opaque);

impl Tree {
    /// The tree serialized.
    pub fn save(&self) -> Vec<u8> {
        saved(|out, cap| unsafe { bip37_bench_pmt_save(self.0, out, cap) })
    }

    /// `ExtractMatches` into fresh vectors: the root (null for a bad tree) and how many txids
    /// matched.
    pub fn extract_matches(&mut self) -> ([u8; 32], usize) {
        let mut root = [0u8; 32];
        let matched = unsafe { bip37_bench_pmt_extract(self.0, root.as_mut_ptr()) };
        (root, matched)
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        unsafe { bip37_bench_pmt_free(self.0) }
    }
}
