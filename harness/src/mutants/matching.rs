//! The matching switch points: Core's `IsRelevantAndUpdate` over the mutant's filter, where
//! a mutant can get the elements wrong (txid in display order, big-endian outpoint index,
//! empty pushes, small integers, the bytes of a truncated push, whole scripts, witness items),
//! the walk wrong (stop at the first txid or output match, skip the coinbase's prevout, leave
//! out one of the four places Core tests, skip PUSHDATA or long pushes, read PUSHDATA lengths
//! big-endian, hash the witness into the txid) or the update wrong (unmasked flags, flags 3 as
//! ALL, no insert under ALL, an outpoint per push, P2PUBKEY_ONLY for any output, without
//! multisig or without hybrid keys). The vector generator takes its mistaken matching answers from these mutants,
//! so every matching vector that separates a mistake kills its mutant. Transactions, script
//! parsing and the solver are `bip37-reference`'s.

use super::bug::Bug;
use super::filter::{DivisionByZero, MutantFilter};
use bip37_reference::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_MASK, BLOOM_UPDATE_NONE};
use bip37_reference::limits::MAX_FILTERADD_BYTES;
use bip37_reference::script::{Ops, OP_1, OP_16, OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4};
use bip37_reference::sha256::sha256d;
use bip37_reference::solver::{is_bare_multisig, is_pay_to_pubkey, is_pubkey_or_multisig};
use bip37_reference::tx::{OutPoint, Transaction};
use bip37_reference::UpdateMode;

/// The 36-byte outpoint element as the mutant serializes it.
fn outpoint_element(bug: Bug, outpoint: &OutPoint) -> [u8; 36] {
    let mut bytes = outpoint.to_bytes();
    if bug == Bug::BigEndianOutpointIndex {
        bytes[32..].reverse();
    }
    bytes
}

/// The elements of `script` the mutant tests, in order. Without a mistake: the data of every
/// non-empty push up to the first malformed push.
fn script_elements(bug: Bug, script: &[u8]) -> Vec<Vec<u8>> {
    let mut elements = Vec::new();
    if bug == Bug::WholeScriptTested {
        elements.push(script.to_vec());
    }
    if bug == Bug::PushdataLengthBigEndian {
        return big_endian_length_pushes(script);
    }
    let mut ops = Ops::new(script);
    for op in ops.by_ref() {
        let small_integer = (OP_1..=OP_16).contains(&op.opcode);
        let pushdata = (OP_PUSHDATA1..=OP_PUSHDATA4).contains(&op.opcode);
        if (pushdata && bug == Bug::NonMinimalPushSkipped)
            || (op.data.len() > MAX_FILTERADD_BYTES && bug == Bug::LongPushSkipped)
        {
            continue;
        }
        if small_integer && bug == Bug::SmallIntegerTested {
            elements.push(vec![op.opcode - OP_1 + 1]);
        } else if !op.data.is_empty() || (bug == Bug::EmptyPushTested && op.opcode <= OP_PUSHDATA4)
        {
            elements.push(op.data.to_vec());
        }
    }
    if bug == Bug::MalformedPushNotStopping && ops.hit_malformed_push() {
        let rest = ops.remaining();
        let length_bytes = match rest.first() {
            Some(&OP_PUSHDATA1) => 1,
            Some(&OP_PUSHDATA2) => 2,
            Some(&OP_PUSHDATA4) => 4,
            _ => 0,
        };
        if let Some(data) = rest.get(1 + length_bytes..).filter(|d| !d.is_empty()) {
            elements.push(data.to_vec());
        }
    }
    elements
}

/// The non-empty pushes of `script` with the lengths after PUSHDATA2 and PUSHDATA4 read
/// big-endian, up to the first push that runs past the end.
fn big_endian_length_pushes(script: &[u8]) -> Vec<Vec<u8>> {
    let mut elements = Vec::new();
    let mut rest = script;
    while let Some((&opcode, after)) = rest.split_first() {
        let width = match opcode {
            OP_PUSHDATA1 => 1,
            OP_PUSHDATA2 => 2,
            OP_PUSHDATA4 => 4,
            _ => 0,
        };
        let (len, after) = match opcode {
            0x01..=0x4b => (usize::from(opcode), after),
            OP_PUSHDATA1..=OP_PUSHDATA4 if after.len() >= width => (
                after[..width]
                    .iter()
                    .fold(0usize, |v, &b| v << 8 | usize::from(b)),
                &after[width..],
            ),
            OP_PUSHDATA1..=OP_PUSHDATA4 => break,
            _ => (0, after),
        };
        if len > after.len() {
            break;
        }
        if len > 0 {
            elements.push(after[..len].to_vec());
        }
        rest = &after[len..];
    }
    elements
}

/// True when the mutant's P2PUBKEY_ONLY inserts for an output paying to `script`.
fn inserts_for_pubkey_only(bug: Bug, script: &[u8]) -> bool {
    let hybrid_key = script.len() == 67 && matches!(script[1], 0x06 | 0x07);
    match bug {
        Bug::P2PubkeyOnlyAnyOutput => true,
        Bug::P2PubkeyOnlyNoMultisig => is_pay_to_pubkey(script),
        Bug::P2PubkeyOnlyStrictKeys => {
            (is_pay_to_pubkey(script) && !hybrid_key) || is_bare_multisig(script)
        }
        _ => is_pubkey_or_multisig(script),
    }
}

/// The update mode the mutant reads from the flags byte.
fn update_mode(bug: Bug, flags: u8) -> UpdateMode {
    let read = match bug {
        // The whole byte: anything above 3 selects no update at all.
        Bug::FlagsNotMasked if flags > BLOOM_UPDATE_MASK => BLOOM_UPDATE_NONE,
        // Bit 0 alone decides ALL, so 3 acts like 1.
        Bug::FlagsThreeAsAll if flags & BLOOM_UPDATE_MASK == BLOOM_UPDATE_MASK => BLOOM_UPDATE_ALL,
        _ => flags,
    };
    UpdateMode::from_flags(read)
}

/// True when the filter contains one of `elements`.
fn any_contained(filter: &MutantFilter, elements: &[Vec<u8>]) -> Result<bool, DivisionByZero> {
    for element in elements {
        if filter.contains(element)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `IsRelevantAndUpdate` as the mutant runs it.
pub fn is_relevant_and_update(
    bug: Bug,
    filter: &mut MutantFilter,
    tx: &Transaction,
) -> Result<bool, DivisionByZero> {
    if filter.is_empty() && bug != Bug::NoEmptyFilterGuard {
        return Ok(true);
    }
    let txid = match bug {
        Bug::TxidIncludesWitness => sha256d(&tx.encode()),
        _ => tx.txid(),
    };
    let mut tested_txid = txid;
    if bug == Bug::TxidDisplayOrder {
        tested_txid.reverse();
    }
    let mut found = bug != Bug::TxidNotTested && filter.contains(&tested_txid)?;
    if found && bug == Bug::AbortAfterTxidMatch {
        return Ok(true);
    }
    let mode = update_mode(bug, filter.flags());
    let mut elements_seen = 0u32;
    let outputs = match bug {
        Bug::OutputsNotTested => &[][..],
        _ => &tx.outputs[..],
    };
    for (vout, output) in (0u32..).zip(outputs) {
        let script = &output.script_pubkey;
        for element in script_elements(bug, script) {
            elements_seen += 1;
            if !filter.contains(&element)? {
                continue;
            }
            found = true;
            let inserts = match mode {
                UpdateMode::All => bug != Bug::UpdateAllInsertsNothing,
                UpdateMode::P2PubkeyOnly => inserts_for_pubkey_only(bug, script),
                UpdateMode::None => false,
            };
            // The per-push mutant numbers the outpoint by the element, not the output.
            let index = match bug {
                Bug::OutpointPerPush => elements_seen - 1,
                _ => vout,
            };
            if inserts {
                filter.insert(&outpoint_element(bug, &OutPoint { txid, vout: index }))?;
            }
            if bug != Bug::OutpointPerPush {
                break;
            }
        }
        if found && bug == Bug::AbortAfterOutputMatch {
            return Ok(true);
        }
    }
    if found {
        return Ok(true);
    }
    let coinbase = tx.inputs.len() == 1 && tx.inputs[0].prevout == OutPoint::NULL;
    if coinbase && bug == Bug::CoinbasePrevoutSkipped {
        return Ok(false);
    }
    for input in &tx.inputs {
        let mut elements = Vec::new();
        if bug != Bug::PrevoutNotTested {
            elements.push(outpoint_element(bug, &input.prevout).to_vec());
        }
        if bug != Bug::ScriptSigNotTested {
            elements.extend(script_elements(bug, &input.script_sig));
        }
        if bug == Bug::WitnessMatched {
            elements.extend(input.witness.iter().cloned());
        }
        if any_contained(filter, &elements)? {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_reference::{BloomFilter, FilterLoad};

    const FLAGS_BYTE_CASES: [u8; 4] = [0, 1, 2, 3];

    /// A segwit transaction spending output 3 of txid 0909..09, with one 20-byte witness item
    /// of 0xee and one output per script, serialized and decoded by the reference.
    fn tx(scripts: &[Vec<u8>]) -> Transaction {
        let mut raw = vec![1, 0, 0, 0, 0x00, 0x01, 1];
        raw.extend([9; 32]);
        raw.extend([3, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, scripts.len() as u8]);
        for script in scripts {
            raw.extend([1, 0, 0, 0, 0, 0, 0, 0, script.len() as u8]);
            raw.extend(script);
        }
        raw.extend([1, 20]);
        raw.extend([0xee; 20]);
        raw.extend([0; 4]);
        Transaction::decode(&raw).unwrap()
    }

    fn push20(byte: u8) -> Vec<u8> {
        [&[0x14][..], &[byte; 20]].concat()
    }

    /// The mutant's verdict and filter bytes next to the reference's, for one transaction.
    fn both(bug: Bug, flags: u8, elements: &[&[u8]], t: &Transaction) -> [(bool, Vec<u8>); 2] {
        let empty = FilterLoad {
            data: vec![0; 35],
            hash_funcs: 19,
            tweak: 0,
            flags,
        };
        let mut mutant = MutantFilter::from_fields(bug, empty.clone());
        let mut core = empty.into_filter();
        for e in elements {
            mutant.insert(e).unwrap();
            core.insert(e);
        }
        let verdict = is_relevant_and_update(bug, &mut mutant, t).unwrap();
        let core_verdict = BloomFilter::is_relevant_and_update(&mut core, t);
        [
            (verdict, mutant.data().to_vec()),
            (core_verdict, core.data().to_vec()),
        ]
    }

    #[test]
    fn a_harmless_bug_matches_like_core() {
        let t = tx(&[push20(0xaa), push20(0xbb)]);
        for flags in FLAGS_BYTE_CASES {
            let [m, c] = both(Bug::MsbFirstBits, flags, &[&[0xaa; 20]], &t);
            assert_eq!(m.0, c.0);
        }
    }

    #[test]
    fn each_matching_bug_departs_from_core() {
        let t = tx(&[push20(0xaa)]);
        let mut display = t.txid();
        display.reverse();
        let [m, c] = both(Bug::TxidDisplayOrder, 0, &[&display], &t);
        assert_ne!(m.0, c.0);
        let txid = t.txid();
        let [m, c] = both(Bug::AbortAfterTxidMatch, 1, &[&txid, &[0xaa; 20]], &t);
        assert_ne!(m.1, c.1, "the outpoint is not inserted after a txid match");
        let [m, c] = both(Bug::FlagsNotMasked, 0xfd, &[&[0xaa; 20]], &t);
        assert_ne!(m.1, c.1);
        let [m, c] = both(Bug::P2PubkeyOnlyAnyOutput, 2, &[&[0xaa; 20]], &t);
        assert_ne!(m.1, c.1);
        // Index 0 reads the same in both byte orders: the second output matches.
        let second = tx(&[push20(0xbb), push20(0xaa)]);
        let [m, c] = both(Bug::BigEndianOutpointIndex, 1, &[&[0xaa; 20]], &second);
        assert_ne!(m.1, c.1);
        let [m, c] = both(Bug::WitnessMatched, 0, &[&[0xee; 20]], &t);
        assert_ne!(m.0, c.0);
    }
}
