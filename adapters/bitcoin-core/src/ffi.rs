//! The shim's C functions (shim/bip37_core.cpp) and safe calls of them: inputs borrowed for
//! the call, outputs copied out of the shim's buffers, which are then freed.

use std::os::raw::c_int;

#[repr(C)]
struct RawOut {
    status: i32,
    stage: i32,
    message: *mut u8,
    message_len: usize,
    a: *mut u8,
    a_len: usize,
    b: *mut u8,
    b_len: usize,
    c: *mut u8,
    c_len: usize,
    n: *mut u32,
    n_len: usize,
}

/// A filter as a test sets it up (`bip37_core_filter_init`).
#[repr(C)]
pub struct RawInit {
    kind: i32,
    n_elements: u32,
    fp_rate: f64,
    filter_bytes: u32,
    data: *const u8,
    data_len: usize,
    hash_funcs: u32,
    tweak: u32,
    flags: u8,
}

#[repr(C)]
struct RawItems {
    ptrs: *const *const u8,
    lens: *const usize,
    count: usize,
}

extern "C" {
    fn bip37_core_out_free(out: *mut RawOut);
    fn bip37_core_murmur3(seed: u32, data: *const u8, len: usize) -> u32;
    fn bip37_core_sizing(n_elements: u32, fp_rate: f64, out: *mut RawOut);
    fn bip37_core_bit_indexes(
        init: *const RawInit,
        element: *const u8,
        len: usize,
        out: *mut RawOut,
    );
    fn bip37_core_build_filter(
        init: *const RawInit,
        insert: *const RawItems,
        queries: *const RawItems,
        out: *mut RawOut,
    );
    fn bip37_core_filterload(payload: *const u8, len: usize, accept: c_int, out: *mut RawOut);
    fn bip37_core_filteradd(payload: *const u8, len: usize, accept: c_int, out: *mut RawOut);
    fn bip37_core_match_tx(
        init: *const RawInit,
        insert: *const RawItems,
        txs: *const RawItems,
        out: *mut RawOut,
    );
    fn bip37_core_merkle_block(
        init: *const RawInit,
        insert: *const RawItems,
        block: *const u8,
        len: usize,
        out: *mut RawOut,
    );
    fn bip37_core_pmt_build(
        txids: *const u8,
        count: usize,
        matches: *const u8,
        match_count: usize,
        out: *mut RawOut,
    );
    fn bip37_core_pmt_extract(pmt: *const u8, len: usize, out: *mut RawOut);
}

/// Where Core refused an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Decode,
    Limits,
    Parameters,
    Validation,
}

/// The values a call gave: up to three byte strings and a list of numbers, as each shim
/// function documents.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Value {
    pub a: Vec<u8>,
    pub b: Vec<u8>,
    pub c: Vec<u8>,
    pub n: Vec<u32>,
}

/// What one call of Core's code gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Value(Value),
    /// Core refused the input.
    Rejected(Stage, String),
    /// Core's behaviour is undefined for the input; the message names the rule.
    Undefined(String),
}

fn copy<T: Copy>(ptr: *const T, len: usize) -> Vec<T> {
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: the shim malloc'd `len` elements at `ptr` and keeps them until they are freed.
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// Runs one shim call on a fresh out struct and takes what it wrote.
fn call(f: impl FnOnce(*mut RawOut)) -> Outcome {
    let mut raw = RawOut {
        status: 0,
        stage: 0,
        message: std::ptr::null_mut(),
        message_len: 0,
        a: std::ptr::null_mut(),
        a_len: 0,
        b: std::ptr::null_mut(),
        b_len: 0,
        c: std::ptr::null_mut(),
        c_len: 0,
        n: std::ptr::null_mut(),
        n_len: 0,
    };
    f(&mut raw);
    let message = String::from_utf8_lossy(&copy(raw.message, raw.message_len)).into_owned();
    let value = Value {
        a: copy(raw.a, raw.a_len),
        b: copy(raw.b, raw.b_len),
        c: copy(raw.c, raw.c_len),
        n: copy(raw.n, raw.n_len),
    };
    let (status, stage) = (raw.status, raw.stage);
    // SAFETY: `raw` holds the shim's buffers, freed once, here.
    unsafe { bip37_core_out_free(&mut raw) };
    match (status, stage) {
        (0, _) => Outcome::Value(value),
        (1, 0) => Outcome::Rejected(Stage::Decode, message),
        (1, 1) => Outcome::Rejected(Stage::Limits, message),
        (1, 2) => Outcome::Rejected(Stage::Parameters, message),
        (1, _) => Outcome::Rejected(Stage::Validation, message),
        _ => Outcome::Undefined(message),
    }
}

/// A filter to set up, in the shim's terms.
pub enum Init<'a> {
    Sized {
        n_elements: u32,
        fp_rate: f64,
        tweak: u32,
        flags: u8,
    },
    Explicit {
        filter_bytes: u32,
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    },
    Loaded {
        data: &'a [u8],
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    },
}

impl Init<'_> {
    fn raw(&self) -> RawInit {
        let mut raw = RawInit {
            kind: 0,
            n_elements: 0,
            fp_rate: 0.0,
            filter_bytes: 0,
            data: std::ptr::null(),
            data_len: 0,
            hash_funcs: 0,
            tweak: 0,
            flags: 0,
        };
        match *self {
            Init::Sized {
                n_elements,
                fp_rate,
                tweak,
                flags,
            } => {
                (raw.n_elements, raw.fp_rate, raw.tweak, raw.flags) =
                    (n_elements, fp_rate, tweak, flags);
            }
            Init::Explicit {
                filter_bytes,
                hash_funcs,
                tweak,
                flags,
            } => {
                raw.kind = 1;
                (raw.filter_bytes, raw.hash_funcs, raw.tweak, raw.flags) =
                    (filter_bytes, hash_funcs, tweak, flags);
            }
            Init::Loaded {
                data,
                hash_funcs,
                tweak,
                flags,
            } => {
                raw.kind = 2;
                (raw.data, raw.data_len) = (data.as_ptr(), data.len());
                (raw.hash_funcs, raw.tweak, raw.flags) = (hash_funcs, tweak, flags);
            }
        }
        raw
    }
}

/// Borrowed byte strings as the shim's list; the vectors keep the pointers alive.
struct Items {
    ptrs: Vec<*const u8>,
    lens: Vec<usize>,
}

impl Items {
    fn new<T: std::ops::Deref<Target = [u8]>>(items: &[T]) -> Items {
        Items {
            ptrs: items.iter().map(|i| i.as_ptr()).collect(),
            lens: items.iter().map(|i| i.len()).collect(),
        }
    }

    fn raw(&self) -> RawItems {
        RawItems {
            ptrs: self.ptrs.as_ptr(),
            lens: self.lens.as_ptr(),
            count: self.ptrs.len(),
        }
    }
}

// SAFETY (every call below): each pointer and length passed is a live borrow of the stated
// length for the whole call, and the shim reads no further and keeps nothing.

/// `MurmurHash3(seed, data)`.
pub fn murmur3(seed: u32, data: &[u8]) -> u32 {
    unsafe { bip37_core_murmur3(seed, data.as_ptr(), data.len()) }
}

/// `CBloomFilter(n, p, 0, 0)`: n = [bytes, hash functions].
pub fn sizing(n_elements: u32, fp_rate: f64) -> Outcome {
    call(|out| unsafe { bip37_core_sizing(n_elements, fp_rate, out) })
}

/// `CBloomFilter::Hash(i, element)` for each hash function: n = the bit indexes.
pub fn bit_indexes(init: &Init, element: &[u8]) -> Outcome {
    let raw = init.raw();
    call(|out| unsafe { bip37_core_bit_indexes(&raw, element.as_ptr(), element.len(), out) })
}

/// Insert, serialize, query: a = the filterload payload, n = contains (0 or 1) per query.
pub fn build_filter<T: std::ops::Deref<Target = [u8]>>(
    init: &Init,
    insert: &[T],
    queries: &[T],
) -> Outcome {
    let (raw, insert, queries) = (init.raw(), Items::new(insert), Items::new(queries));
    call(|out| unsafe { bip37_core_build_filter(&raw, &insert.raw(), &queries.raw(), out) })
}

/// A filterload payload read (and with `accept` checked) as a node does: a = data, n =
/// [hash functions, tweak, flags].
pub fn filterload(payload: &[u8], accept: bool) -> Outcome {
    call(|out| unsafe {
        bip37_core_filterload(payload.as_ptr(), payload.len(), c_int::from(accept), out)
    })
}

/// A filteradd payload read (and with `accept` checked) as a node does: a = the element.
pub fn filteradd(payload: &[u8], accept: bool) -> Outcome {
    call(|out| unsafe {
        bip37_core_filteradd(payload.as_ptr(), payload.len(), c_int::from(accept), out)
    })
}

/// `IsRelevantAndUpdate` of each transaction: n = matched (0 or 1), a = the filter's bits.
pub fn match_tx<T: std::ops::Deref<Target = [u8]>>(
    init: &Init,
    insert: &[T],
    txs: &[T],
) -> Outcome {
    let (raw, insert, txs) = (init.raw(), Items::new(insert), Items::new(txs));
    call(|out| unsafe { bip37_core_match_tx(&raw, &insert.raw(), &txs.raw(), out) })
}

/// `CMerkleBlock(block, filter)`: a = the message, b = matched txids, n = their indexes, c =
/// the filter's bits.
pub fn merkle_block<T: std::ops::Deref<Target = [u8]>>(
    init: &Init,
    insert: &[T],
    block: &[u8],
) -> Outcome {
    let (raw, insert) = (init.raw(), Items::new(insert));
    call(|out| unsafe {
        bip37_core_merkle_block(&raw, &insert.raw(), block.as_ptr(), block.len(), out)
    })
}

/// `CPartialMerkleTree(txids, matches)` serialized: a. `txids` is 32 bytes per txid.
pub fn pmt_build(txids: &[u8], matches: &[bool]) -> Outcome {
    let flags: Vec<u8> = matches.iter().map(|&m| u8::from(m)).collect();
    call(|out| unsafe {
        bip37_core_pmt_build(
            txids.as_ptr(),
            txids.len() / 32,
            flags.as_ptr(),
            flags.len(),
            out,
        )
    })
}

/// A serialized tree's `ExtractMatches`: a = root, b = matched txids, n = their indexes.
pub fn pmt_extract(pmt: &[u8]) -> Outcome {
    call(|out| unsafe { bip37_core_pmt_extract(pmt.as_ptr(), pmt.len(), out) })
}
