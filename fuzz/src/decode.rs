//! Every decoder of the reference on arbitrary bytes. A decoder must not panic (the fuzzer
//! reports that), must not allocate more than the input it was given (a length prefix is a
//! claim, not a size to reserve: [`crate::alloc_guard`] measures it), and whatever it accepts
//! must re-encode to exactly the input, since every accepted encoding is the canonical one.

use crate::alloc_guard::largest_allocation;
use bip37_reference::compact_size;
use bip37_reference::wire::decode_filterclear;
use bip37_reference::{FilterAdd, FilterLoad};

/// Runs `decode` on `input` and panics if any single allocation was larger than the input.
fn decode_bounded<T>(input: &[u8], decode: impl FnOnce(&[u8]) -> T) -> T {
    let (decoded, largest) = largest_allocation(|| decode(input));
    assert!(
        largest <= input.len(),
        "decoding {} bytes allocated {largest} bytes at once",
        input.len()
    );
    decoded
}

/// `FilterLoad::decode`.
pub fn filterload(payload: &[u8]) {
    if let Ok(load) = decode_bounded(payload, FilterLoad::decode) {
        assert_eq!(load.encode(), payload);
    }
}

/// `FilterAdd::decode`.
pub fn filteradd(payload: &[u8]) {
    if let Ok(add) = decode_bounded(payload, FilterAdd::decode) {
        assert_eq!(add.encode(), payload);
    }
}

/// `decode_filterclear`: only the empty payload is accepted.
pub fn filterclear(payload: &[u8]) {
    let verdict = decode_bounded(payload, decode_filterclear);
    assert_eq!(verdict.is_ok(), payload.is_empty());
}

/// `compact_size::read`: what it accepts is the canonical encoding of the value it returns.
pub fn compact_size(bytes: &[u8]) {
    let mut rest = bytes;
    if let Ok(value) = decode_bounded(bytes, |_| compact_size::read(&mut rest)) {
        let mut canonical = Vec::new();
        compact_size::write(&mut canonical, value);
        assert_eq!(canonical, &bytes[..bytes.len() - rest.len()]);
    }
}
