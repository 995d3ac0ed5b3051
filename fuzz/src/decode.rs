//! Every decoder of the reference on arbitrary bytes. A decoder must not panic (the fuzzer
//! reports that), must not allocate from an untrusted length (a length prefix is a claim, not
//! a size to reserve: [`crate::alloc_guard`] measures every allocation against the bytes
//! actually present), and whatever it accepts must re-encode to exactly the input, since every
//! accepted encoding is the canonical one.

use crate::alloc_guard::largest_allocation;
use bip37_reference::script::Ops;
use bip37_reference::tx::{TxIn, TxOut};
use bip37_reference::wire::decode_filterclear;
use bip37_reference::{compact_size, Block, MerkleBlock, PartialMerkleTree, Transaction};
use bip37_reference::{FilterAdd, FilterLoad};
use std::mem::size_of;

/// The most memory a decoder may take for one byte of input in a single allocation. A byte
/// string costs one byte per byte; a flag bit unpacked to `bool` costs 8 per byte; a witness
/// item, the smallest variable-size item (1 byte on the wire), costs a whole `Vec<u8>`, and an
/// input or output costs its struct for at least 41 or 9 wire bytes. Doubled, because a vector
/// filled item by item grows to up to twice its length.
fn bytes_per_input_byte() -> usize {
    2 * [
        8,
        size_of::<Vec<u8>>(),
        size_of::<TxIn>().div_ceil(41),
        size_of::<TxOut>().div_ceil(9),
        size_of::<Transaction>().div_ceil(10),
    ]
    .into_iter()
    .max()
    .unwrap_or(1)
}

/// Runs `decode` on `input` and panics if one allocation was larger than `per_byte` times the
/// input: proportional to what is there, never to what a length prefix claims.
fn decode_bounded<T>(input: &[u8], per_byte: usize, decode: impl FnOnce(&[u8]) -> T) -> T {
    let (decoded, largest) = largest_allocation(|| decode(input));
    assert!(
        largest <= input.len() * per_byte,
        "decoding {} bytes allocated {largest} bytes at once",
        input.len()
    );
    decoded
}

/// `FilterLoad::decode`.
pub fn filterload(payload: &[u8]) {
    if let Ok(load) = decode_bounded(payload, 1, FilterLoad::decode) {
        assert_eq!(load.encode(), payload);
    }
}

/// `FilterAdd::decode`.
pub fn filteradd(payload: &[u8]) {
    if let Ok(add) = decode_bounded(payload, 1, FilterAdd::decode) {
        assert_eq!(add.encode(), payload);
    }
}

/// `decode_filterclear`: only the empty payload is accepted.
pub fn filterclear(payload: &[u8]) {
    let verdict = decode_bounded(payload, 1, decode_filterclear);
    assert_eq!(verdict.is_ok(), payload.is_empty());
}

/// `compact_size::read`: what it accepts is the canonical encoding of the value it returns.
pub fn compact_size(bytes: &[u8]) {
    let mut rest = bytes;
    if let Ok(value) = decode_bounded(bytes, 1, |_| compact_size::read(&mut rest)) {
        let mut canonical = Vec::new();
        compact_size::write(&mut canonical, value);
        assert_eq!(canonical, &bytes[..bytes.len() - rest.len()]);
    }
}

/// `Transaction::decode` (legacy and segwit).
pub fn tx(bytes: &[u8]) {
    if let Ok(tx) = decode_bounded(bytes, bytes_per_input_byte(), Transaction::decode) {
        assert_eq!(tx.encode(), bytes);
    }
}

/// `Block::decode`.
pub fn block(bytes: &[u8]) {
    if let Ok(block) = decode_bounded(bytes, bytes_per_input_byte(), Block::decode) {
        assert_eq!(block.encode(), bytes);
    }
}

/// `PartialMerkleTree::decode`, then `extract_matches` on whatever decodes.
pub fn pmt(bytes: &[u8]) {
    if let Ok(tree) = decode_bounded(bytes, bytes_per_input_byte(), PartialMerkleTree::decode) {
        assert_eq!(tree.encode(), bytes);
        if let Ok(extracted) = tree.extract_matches() {
            assert!(extracted
                .matches
                .windows(2)
                .all(|w| w[0].index < w[1].index));
            assert!(extracted
                .matches
                .iter()
                .all(|m| m.index < tree.transactions));
        }
    }
}

/// `MerkleBlock::decode`.
pub fn merkle_block(bytes: &[u8]) {
    if let Ok((header, tree)) = decode_bounded(bytes, bytes_per_input_byte(), MerkleBlock::decode) {
        assert_eq!([&header.encode()[..], &tree.encode()].concat(), bytes);
    }
}

/// The script push parser: it ends, and the pushes it yields are slices of the script.
pub fn script(bytes: &[u8]) {
    let mut ops = Ops::new(bytes);
    let mut yielded = 0;
    for op in &mut ops {
        assert!(op.data.len() <= bytes.len());
        yielded += 1;
        assert!(yielded <= bytes.len(), "more operations than bytes");
    }
    assert!(ops.remaining().len() <= bytes.len());
}
