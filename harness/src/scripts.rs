//! Output and input scripts built by hand: the shortest push of some bytes and the standard
//! templates around it. The vector generator and the live-node regeneration both build their
//! transactions from these, so a script means the same bytes in a vector and on a node.

use bip37_reference::script::{
    OP_CHECKMULTISIG, OP_CHECKSIG, OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4,
};

/// The shortest push of `data`.
pub fn push(data: &[u8]) -> Vec<u8> {
    let mut script = Vec::with_capacity(data.len() + 5);
    match data.len() {
        n @ 0..=0x4b => script.push(n as u8),
        n @ 0x4c..=0xff => script.extend_from_slice(&[OP_PUSHDATA1, n as u8]),
        n @ 0x100..=0xffff => {
            script.push(OP_PUSHDATA2);
            script.extend_from_slice(&(n as u16).to_le_bytes());
        }
        n => {
            script.push(OP_PUSHDATA4);
            script.extend_from_slice(&(n as u32).to_le_bytes());
        }
    }
    script.extend_from_slice(data);
    script
}

/// Pay-to-pubkey to `key`.
pub fn p2pk(key: &[u8]) -> Vec<u8> {
    [push(key), vec![OP_CHECKSIG]].concat()
}

/// Pay-to-pubkey-hash to `hash`.
pub fn p2pkh(hash: &[u8]) -> Vec<u8> {
    [&[0x76, 0xa9][..], &push(hash), &[0x88, OP_CHECKSIG]].concat()
}

/// Pay-to-script-hash to `hash`.
pub fn p2sh(hash: &[u8]) -> Vec<u8> {
    [&[0xa9][..], &push(hash), &[0x87]].concat()
}

/// A version 0 witness program (P2WPKH for 20 bytes).
pub fn p2wpkh(hash: &[u8]) -> Vec<u8> {
    [&[0x00][..], &push(hash)].concat()
}

/// A bare 1-of-n multisig; n is `OP_n` up to 16 and a one-byte push above (minimal encoding).
pub fn multisig_1_of(keys: &[Vec<u8>]) -> Vec<u8> {
    let mut script = vec![0x51];
    for key in keys {
        script.extend_from_slice(&push(key));
    }
    match u8::try_from(keys.len()) {
        Ok(n @ 1..=16) => script.push(0x50 + n),
        Ok(n) => script.extend_from_slice(&push(&[n])),
        Err(_) => panic!("test multisigs have fewer than 256 keys"),
    }
    script.push(OP_CHECKMULTISIG);
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_use_the_smallest_opcode() {
        assert_eq!(push(&[7; 3])[..1], [3]);
        assert_eq!(push(&[7; 76])[..2], [0x4c, 76]);
        assert_eq!(push(&[7; 520])[..3], [0x4d, 0x08, 0x02]);
    }

    #[test]
    fn templates_are_the_standard_bytes() {
        assert_eq!(p2pk(&[2; 33])[34..], [OP_CHECKSIG]);
        assert_eq!(p2pkh(&[3; 20])[..3], [0x76, 0xa9, 20]);
        assert_eq!(multisig_1_of(&[vec![2; 33]])[..2], [0x51, 33]);
        assert_eq!(
            multisig_1_of(&[vec![2; 33]])[35..],
            [0x51, OP_CHECKMULTISIG]
        );
    }
}
