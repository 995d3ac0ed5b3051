//! SHA-256 and Bitcoin's double SHA-256, from the `sha2` crate. Transaction ids and merkle tree
//! nodes are `sha256d` digests, kept in the byte order the hash produces (Bitcoin's "internal"
//! order, the reverse of RPC hex).
//!
//! `sha2` picks the SHA extensions of x86-64 (or ARMv8) at run time when the CPU has them;
//! `cargo bench -p bip37-reference --bench sha256` measures it against `bitcoin_hashes` and the
//! hand-written implementation this module used to hold.

use sha2::{Digest, Sha256};

/// A 32-byte digest.
pub type Hash256 = [u8; 32];

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> Hash256 {
    Sha256::digest(data).into()
}

/// Bitcoin's `Hash`: SHA-256 applied twice.
pub fn sha256d(data: &[u8]) -> Hash256 {
    sha256(&sha256(data))
}

/// Bitcoin's `Hash` of the concatenation of `parts`, without copying them into one buffer.
pub fn sha256d_parts(parts: &[&[u8]]) -> Hash256 {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    sha256(&hasher.finalize())
}

/// SHA-256's initial state (FIPS 180-4, 5.3.3).
const INITIAL_STATE: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// The padding block of a 64-byte message: the 0x80 terminator, zeros, the length 512 bits.
const PADDING_AFTER_64_BYTES: [u8; 64] = {
    let mut block = [0u8; 64];
    block[0] = 0x80;
    block[62] = 0x02;
    block
};

/// The merkle tree node over two children: `sha256d(left || right)`.
///
/// Both messages have fixed lengths (64 bytes, then the 32-byte digest), so their padding is
/// known in advance and the three blocks go straight to `sha2`'s compression function,
/// without the streaming API's buffering: a merkle tree is almost nothing but these.
pub fn hash_pair(left: &Hash256, right: &Hash256) -> Hash256 {
    let mut message = [0u8; 64];
    message[..32].copy_from_slice(left);
    message[32..].copy_from_slice(right);
    let mut state = INITIAL_STATE;
    sha2::compress256(&mut state, &[message.into(), PADDING_AFTER_64_BYTES.into()]);
    // The second hash: the 32-byte digest, the terminator, zeros, the length 256 bits.
    let mut second = [0u8; 64];
    for (out, word) in second.chunks_exact_mut(4).zip(state) {
        out.copy_from_slice(&word.to_be_bytes());
    }
    second[32] = 0x80;
    second[62] = 0x01;
    let mut state = INITIAL_STATE;
    sha2::compress256(&mut state, &[second.into()]);
    let mut digest = [0u8; 32];
    for (out, word) in digest.chunks_exact_mut(4).zip(state) {
        out.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(digest: Hash256) -> String {
        ::hex::encode(digest)
    }

    #[test]
    fn nist_short_messages() {
        assert_eq!(
            hex(sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn nist_million_a() {
        assert_eq!(
            hex(sha256(&vec![b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn every_padding_boundary() {
        let expected = [
            (
                55,
                "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
            ),
            (
                56,
                "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
            ),
            (
                63,
                "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
            ),
            (
                64,
                "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
            ),
            (
                65,
                "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
            ),
            (
                119,
                "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6",
            ),
            (
                120,
                "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c",
            ),
        ];
        for (len, digest) in expected {
            let data: Vec<u8> = (0..len as u8).collect();
            assert_eq!(hex(sha256(&data)), digest, "length {len}");
        }
    }

    #[test]
    fn parts_hash_as_their_concatenation() {
        let whole: Vec<u8> = (0..200u8).collect();
        for cut in [0, 1, 63, 64, 65, 200] {
            let (a, b) = whole.split_at(cut);
            assert_eq!(sha256d_parts(&[a, b]), sha256d(&whole), "cut at {cut}");
        }
        let (left, right) = ([1u8; 32], [2u8; 32]);
        assert_eq!(hash_pair(&left, &right), sha256d(&[left, right].concat()));
    }

    #[test]
    fn double_hash() {
        assert_eq!(
            hex(sha256d(b"hello")),
            "9595c9df90075148eb06860365df33584b75bff782a510c6cd4883a419833d50"
        );
    }
}
