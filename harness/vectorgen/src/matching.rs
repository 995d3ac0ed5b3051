//! `match_test.json`: `IsRelevantAndUpdate` — which transactions match a filter and which
//! outpoints the match inserts.
//!
//! Core's `bloom_match` cases come first (the two transactions transcribed in
//! `vectors/sources/`); the generated tests then place one element exactly where a classic
//! mistake looks wrongly (display-order txid, big-endian outpoint index, witness, empty pushes,
//! a truncated push, ...) and, for the update rules, follow the matching transaction with a
//! child that spends it, which matches only through the inserted outpoint.

use super::builder::{
    core_source, every_mutant, generated_source, oracle_outcome, Case, FileBuilder, GroupBuilder,
    Outcome,
};
use super::core_facts::{bytes, core, core_transactions, line};
use super::synthetic::{
    coinbase, compressed_key, core_filter, element, foreign_outpoint, input, multisig_1_of,
    output_of, p2pk, p2pkh, p2sh, p2wpkh, push, tx,
};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{FilterInit, MatchTxInput, OpName, Output, Request};
use bip37_harness::vectors::model::{Expectation, Phase, VectorFile};
use bip37_reference::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_NONE, BLOOM_UPDATE_P2PUBKEY_ONLY};
use bip37_reference::tx::OutPoint;
use bip37_reference::Transaction;

/// What Core's `bloom_match` case at `line` checks.
const CORE_WHAT: &[(u32, &str)] = &[
    (117, "the txid inserted as a uint256 (internal byte order)"),
    (122, "the txid inserted as raw bytes in internal order"),
    (126, "the DER signature pushed in the input's scriptSig"),
    (130, "the public key pushed in the input's scriptSig"),
    (134, "the pubkey hash of output 0; with UPDATE_ALL the same filter then matches the spending transaction through outpoint (tx, 0)"),
    (139, "the pubkey hash of output 1"),
    (143, "the input's prevout inserted as a COutPoint"),
    (147, "the input's prevout serialized by hand: txid then LE32 index"),
    (157, "a txid that is not this one"),
    (161, "a 20-byte value that is not in the transaction"),
    (165, "the prevout's txid with index 1 instead of 0"),
    (169, "the prevout's index with another txid"),
];

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "match",
        &[
            "IsRelevantAndUpdate as Bitcoin Core computes it (src/common/bloom.cpp): the txid in internal byte order, every non-empty push of every output (at most one outpoint insert per output, no abort after a txid match), and only when nothing matched the inputs' prevouts and scriptSig pushes.",
            "Each test sets up a filter, inserts elements, then evaluates the transactions in order on the same filter; the answer is one verdict per transaction and the filter bytes afterwards.",
        ],
    );
    file.group(core_bloom_match()?);
    file.group(generated(
        "Where the elements are: txid, outputs, inputs, and what is never tested.",
        "TxidDisplayOrder, TxidNotTested, TxidIncludesWitness, BigEndianOutpointIndex, PrevoutNotTested, ScriptSigNotTested, EmptyPushTested, SmallIntegerTested, MalformedPushNotStopping, NonMinimalPushSkipped, PushdataLengthBigEndian, LongPushSkipped, WitnessMatched, CoinbasePrevoutSkipped, WholeScriptTested",
        Phase::Match,
        element_cases(),
    )?);
    file.group(generated(
        "Which outpoints a match inserts: a child spending the matched output follows each matching transaction.",
        "UpdateAllInsertsNothing, AbortAfterTxidMatch, AbortAfterOutputMatch, OutpointPerPush, P2PubkeyOnlyAnyOutput, P2PubkeyOnlyNoMultisig, P2PubkeyOnlyStrictKeys, FlagsNotMasked, FlagsThreeAsAll",
        Phase::Update,
        update_cases(),
    )?);
    file.finish()
}

/// A `matchTx` test with the answer of every mutant attached.
fn match_case(
    slug: &str,
    phase: Phase,
    filter: FilterInit,
    insert: Vec<Vec<u8>>,
    txs: &[Transaction],
    comment: &str,
) -> Case {
    let request = match_request(filter, insert, txs);
    let mistaken = every_mutant(&request);
    Case::new(slug, phase, request, comment).mistaken(mistaken)
}

fn match_request(filter: FilterInit, insert: Vec<Vec<u8>>, txs: &[Transaction]) -> Request {
    Request::MatchTx(MatchTxInput {
        filter,
        insert: insert.into_iter().map(Hex).collect(),
        txs: txs.iter().map(|t| Hex(t.encode())).collect(),
    })
}

fn core_bloom_match() -> Result<GroupBuilder, GenError> {
    let (core_tx, spending) = core_transactions()?;
    let mut group = GroupBuilder::new(
        OpName::MatchTx,
        core_source("src/test/bloom_tests.cpp", 102, "bloom_tests/bloom_match"),
        "Core's bloom_match: each case loads CBloomFilter(10, 0.000001, 0, UPDATE_ALL), inserts one element and evaluates transaction b4749f01…7fff6b. Core prints the verdicts; the filter bytes are the reference's.",
    )
    .shared(&["filter"]);
    let cases = &core()?.bloom_match.cases;
    if cases.len() != CORE_WHAT.len() {
        return Err(GenError(format!(
            "core.json has {} bloom_match cases, CORE_WHAT describes {}",
            cases.len(),
            CORE_WHAT.len()
        )));
    }
    for (case, &(what_line, what)) in cases.iter().zip(CORE_WHAT) {
        let line = line(&case.source)?;
        if line != what_line {
            return Err(GenError(format!(
                "bloom_tests.cpp:{line} is described as line {what_line}"
            )));
        }
        let mut txs = vec![core_tx.clone()];
        let mut verdicts = vec![case.expect_match];
        if case.then.is_some() {
            txs.push(spending.clone());
            verdicts.push(true);
        }
        let element = bytes(&case.element_hex)?;
        let init = core_filter(BLOOM_UPDATE_ALL);
        let insert = vec![element];
        match oracle_outcome(&match_request(init.clone(), insert.clone(), &txs)) {
            Outcome::Ok(Output::MatchTx(out)) if out.matched == verdicts => {}
            other => {
                return Err(GenError(format!(
                "bloom_tests.cpp:{line}: the reference answers {other:?}, Core prints {verdicts:?}"
            )))
            }
        }
        let case = match_case(
            &format!("core-bloom-match-line{line}"),
            Phase::Match,
            init,
            insert,
            &txs,
            &format!("bloom_tests.cpp:{line}: {what}"),
        );
        group.generated(case, Expectation::Valid);
    }
    Ok(group)
}

/// One generated test before it is built: slug, filter flags, elements, transactions, the
/// mistakes it must separate and what it checks.
struct Spec {
    slug: &'static str,
    flags: u8,
    insert: Vec<Vec<u8>>,
    txs: Vec<Transaction>,
    targets: &'static [&'static str],
    comment: &'static str,
}

fn generated(
    comment: &str,
    targets: &str,
    phase: Phase,
    specs: Vec<Spec>,
) -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::MatchTx,
        generated_source("matching", targets),
        comment,
    );
    for spec in specs {
        let case = match_case(
            spec.slug,
            phase,
            core_filter(spec.flags),
            spec.insert,
            &spec.txs,
            spec.comment,
        )
        .targets(spec.targets);
        group.generated(case, Expectation::Valid);
    }
    Ok(group)
}

/// A transaction from an unrelated outpoint to `scripts`.
fn paying(scripts: Vec<Vec<u8>>) -> Transaction {
    tx(vec![input(foreign_outpoint(0x99, 0), Vec::new())], scripts)
}

/// A transaction spending output `vout` of `parent`, paying to nothing the filters know.
fn child_of(parent: &Transaction, vout: u32) -> Transaction {
    tx(
        vec![input(output_of(parent, vout), Vec::new())],
        vec![push(&element(0xee))],
    )
}

fn element_cases() -> Vec<Spec> {
    let plain = paying(vec![push(&element(0xa1))]);
    let mut display_txid = plain.txid();
    display_txid.reverse();
    let spender = tx(
        vec![input(foreign_outpoint(0x33, 0x0102), Vec::new())],
        vec![push(&element(0xa2))],
    );
    let empty_pushes = paying(vec![vec![0x00, 0x4c, 0x00, 0x6a]]);
    let small_ints = paying(vec![vec![0x55, 0x60, 0x4f]]);
    let truncated = [push(&element(0xa3)), vec![0x15], element(0xa4)].concat();
    let malformed = paying(vec![truncated]);
    let mut witness = paying(vec![push(&element(0xa5))]).into_mutable();
    witness.inputs[0].witness = vec![element(0xa6), vec![0x51]];
    let witness = Transaction::from(witness);
    let height_push = vec![0x03, 0x40, 0x0d, 0x03];
    let mined = coinbase(height_push, p2pkh(&element(0xa7)));
    let script = p2pkh(&element(0xa8));
    let whole = paying(vec![script.clone()]);
    let non_minimal = paying(vec![vec![0x4c, 0x03, 0xaa, 0xbb, 0xcc]]);
    let long = vec![0xab; 600];
    let long_push = paying(vec![push(&long)]);
    // 0x0303 reads the same in either byte order: only the push's length is at stake.
    let palindrome = vec![0xac; 0x0303];
    let palindrome_push = paying(vec![push(&palindrome)]);
    let medium = vec![0xad; 300];
    let medium_push = paying(vec![push(&medium)]);
    vec![
        Spec { slug: "txid-internal-order", flags: BLOOM_UPDATE_NONE, insert: vec![plain.txid().to_vec()], txs: vec![plain.clone()], targets: &["TxidDisplayOrder", "TxidNotTested"], comment: "The txid in internal byte order matches." },
        Spec { slug: "txid-display-order-does-not-match", flags: BLOOM_UPDATE_NONE, insert: vec![display_txid.to_vec()], txs: vec![plain.clone()], targets: &["TxidDisplayOrder"], comment: "The txid in display (RPC) order is not an element." },
        Spec { slug: "prevout-index-little-endian", flags: BLOOM_UPDATE_NONE, insert: vec![foreign_outpoint(0x33, 0x0102).to_bytes().to_vec()], txs: vec![spender], targets: &["BigEndianOutpointIndex", "PrevoutNotTested"], comment: "The input's prevout is tested as txid || LE32(index 0x0102)." },
        Spec { slug: "empty-pushes-not-tested", flags: BLOOM_UPDATE_NONE, insert: vec![Vec::new()], txs: vec![empty_pushes], targets: &["EmptyPushTested"], comment: "OP_0 and PUSHDATA1 of zero bytes push nothing: the empty element in the filter does not match." },
        Spec { slug: "small-integers-not-tested", flags: BLOOM_UPDATE_NONE, insert: vec![vec![0x05], vec![0x10]], txs: vec![small_ints], targets: &["SmallIntegerTested"], comment: "OP_5, OP_16 and OP_1NEGATE carry no data: 05 and 10 in the filter do not match." },
        Spec { slug: "push-before-truncated-push-tested", flags: BLOOM_UPDATE_NONE, insert: vec![element(0xa3)], txs: vec![malformed.clone()], targets: &[], comment: "A push before a truncated push is still tested." },
        Spec { slug: "truncated-push-not-tested", flags: BLOOM_UPDATE_NONE, insert: vec![element(0xa4)], txs: vec![malformed], targets: &["MalformedPushNotStopping"], comment: "A push claiming 21 bytes with 20 present is malformed: parsing stops, its bytes are not an element." },
        Spec { slug: "witness-not-tested", flags: BLOOM_UPDATE_NONE, insert: vec![element(0xa6)], txs: vec![witness.clone()], targets: &["WitnessMatched"], comment: "An element only in the witness does not match." },
        Spec { slug: "segwit-txid-without-witness", flags: BLOOM_UPDATE_NONE, insert: vec![witness.txid().to_vec()], txs: vec![witness], targets: &["TxidIncludesWitness"], comment: "A segwit transaction's txid hashes its serialization without the witness: that txid matches." },
        Spec { slug: "coinbase-null-prevout-tested", flags: BLOOM_UPDATE_NONE, insert: vec![OutPoint::NULL.to_bytes().to_vec()], txs: vec![mined.clone()], targets: &["CoinbasePrevoutSkipped"], comment: "The coinbase's null prevout (32 zero bytes, ffffffff) is tested like any prevout." },
        Spec { slug: "coinbase-scriptsig-push-tested", flags: BLOOM_UPDATE_NONE, insert: vec![vec![0x40, 0x0d, 0x03]], txs: vec![mined], targets: &["CoinbasePrevoutSkipped", "ScriptSigNotTested"], comment: "The coinbase scriptSig's height push is tested like any scriptSig push." },
        Spec { slug: "whole-script-not-tested", flags: BLOOM_UPDATE_NONE, insert: vec![script], txs: vec![whole], targets: &["WholeScriptTested"], comment: "Only the pushes of a script are elements, never the whole scriptPubKey." },
        Spec { slug: "non-minimal-push-tested", flags: BLOOM_UPDATE_NONE, insert: vec![vec![0xaa, 0xbb, 0xcc]], txs: vec![non_minimal], targets: &["NonMinimalPushSkipped"], comment: "PUSHDATA1 of 3 bytes (non-minimal) is tested on its data." },
        Spec { slug: "push-over-520-bytes-tested", flags: BLOOM_UPDATE_NONE, insert: vec![long], txs: vec![long_push], targets: &["LongPushSkipped"], comment: "A 600-byte push in a scriptPubKey is tested: only filteradd limits element size." },
        Spec { slug: "push-of-771-bytes-tested", flags: BLOOM_UPDATE_NONE, insert: vec![palindrome], txs: vec![palindrome_push], targets: &["LongPushSkipped"], comment: "A 771-byte push (PUSHDATA2 03 03, the same length in either byte order) is tested." },
        Spec { slug: "pushdata2-length-little-endian", flags: BLOOM_UPDATE_NONE, insert: vec![medium], txs: vec![medium_push], targets: &["PushdataLengthBigEndian", "NonMinimalPushSkipped"], comment: "A 300-byte push is PUSHDATA2 2c 01: its length is little-endian (read big-endian it runs past the script)." },
    ]
}

fn update_cases() -> Vec<Spec> {
    let one = paying(vec![push(&element(0xb1))]);
    let two_outputs = paying(vec![push(&element(0xb2)), push(&element(0xb3))]);
    let two_pushes = paying(vec![
        [push(&element(0xb4)), push(&element(0xb5))].concat(),
        push(&element(0xb6)),
    ]);
    let key = compressed_key(0xb7);
    let to_key = paying(vec![p2pk(&key)]);
    let bare_multisig = paying(vec![multisig_1_of(&[compressed_key(0xb8), key.clone()])]);
    let mut hybrid = vec![0xbc; 65];
    hybrid[0] = 0x06;
    let to_hybrid = paying(vec![p2pk(&hybrid)]);
    let mut wrong_prefix = compressed_key(0xbd);
    wrong_prefix[0] = 0x04;
    let to_wrong_prefix = paying(vec![p2pk(&wrong_prefix)]);
    let seventeen_keys: Vec<Vec<u8>> = (0..17).map(|i| compressed_key(0xc0 + i)).collect();
    let twenty_one_keys: Vec<Vec<u8>> = (0..21).map(|i| compressed_key(0xc0 + i)).collect();
    let to_seventeen = paying(vec![multisig_1_of(&seventeen_keys)]);
    let to_twenty_one = paying(vec![multisig_1_of(&twenty_one_keys)]);
    let hash = element(0xb9);
    let to_hash = paying(vec![p2pkh(&hash)]);
    let to_script_hash = paying(vec![p2sh(&hash)]);
    let to_witness = paying(vec![p2wpkh(&hash)]);
    let input_push = tx(
        vec![input(foreign_outpoint(0x44, 0), push(&element(0xba)))],
        vec![push(&element(0xbb))],
    );
    let with_child = |parent: &Transaction, vout| vec![parent.clone(), child_of(parent, vout)];
    vec![
        Spec { slug: "update-all-child-matches", flags: BLOOM_UPDATE_ALL, insert: vec![element(0xb1)], txs: with_child(&one, 0), targets: &["UpdateAllInsertsNothing"], comment: "UPDATE_ALL: the output match inserts (txid, 0), so the child spending it matches." },
        Spec { slug: "update-none-child-does-not-match", flags: BLOOM_UPDATE_NONE, insert: vec![element(0xb1)], txs: with_child(&one, 0), targets: &[], comment: "UPDATE_NONE inserts nothing: the child does not match." },
        Spec { slug: "txid-match-still-updates", flags: BLOOM_UPDATE_ALL, insert: vec![one.txid().to_vec(), element(0xb1)], txs: with_child(&one, 0), targets: &["AbortAfterTxidMatch"], comment: "The txid matches first; the outputs are still scanned and (txid, 0) inserted, so the child matches." },
        Spec { slug: "second-output-still-updates", flags: BLOOM_UPDATE_ALL, insert: vec![element(0xb2), element(0xb3)], txs: with_child(&two_outputs, 1), targets: &["AbortAfterOutputMatch"], comment: "Both outputs match; after output 0 the scan goes on and inserts (txid, 1) too." },
        Spec { slug: "one-outpoint-per-output", flags: BLOOM_UPDATE_ALL, insert: vec![element(0xb4), element(0xb5)], txs: with_child(&two_pushes, 1), targets: &["OutpointPerPush"], comment: "Two matching pushes in output 0 insert (txid, 0) once; output 1 matches nothing, so a child of output 1 does not match." },
        Spec { slug: "p2pubkey-only-p2pk-inserts", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![key.clone()], txs: with_child(&to_key, 0), targets: &[], comment: "P2PUBKEY_ONLY inserts for a pay-to-pubkey output (a 33-byte 02 key, not a curve point: only size and prefix count)." },
        Spec { slug: "p2pubkey-only-multisig-inserts", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![key], txs: with_child(&bare_multisig, 0), targets: &["P2PubkeyOnlyNoMultisig"], comment: "P2PUBKEY_ONLY inserts for a bare 1-of-2 multisig output." },
        Spec { slug: "p2pubkey-only-hybrid-key-inserts", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![hybrid], txs: with_child(&to_hybrid, 0), targets: &["P2PubkeyOnlyStrictKeys"], comment: "A 65-byte key with prefix 06 (hybrid) is a valid size for Solver: pay-to-pubkey, the outpoint is inserted." },
        Spec { slug: "p2pubkey-only-wrong-prefix-no-insert", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![wrong_prefix], txs: with_child(&to_wrong_prefix, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "33 bytes with prefix 04 is not a valid key size: not pay-to-pubkey, nothing inserted." },
        Spec { slug: "p2pubkey-only-1-of-17-inserts", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![compressed_key(0xc5)], txs: with_child(&to_seventeen, 0), targets: &[], comment: "Bare multisig allows up to 20 keys, n = 17 written as a minimal one-byte push: the outpoint is inserted." },
        Spec { slug: "p2pubkey-only-1-of-21-no-insert", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![compressed_key(0xc5)], txs: with_child(&to_twenty_one, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "21 keys exceed the multisig template's 20: nothing inserted." },
        Spec { slug: "p2pubkey-only-p2pkh-no-insert", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![hash.clone()], txs: with_child(&to_hash, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "P2PUBKEY_ONLY does not insert for P2PKH: the child does not match." },
        Spec { slug: "p2pubkey-only-p2sh-no-insert", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![hash.clone()], txs: with_child(&to_script_hash, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "P2PUBKEY_ONLY does not insert for P2SH." },
        Spec { slug: "p2pubkey-only-p2wpkh-no-insert", flags: BLOOM_UPDATE_P2PUBKEY_ONLY, insert: vec![hash.clone()], txs: with_child(&to_witness, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "P2PUBKEY_ONLY does not insert for a witness program." },
        Spec { slug: "flags-3-acts-as-none", flags: 3, insert: vec![element(0xb1)], txs: with_child(&one, 0), targets: &["FlagsThreeAsAll"], comment: "flags & 3 == 3 is neither ALL nor P2PUBKEY_ONLY: nothing is inserted." },
        Spec { slug: "flags-0x81-acts-as-all", flags: 0x81, insert: vec![element(0xb1)], txs: with_child(&one, 0), targets: &["FlagsNotMasked"], comment: "Only flags & 3 counts: 0x81 is UPDATE_ALL." },
        Spec { slug: "flags-0xfe-acts-as-p2pubkey-only", flags: 0xfe, insert: vec![hash], txs: with_child(&to_hash, 0), targets: &["P2PubkeyOnlyAnyOutput"], comment: "0xfe & 3 is P2PUBKEY_ONLY: no insert for P2PKH." },
        Spec { slug: "input-match-inserts-nothing", flags: BLOOM_UPDATE_ALL, insert: vec![element(0xba)], txs: with_child(&input_push, 0), targets: &[], comment: "A scriptSig match makes the transaction relevant but inserts nothing: its child does not match." },
    ]
}
