//! Walking a script opcode by opcode, as Core's `GetScriptOp` does: what a BIP 37 filter calls
//! the "data elements" of a script are the data of its push opcodes.
//!
//! Opcodes 0x01-0x4b push that many bytes; `OP_PUSHDATA1/2/4` (0x4c-0x4e) push a length read
//! as 1, 2 or 4 little-endian bytes; `OP_0` pushes nothing. Every other opcode, including
//! `OP_1NEGATE` and `OP_1`..`OP_16`, carries no data. A push whose length runs past the end of
//! the script is malformed: the walk stops there, as Core's loop `break`s.

/// `OP_0`, the empty push.
pub const OP_0: u8 = 0x00;
/// `OP_PUSHDATA1`: a one-byte length follows.
pub const OP_PUSHDATA1: u8 = 0x4c;
/// `OP_PUSHDATA2`: a two-byte little-endian length follows.
pub const OP_PUSHDATA2: u8 = 0x4d;
/// `OP_PUSHDATA4`: a four-byte little-endian length follows.
pub const OP_PUSHDATA4: u8 = 0x4e;
/// `OP_1NEGATE`.
pub const OP_1NEGATE: u8 = 0x4f;
/// `OP_1`.
pub const OP_1: u8 = 0x51;
/// `OP_16`.
pub const OP_16: u8 = 0x60;
/// `OP_CHECKSIG`.
pub const OP_CHECKSIG: u8 = 0xac;
/// `OP_CHECKMULTISIG`.
pub const OP_CHECKMULTISIG: u8 = 0xae;

/// One opcode and the data it pushes (empty for non-push opcodes and `OP_0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op<'a> {
    pub opcode: u8,
    pub data: &'a [u8],
}

/// The opcodes of a script, in order, ending at the end of the script or just before the
/// first malformed push.
#[derive(Debug, Clone)]
pub struct Ops<'a> {
    rest: &'a [u8],
    malformed: bool,
}

impl<'a> Ops<'a> {
    /// Starts a walk over `script`.
    pub fn new(script: &'a [u8]) -> Self {
        Self {
            rest: script,
            malformed: false,
        }
    }

    /// The bytes not walked yet.
    pub fn remaining(&self) -> &'a [u8] {
        self.rest
    }

    /// True once the walk has stopped at a malformed push.
    pub fn hit_malformed_push(&self) -> bool {
        self.malformed
    }

    fn next_op(&mut self) -> Option<Op<'a>> {
        let (&opcode, after_opcode) = self.rest.split_first()?;
        let (len, after_len) = match opcode {
            OP_PUSHDATA1 => read_len::<1>(after_opcode)?,
            OP_PUSHDATA2 => read_len::<2>(after_opcode)?,
            OP_PUSHDATA4 => read_len::<4>(after_opcode)?,
            0x01..=0x4b => (usize::from(opcode), after_opcode),
            _ => (0, after_opcode),
        };
        if len > after_len.len() {
            return None;
        }
        let (data, rest) = after_len.split_at(len);
        self.rest = rest;
        Some(Op { opcode, data })
    }
}

impl<'a> Iterator for Ops<'a> {
    type Item = Op<'a>;

    fn next(&mut self) -> Option<Op<'a>> {
        if self.malformed || self.rest.is_empty() {
            return None;
        }
        let op = self.next_op();
        self.malformed = op.is_none();
        op
    }
}

/// Reads an `N`-byte little-endian push length; `None` if the script ends first.
fn read_len<const N: usize>(bytes: &[u8]) -> Option<(usize, &[u8])> {
    if bytes.len() < N {
        return None;
    }
    let (len_bytes, rest) = bytes.split_at(N);
    let len = len_bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
    Some((usize::try_from(len).unwrap_or(usize::MAX), rest))
}

/// The data of every non-empty push of `script`, in order, up to the first malformed push:
/// exactly the elements `IsRelevantAndUpdate` tests.
pub fn data_pushes(script: &[u8]) -> impl Iterator<Item = &[u8]> {
    Ops::new(script)
        .map(|op| op.data)
        .filter(|data| !data.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pushes(script: &[u8]) -> Vec<Vec<u8>> {
        data_pushes(script).map(<[u8]>::to_vec).collect()
    }

    #[test]
    fn every_push_form() {
        let script = [
            0x02, 0xaa, 0xbb, // direct push
            0x4c, 0x01, 0xcc, // PUSHDATA1
            0x4d, 0x01, 0x00, 0xdd, // PUSHDATA2
            0x4e, 0x01, 0x00, 0x00, 0x00, 0xee, // PUSHDATA4
        ];
        assert_eq!(
            pushes(&script),
            vec![vec![0xaa, 0xbb], vec![0xcc], vec![0xdd], vec![0xee]]
        );
    }

    #[test]
    fn empty_pushes_and_small_integers_carry_no_data() {
        let script = [OP_0, 0x4c, 0x00, OP_1NEGATE, OP_1, OP_16, OP_CHECKSIG];
        assert!(pushes(&script).is_empty());
        let ops: Vec<u8> = Ops::new(&script).map(|op| op.opcode).collect();
        assert_eq!(ops, vec![OP_0, 0x4c, OP_1NEGATE, OP_1, OP_16, OP_CHECKSIG]);
    }

    #[test]
    fn malformed_push_stops_the_walk_after_earlier_pushes() {
        let script = [0x01, 0xaa, 0x03, 0xbb, 0xcc];
        let mut ops = Ops::new(&script);
        assert_eq!(ops.next().map(|op| op.data), Some(&[0xaa][..]));
        assert_eq!(ops.next(), None);
        assert!(ops.hit_malformed_push());
        for truncated in [
            &[0x4c][..],
            &[0x4d, 0x01],
            &[0x4e, 0xff, 0xff, 0xff, 0xff, 0x00],
        ] {
            assert!(pushes(truncated).is_empty());
        }
        let mut ops = Ops::new(&[0x51]);
        ops.next();
        assert!(!ops.hit_malformed_push());
    }
}
