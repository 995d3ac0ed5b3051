//! The two output templates that make `BLOOM_UPDATE_P2PUBKEY_ONLY` insert an outpoint: Core's
//! `Solver` results `PUBKEY` and `MULTISIG` (src/script/solver.cpp), judged by size and prefix
//! only, never by whether a key is a point on the curve.
//!
//! - Pay-to-pubkey: exactly `<33 bytes starting 02|03> OP_CHECKSIG` or
//!   `<65 bytes starting 04|06|07> OP_CHECKSIG` (`CPubKey::ValidSize`).
//! - Bare multisig: `m <key>... n OP_CHECKMULTISIG` with 1 <= m <= n <= 20, n keys of a valid
//!   size, and m and n each `OP_1`..`OP_16` or a minimally encoded number push.
//!
//! No other template (P2PKH, P2SH, witness programs, `OP_RETURN`) is either of these.

use crate::script::{Ops, OP_1, OP_16, OP_CHECKMULTISIG, OP_CHECKSIG, OP_PUSHDATA4};

/// `MAX_PUBKEYS_PER_MULTISIG`.
const MAX_MULTISIG_KEYS: i64 = 20;
/// `CScriptNum`'s default size limit for numbers read from a script.
const MAX_SCRIPT_NUM_BYTES: usize = 4;

/// True when `script` is a pay-to-pubkey or a bare multisig output.
pub fn is_pubkey_or_multisig(script: &[u8]) -> bool {
    is_pay_to_pubkey(script) || is_bare_multisig(script)
}

/// Core's `MatchPayToPubkey`.
pub fn is_pay_to_pubkey(script: &[u8]) -> bool {
    match script {
        [len @ (33 | 65), key @ .., OP_CHECKSIG] if usize::from(*len) == key.len() => {
            is_valid_pubkey_size(key)
        }
        _ => false,
    }
}

/// Core's `MatchMultisig`.
pub fn is_bare_multisig(script: &[u8]) -> bool {
    if script.last() != Some(&OP_CHECKMULTISIG) {
        return false;
    }
    let mut ops = Ops::new(script);
    let Some(required) = ops
        .next()
        .and_then(|op| script_number(op.opcode, op.data, 1))
    else {
        return false;
    };
    let mut keys = 0i64;
    let after_keys = loop {
        match ops.next() {
            Some(op) if is_valid_pubkey_size(op.data) => keys += 1,
            other => break other,
        }
    };
    let Some(declared) = after_keys.and_then(|op| script_number(op.opcode, op.data, required))
    else {
        return false;
    };
    // The declared count must match the keys, and OP_CHECKMULTISIG must be the only opcode left.
    declared == keys && ops.remaining() == [OP_CHECKMULTISIG]
}

/// `CPubKey::ValidSize`: the first byte announces the length and the length matches.
fn is_valid_pubkey_size(key: &[u8]) -> bool {
    match key.first() {
        Some(0x02 | 0x03) => key.len() == 33,
        Some(0x04 | 0x06 | 0x07) => key.len() == 65,
        _ => false,
    }
}

/// Core's `GetScriptNumber(opcode, data, min, 20)`: a small-integer opcode or a minimal push of
/// a minimally encoded number, within `[min, 20]`.
fn script_number(opcode: u8, data: &[u8], min: i64) -> Option<i64> {
    let value = match opcode {
        OP_1..=OP_16 => i64::from(opcode - OP_1 + 1),
        0x01..=OP_PUSHDATA4 if is_minimal_push(opcode, data) => minimal_script_num(data)?,
        _ => return None,
    };
    (min..=MAX_MULTISIG_KEYS).contains(&value).then_some(value)
}

/// Core's `CheckMinimalPush` for a push opcode (0x01-0x4e).
fn is_minimal_push(opcode: u8, data: &[u8]) -> bool {
    match data {
        [] => false,
        [n @ 1..=16] => opcode == OP_1 + n - 1,
        [0x81] => false,
        _ if data.len() <= 75 => usize::from(opcode) == data.len(),
        _ if data.len() <= 255 => opcode == 0x4c,
        _ if data.len() <= 65_535 => opcode == 0x4d,
        _ => true,
    }
}

/// `CScriptNum(data, fRequireMinimal = true)`: at most 4 bytes, little-endian sign-magnitude,
/// no superfluous high byte.
fn minimal_script_num(data: &[u8]) -> Option<i64> {
    if data.len() > MAX_SCRIPT_NUM_BYTES {
        return None;
    }
    if let Some(&last) = data.last() {
        let needs_high_byte = data.len() > 1 && data[data.len() - 2] & 0x80 != 0;
        if last & 0x7f == 0 && !needs_high_byte {
            return None;
        }
    }
    let magnitude = data
        .iter()
        .rev()
        .fold(0i64, |acc, &b| acc << 8 | i64::from(b));
    let sign_bit = 0x80i64 << (8 * (data.len().max(1) - 1));
    Some(if magnitude & sign_bit != 0 {
        -(magnitude & !sign_bit)
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(prefix: u8, len: usize) -> Vec<u8> {
        let mut k = vec![0x11; len];
        k[0] = prefix;
        k
    }

    fn p2pk(k: &[u8]) -> Vec<u8> {
        let mut s = vec![k.len() as u8];
        s.extend_from_slice(k);
        s.push(OP_CHECKSIG);
        s
    }

    fn multisig(m: &[u8], keys: &[Vec<u8>], n: &[u8]) -> Vec<u8> {
        let mut s = m.to_vec();
        for k in keys {
            s.push(k.len() as u8);
            s.extend_from_slice(k);
        }
        s.extend_from_slice(n);
        s.push(OP_CHECKMULTISIG);
        s
    }

    #[test]
    fn pay_to_pubkey_by_size_and_prefix() {
        for (prefix, len) in [(2, 33), (3, 33), (4, 65), (6, 65), (7, 65)] {
            assert!(is_pubkey_or_multisig(&p2pk(&key(prefix, len))));
        }
        for (prefix, len) in [(4, 33), (2, 65), (5, 65), (0, 33)] {
            assert!(!is_pubkey_or_multisig(&p2pk(&key(prefix, len))));
        }
        let mut trailing = p2pk(&key(2, 33));
        trailing.push(OP_CHECKSIG);
        assert!(!is_pubkey_or_multisig(&trailing));
    }

    #[test]
    fn other_templates_are_neither() {
        let p2pkh = [&[0x76, 0xa9, 0x14][..], &[0x22; 20], &[0x88, 0xac]].concat();
        let p2sh = [&[0xa9, 0x14][..], &[0x22; 20], &[0x87]].concat();
        let p2wpkh = [&[0x00, 0x14][..], &[0x22; 20]].concat();
        let p2tr = [&[0x51, 0x20][..], &[0x22; 32]].concat();
        for script in [p2pkh, p2sh, p2wpkh, p2tr, vec![0x6a, 0x01, 0x02]] {
            assert!(!is_pubkey_or_multisig(&script), "{script:02x?}");
        }
    }

    #[test]
    fn bare_multisig_counts_and_encodings() {
        let k = key(2, 33);
        assert!(is_bare_multisig(&multisig(
            &[0x51],
            std::slice::from_ref(&k),
            &[0x51]
        )));
        assert!(is_bare_multisig(&multisig(
            &[0x51],
            &[k.clone(), key(4, 65)],
            &[0x52]
        )));
        // m > n, n != number of keys, m = 0.
        assert!(!is_bare_multisig(&multisig(
            &[0x52],
            std::slice::from_ref(&k),
            &[0x51]
        )));
        assert!(!is_bare_multisig(&multisig(
            &[0x51],
            std::slice::from_ref(&k),
            &[0x52]
        )));
        assert!(!is_bare_multisig(&multisig(
            &[0x00],
            std::slice::from_ref(&k),
            &[0x51]
        )));
        // 17..20 keys: n is a minimal one-byte push; a non-minimal form is refused.
        let seventeen = vec![k.clone(); 17];
        assert!(is_bare_multisig(&multisig(
            &[0x51],
            &seventeen,
            &[0x01, 17]
        )));
        assert!(!is_bare_multisig(&multisig(
            &[0x51],
            &seventeen,
            &[0x02, 17, 0]
        )));
        assert!(!is_bare_multisig(&multisig(
            &[0x01, 0x01],
            std::slice::from_ref(&k),
            &[0x51]
        )));
        let twenty_one = vec![k.clone(); 21];
        assert!(!is_bare_multisig(&multisig(
            &[0x51],
            &twenty_one,
            &[0x01, 21]
        )));
        // Anything between n and OP_CHECKMULTISIG, even a truncated push, is refused.
        let mut extra = multisig(&[0x51], std::slice::from_ref(&k), &[0x51]);
        extra.insert(extra.len() - 1, 0x4c);
        extra.push(OP_CHECKMULTISIG);
        assert!(!is_bare_multisig(&extra));
        // A key of the wrong size ends the key list early.
        assert!(!is_bare_multisig(&multisig(
            &[0x51],
            &[key(2, 32)],
            &[0x51]
        )));
    }

    #[test]
    fn script_numbers() {
        assert_eq!(minimal_script_num(&[]), Some(0));
        assert_eq!(minimal_script_num(&[0x11]), Some(17));
        assert_eq!(minimal_script_num(&[0x81]), Some(-1));
        assert_eq!(minimal_script_num(&[0x80, 0x00]), Some(128));
        assert_eq!(minimal_script_num(&[0x11, 0x00]), None);
        assert_eq!(minimal_script_num(&[0x91]), Some(-17));
        assert_eq!(minimal_script_num(&[0x11, 0x80]), None);
        assert_eq!(minimal_script_num(&[1, 2, 3, 4, 5]), None);
    }
}
