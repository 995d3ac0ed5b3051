//! Bitcoin transactions: a bounded decoder for the legacy and the segwit (BIP 144)
//! serialization, read the way Core's `UnserializeTransaction` reads them, and the encoders.
//!
//! The txid is the double SHA-256 of the serialization WITHOUT witness data, in internal byte
//! order: that is the id a BIP 37 filter tests. Every count and length is checked against the
//! bytes still present before anything is allocated, so hostile input costs no memory.

use crate::compact_size::{self, ensure_consumed, read_prefixed, take, write_prefixed};
use crate::sha256::{sha256, sha256d_parts, Hash256};
use crate::wire::DecodeError;
use sha2::{Digest, Sha256};
use std::fmt;
use std::ops::Deref;

/// The fewest bytes an input can take: outpoint (36), empty script (1), sequence (4).
const MIN_INPUT_BYTES: u64 = 41;
/// The fewest bytes an output can take: value (8), empty script (1).
const MIN_OUTPUT_BYTES: u64 = 9;
/// The fewest bytes a witness item can take: its empty length prefix.
const MIN_WITNESS_ITEM_BYTES: u64 = 1;
/// The fewest bytes a transaction can take: version, two empty counts, lock time.
pub const MIN_TX_BYTES: u64 = 10;

/// Why bytes are not a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxError {
    /// A field is truncated, a CompactSize is non-canonical or too large, or bytes are left over.
    Decode(DecodeError),
    /// The segwit flag is set but every input's witness is empty (Core: "Superfluous witness
    /// record").
    SuperfluousWitness,
    /// The segwit flag byte has bits Core does not know (Core: "Unknown transaction optional data").
    UnknownFlags(u8),
}

impl fmt::Display for TxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TxError::Decode(e) => write!(f, "transaction: {e}"),
            TxError::SuperfluousWitness => {
                f.write_str("transaction: witness flag set but every witness is empty")
            }
            TxError::UnknownFlags(flags) => {
                write!(f, "transaction: unknown optional data flags 0x{flags:02x}")
            }
        }
    }
}

impl std::error::Error for TxError {}

impl From<DecodeError> for TxError {
    fn from(e: DecodeError) -> Self {
        TxError::Decode(e)
    }
}

/// A reference to an output: the txid (internal byte order) and the output index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutPoint {
    pub txid: Hash256,
    pub vout: u32,
}

impl OutPoint {
    /// The coinbase's null prevout: 32 zero bytes and index 0xffffffff.
    pub const NULL: OutPoint = OutPoint {
        txid: [0; 32],
        vout: u32::MAX,
    };

    /// Core's `COutPoint` serialization, the element a filter tests and inserts: the txid in
    /// internal byte order, then the index as u32 little-endian.
    pub fn to_bytes(&self) -> [u8; 36] {
        let mut out = [0u8; 36];
        out[..32].copy_from_slice(&self.txid);
        out[32..].copy_from_slice(&self.vout.to_le_bytes());
        out
    }
}

/// A transaction input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxIn {
    pub prevout: OutPoint,
    pub script_sig: Vec<u8>,
    pub sequence: u32,
    /// The witness stack (empty for a legacy input).
    pub witness: Vec<Vec<u8>>,
}

/// A transaction output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxOut {
    /// The amount in satoshis, as the signed 64-bit field of the wire.
    pub value: i64,
    pub script_pubkey: Vec<u8>,
}

/// A transaction's fields, free to build and change (Core's `CMutableTransaction`). Turn it
/// into a [`Transaction`] with `Transaction::from` to match it against a filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MutableTransaction {
    pub version: u32,
    pub inputs: Vec<TxIn>,
    pub outputs: Vec<TxOut>,
    pub lock_time: u32,
}

/// A transaction and its txid, computed once when it was built or decoded (Core's
/// `CTransaction`): matching tests the txid and every outpoint a match inserts carries it, so
/// computing it per use cost more than the whole match. The fields are read through `Deref`
/// and cannot change, so the txid cannot go stale; [`Transaction::into_mutable`] gives them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    fields: MutableTransaction,
    txid: Hash256,
}

impl From<MutableTransaction> for Transaction {
    fn from(fields: MutableTransaction) -> Self {
        let txid = fields.txid();
        Self { fields, txid }
    }
}

impl Deref for Transaction {
    type Target = MutableTransaction;

    fn deref(&self) -> &MutableTransaction {
        &self.fields
    }
}

impl Transaction {
    /// The txid: `sha256d` of the serialization without witness, internal byte order.
    pub fn txid(&self) -> Hash256 {
        self.txid
    }

    /// The fields, to change them (the txid is recomputed when they become a `Transaction`).
    pub fn into_mutable(self) -> MutableTransaction {
        self.fields
    }

    /// Decodes exactly one transaction: trailing bytes are an error.
    pub fn decode(bytes: &[u8]) -> Result<Self, TxError> {
        let mut input = bytes;
        let tx = Self::decode_from(&mut input)?;
        ensure_consumed(input)?;
        Ok(tx)
    }

    /// Decodes one transaction from the front of `input`, as a block holds them.
    ///
    /// As in Core: after the version, an empty input list followed by a non-zero byte is the
    /// segwit marker and that byte the flags; flag bit 0 means witnesses follow the outputs.
    ///
    /// The txid is hashed from the bytes read, without encoding the transaction again: the
    /// version, the inputs and outputs as they stand in the input, and the lock time.
    pub fn decode_from(input: &mut &[u8]) -> Result<Self, TxError> {
        let start = *input;
        let offset = |rest: &[u8]| start.len() - rest.len();
        let version = u32::from_le_bytes(take(input, "transaction version")?);
        let mut body_start = offset(input);
        let mut inputs = read_inputs(input)?;
        let mut flags = 0u8;
        let outputs = if inputs.is_empty() {
            flags = take::<1>(input, "segwit flags")?[0];
            if flags != 0 {
                body_start = offset(input);
                inputs = read_inputs(input)?;
                read_outputs(input)?
            } else {
                // That byte was the empty output count of a transaction without inputs.
                Vec::new()
            }
        } else {
            read_outputs(input)?
        };
        let body = &start[body_start..offset(input)];
        if flags & 1 != 0 {
            flags ^= 1;
            for txin in &mut inputs {
                txin.witness = read_witness(input)?;
            }
            if inputs.iter().all(|txin| txin.witness.is_empty()) {
                return Err(TxError::SuperfluousWitness);
            }
        }
        if flags != 0 {
            return Err(TxError::UnknownFlags(flags));
        }
        let lock_time = take::<4>(input, "lock time")?;
        Ok(Self {
            txid: sha256d_parts(&[&version.to_le_bytes(), body, &lock_time]),
            fields: MutableTransaction {
                version,
                inputs,
                outputs,
                lock_time: u32::from_le_bytes(lock_time),
            },
        })
    }
}

impl MutableTransaction {
    /// True when any input carries witness data (then [`MutableTransaction::encode`] uses BIP 144).
    pub fn has_witness(&self) -> bool {
        self.inputs.iter().any(|txin| !txin.witness.is_empty())
    }

    /// The serialization without witness data: what the txid hashes.
    pub fn encode_without_witness(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.serialize_without_witness(&mut |bytes| out.extend_from_slice(bytes));
        out
    }

    /// The full serialization: BIP 144 with marker, flag and witnesses when any input has a
    /// witness, otherwise the legacy form.
    pub fn encode(&self) -> Vec<u8> {
        if !self.has_witness() {
            return self.encode_without_witness();
        }
        let mut out = Vec::new();
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&[0x00, 0x01]);
        self.serialize_inputs_and_outputs(&mut |bytes| out.extend_from_slice(bytes));
        for txin in &self.inputs {
            compact_size::write(&mut out, txin.witness.len() as u64);
            for item in &txin.witness {
                write_prefixed(&mut out, item);
            }
        }
        out.extend_from_slice(&self.lock_time.to_le_bytes());
        out
    }

    /// The txid, computed now: `sha256d` of the serialization without witness, internal byte
    /// order. A [`Transaction`] keeps it instead.
    ///
    /// The serialization goes straight into the hash, field by field, as Core's `HashWriter`
    /// takes it, without a buffer to hold it first.
    pub fn txid(&self) -> Hash256 {
        let mut hasher = Sha256::new();
        self.serialize_without_witness(&mut |bytes| hasher.update(bytes));
        sha256(&hasher.finalize())
    }

    /// The serialization without witness, handed to `put` a field at a time.
    fn serialize_without_witness(&self, put: &mut impl FnMut(&[u8])) {
        put(&self.version.to_le_bytes());
        self.serialize_inputs_and_outputs(put);
        put(&self.lock_time.to_le_bytes());
    }

    fn serialize_inputs_and_outputs(&self, put: &mut impl FnMut(&[u8])) {
        fn size(put: &mut impl FnMut(&[u8]), n: usize) {
            let (bytes, len) = compact_size::encode(n as u64);
            put(&bytes[..len]);
        }
        size(put, self.inputs.len());
        for txin in &self.inputs {
            put(&txin.prevout.to_bytes());
            size(put, txin.script_sig.len());
            put(&txin.script_sig);
            put(&txin.sequence.to_le_bytes());
        }
        size(put, self.outputs.len());
        for txout in &self.outputs {
            put(&txout.value.to_le_bytes());
            size(put, txout.script_pubkey.len());
            put(&txout.script_pubkey);
        }
    }
}

/// Reads a CompactSize count of items that take at least `min_item_bytes` each, refusing a
/// count the remaining input cannot hold.
pub(crate) fn read_count(
    input: &mut &[u8],
    min_item_bytes: u64,
    field: &'static str,
) -> Result<usize, DecodeError> {
    let count = compact_size::read(input)?;
    let needed = count.saturating_mul(min_item_bytes);
    if needed > input.len() as u64 {
        return Err(DecodeError::Truncated {
            field,
            needed,
            available: input.len(),
        });
    }
    Ok(count as usize)
}

fn read_inputs(input: &mut &[u8]) -> Result<Vec<TxIn>, DecodeError> {
    let count = read_count(input, MIN_INPUT_BYTES, "inputs")?;
    // `read_count` bounds `count` by the bytes there, so reserving it allocates no more than
    // the input can fill; a loop rather than `collect`, which would grow the vector by
    // doubling (`perf` of `decode_tx`: the reallocations and the iterator's bookkeeping).
    let mut inputs = Vec::with_capacity(count);
    for _ in 0..count {
        let [txid @ .., v0, v1, v2, v3] = take::<36>(input, "prevout")?;
        let script_sig = read_prefixed(input, "scriptSig")?.to_vec();
        let sequence = u32::from_le_bytes(take(input, "sequence")?);
        inputs.push(TxIn {
            prevout: OutPoint {
                txid,
                vout: u32::from_le_bytes([v0, v1, v2, v3]),
            },
            script_sig,
            sequence,
            witness: Vec::new(),
        });
    }
    Ok(inputs)
}

fn read_outputs(input: &mut &[u8]) -> Result<Vec<TxOut>, DecodeError> {
    let count = read_count(input, MIN_OUTPUT_BYTES, "outputs")?;
    let mut outputs = Vec::with_capacity(count);
    for _ in 0..count {
        let value = i64::from_le_bytes(take(input, "output value")?);
        let script_pubkey = read_prefixed(input, "scriptPubKey")?.to_vec();
        outputs.push(TxOut {
            value,
            script_pubkey,
        });
    }
    Ok(outputs)
}

fn read_witness(input: &mut &[u8]) -> Result<Vec<Vec<u8>>, DecodeError> {
    let count = read_count(input, MIN_WITNESS_ITEM_BYTES, "witness items")?;
    (0..count)
        .map(|_| read_prefixed(input, "witness item").map(<[u8]>::to_vec))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::sha256d;

    fn sample() -> MutableTransaction {
        MutableTransaction {
            version: 2,
            inputs: vec![TxIn {
                prevout: OutPoint {
                    txid: [7; 32],
                    vout: 1,
                },
                script_sig: vec![0x51],
                sequence: 0xffff_fffe,
                witness: Vec::new(),
            }],
            outputs: vec![TxOut {
                value: 5_000,
                script_pubkey: vec![0x6a],
            }],
            lock_time: 99,
        }
    }

    #[test]
    fn legacy_roundtrip() {
        let tx = Transaction::from(sample());
        let bytes = tx.encode();
        assert_eq!(bytes.len(), 4 + 1 + 36 + 2 + 4 + 1 + 8 + 2 + 4);
        assert_eq!(Transaction::decode(&bytes), Ok(tx));
    }

    #[test]
    fn segwit_roundtrip_and_txid_ignores_witness() {
        let legacy = Transaction::from(sample());
        let mut segwit = sample();
        segwit.inputs[0].witness = vec![vec![1, 2, 3], Vec::new()];
        let segwit = Transaction::from(segwit);
        let bytes = segwit.encode();
        assert_eq!(&bytes[4..6], &[0x00, 0x01]);
        assert_eq!(Transaction::decode(&bytes), Ok(segwit.clone()));
        assert_eq!(segwit.txid(), legacy.txid());
    }

    #[test]
    fn computed_txid_hashes_the_serialization_without_witness() {
        let mut tx = sample();
        tx.inputs[0].witness = vec![vec![1, 2, 3]];
        tx.inputs.push(TxIn {
            script_sig: vec![0xab; 300], // a 3-byte CompactSize length
            ..tx.inputs[0].clone()
        });
        let bytes = tx.encode_without_witness();
        assert_eq!(tx.txid(), sha256d(&bytes));
        assert_eq!(Transaction::decode(&tx.encode()).unwrap().txid(), tx.txid());
    }

    #[test]
    fn superfluous_witness_and_unknown_flags() {
        let mut bytes = sample().encode();
        bytes.splice(4..4, [0x00, 0x01]);
        let at = bytes.len() - 4;
        bytes.insert(at, 0x00); // one input, empty witness
        assert_eq!(
            Transaction::decode(&bytes),
            Err(TxError::SuperfluousWitness)
        );
        bytes[5] = 0x02;
        bytes.remove(at);
        assert_eq!(Transaction::decode(&bytes), Err(TxError::UnknownFlags(2)));
    }

    #[test]
    fn empty_inputs_then_zero_is_an_empty_transaction() {
        let bytes = [1, 0, 0, 0, 0x00, 0x00, 0, 0, 0, 0];
        let tx = Transaction::decode(&bytes).unwrap();
        assert!(tx.inputs.is_empty() && tx.outputs.is_empty());
        assert_eq!(tx.txid(), sha256d(&bytes));
    }

    #[test]
    fn hostile_counts_fail_before_allocating() {
        let bytes = [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x01];
        assert!(matches!(
            Transaction::decode(&bytes),
            Err(TxError::Decode(DecodeError::Truncated {
                field: "inputs",
                ..
            }))
        ));
        let mut bytes = sample().encode();
        bytes.push(0);
        assert_eq!(
            Transaction::decode(&bytes),
            Err(TxError::Decode(DecodeError::TrailingBytes(1)))
        );
        for cut in 0..bytes.len() - 1 {
            assert!(Transaction::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn outpoint_serialization_is_internal_txid_then_le_index() {
        let op = OutPoint {
            txid: [0xab; 32],
            vout: 0x0102_0304,
        };
        let bytes = op.to_bytes();
        assert_eq!(&bytes[..32], &[0xab; 32]);
        assert_eq!(&bytes[32..], &[4, 3, 2, 1]);
        assert_eq!(&OutPoint::NULL.to_bytes()[32..], &[0xff; 4]);
    }
}
