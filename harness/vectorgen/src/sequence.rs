//! `sequence_test.json`: one peer's session with a node, message by message, with the node's
//! answer after each (semantics in [`bip37_harness::ops::sequence`]).
//!
//! Core's multi-step tests come first: `bloom_match`'s filter matching the spender after the
//! transaction, and the `merkle_block_*` tests that add an element to the already updated
//! filter and build the next merkle block. The generated sessions then check what only state
//! shows: updates that persist, `filterclear`, a refused `filterload` that keeps the old
//! filter, `filteradd` without a filter, and payloads that do not decode.

use super::builder::{
    core_source, every_mutant, generated_source, oracle_outcome, Case, FileBuilder, GroupBuilder,
    Outcome,
};
use super::core_facts::{
    bytes, core, core_block, core_transactions, display_txid, line, merkle_case, short_name,
};
use super::synthetic::{element, foreign_outpoint, input, output_of, push, tx};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{
    OpName, Output, Request, SequenceInput, SequenceOutput, Step, StepResult,
};
use bip37_harness::vectors::model::{Expectation, Phase, VectorFile};
use bip37_reference::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_NONE};
use bip37_reference::{Block, BloomFilter, FilterAdd, FilterLoad, Transaction};

/// A step as the generator holds it: typed messages, not yet bytes.
#[derive(Clone)]
enum Msg {
    Load(FilterLoad),
    /// A payload that does not decode.
    LoadBytes(Vec<u8>),
    Add(Vec<u8>),
    Clear,
    Tx(Transaction),
    Block(Block),
}

impl Msg {
    fn step(&self) -> Step {
        match self {
            Msg::Load(load) => Step::Filterload {
                payload: Hex(load.encode()),
            },
            Msg::LoadBytes(bytes) => Step::Filterload {
                payload: Hex(bytes.clone()),
            },
            Msg::Add(data) => Step::Filteradd {
                payload: Hex(FilterAdd { data: data.clone() }.encode()),
            },
            Msg::Clear => Step::Filterclear {},
            Msg::Tx(t) => Step::MatchTx {
                tx: Hex(t.encode()),
            },
            Msg::Block(b) => Step::MerkleBlock {
                block: Hex(b.encode()),
            },
        }
    }
}

/// A `sequence` test with the answer of every node and matching mutant attached, and the
/// reference's answer.
fn session_case(
    slug: &str,
    msgs: &[Msg],
    comment: &str,
) -> Result<(Case, SequenceOutput), GenError> {
    let request = Request::Sequence(SequenceInput {
        steps: msgs.iter().map(Msg::step).collect(),
    });
    let Outcome::Ok(Output::Sequence(faithful)) = oracle_outcome(&request) else {
        return Err(GenError(format!(
            "{slug}: the reference refuses the session"
        )));
    };
    let mistaken = every_mutant(&request);
    Ok((
        Case::new(slug, Phase::Sequence, request, comment).mistaken(mistaken),
        faithful,
    ))
}

/// The `relevant` verdicts of a session's `matchTx` steps, in order.
fn tx_verdicts(out: &SequenceOutput) -> Vec<bool> {
    out.results
        .iter()
        .filter_map(|r| match r {
            StepResult::Tx { relevant, .. } => Some(*relevant),
            _ => None,
        })
        .collect()
}

/// `CBloomFilter(10, 0.000001, 0, flags)` with `elements` inserted, as a `filterload`.
fn core_load(flags: u8, elements: &[Vec<u8>]) -> Result<FilterLoad, GenError> {
    let mut f = BloomFilter::new(10, 0.000_001, 0, flags).map_err(|e| GenError(e.to_string()))?;
    for e in elements {
        f.insert(e);
    }
    Ok(FilterLoad::from(&f))
}

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "sequence",
        &[
            "Sessions of one peer with a node serving BIP 37 (Bitcoin Core's src/net_processing.cpp semantics): filterload, filteradd, filterclear, transactions and filtered blocks, with the node's answer after each step.",
            "The filter persists between steps: outpoints inserted by matches stay, filterclear removes it, a refused filterload leaves the old one in place.",
        ],
    );
    file.group(core_sessions()?);
    file.group(functional_sessions()?);
    file.group(generated_sessions()?);
    file.finish()
}

fn core_sessions() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::Sequence,
        core_source("src/test/bloom_tests.cpp", 173, "bloom_tests/merkle_block_1, merkle_block_2, merkle_block_2_with_update_none, merkle_block_4; bloom_match"),
        "Core's tests that keep using one filter: each loads CBloomFilter(10, 0.000001, 0, flags) with its first elements, builds a merkle block, adds one more element to the UPDATED filter and builds the next. Core prints the matched lists; the bytes are the reference's.",
    );
    let two_steps = core()?.merkle_block.iter().filter(|c| c.steps.len() == 2);
    for case in two_steps {
        let (test_case, line) = (short_name(&case.test_case), line(&case.source)?);
        let b = core_block(&case.block)?;
        let msgs = [
            Msg::Load(core_load(
                case.filter_params.n_flags,
                &case.steps[0].insert()?,
            )?),
            Msg::Block(b.clone()),
        ]
        .into_iter()
        .chain(case.steps[1].insert()?.into_iter().map(Msg::Add))
        .chain([Msg::Block(b)])
        .collect::<Vec<_>>();
        let (session, out) = session_case(
            &format!("core-{}", test_case.replace('_', "-")),
            &msgs,
            &format!("bloom_tests.cpp:{line}: {test_case}, both merkle blocks on one filter"),
        )?;
        let expected = case.steps[1].matched()?;
        match out.results.last() {
            Some(StepResult::MerkleBlock { matched, .. }) if *matched == expected => {}
            other => return Err(GenError(format!("bloom_tests.cpp:{line}: the reference's last step is {other:?}, Core prints {expected:?}"))),
        }
        group.generated(session, Expectation::Valid);
    }
    for case in core_outpoint_checks()? {
        group.generated(case, Expectation::Valid);
    }
    let (core_tx, spending) = core_transactions()?;
    let output_case = core()?
        .bloom_match
        .cases
        .iter()
        .find(|c| c.then.is_some())
        .ok_or_else(|| {
            GenError("core.json: no bloom_match case follows with the spender".into())
        })?;
    let msgs = [
        Msg::Load(core_load(
            BLOOM_UPDATE_ALL,
            &[bytes(&output_case.element_hex)?],
        )?),
        Msg::Tx(core_tx),
        Msg::Tx(spending),
    ];
    let (case, out) = session_case("core-bloom-match-spender", &msgs, "bloom_tests.cpp:134-136: the output's pubkey hash matches the transaction, and the same filter then matches its spender")?;
    let relevant = tx_verdicts(&out);
    if relevant != [true, true] {
        return Err(GenError(format!(
            "bloom_tests.cpp:136: the reference answers {relevant:?}"
        )));
    }
    group.generated(case, Expectation::Valid);
    Ok(group)
}

/// `merkle_block_4_test_p2pubkey_only` (bloom_tests.cpp:409) and `_update_none` (:434):
/// after the merkle block, Core checks which outpoints the filter holds. Each session asks it
/// with two transactions spending those outpoints and nothing else: (flags, whether the
/// coinbase's P2PK outpoint is held; the P2PKH outpoint of transaction 3 never is).
fn core_outpoint_checks() -> Result<Vec<Case>, GenError> {
    let spend = |txid| {
        tx(
            vec![input(
                bip37_reference::OutPoint { txid, vout: 0 },
                Vec::new(),
            )],
            vec![vec![0x6a]],
        )
    };
    let mut cases = Vec::new();
    for test_case in [
        "merkle_block_4_test_p2pubkey_only",
        "merkle_block_4_test_update_none",
    ] {
        let case = merkle_case(test_case)?;
        let (line, flags) = (line(&case.source)?, case.filter_params.n_flags);
        let b = core_block(&case.block)?;
        let elements = case.steps[0].insert()?;
        // Core asks about the coinbase's P2PK outpoint, then transaction 3's P2PKH one.
        let [p2pk, p2pkh] = case.contains_after.as_slice() else {
            return Err(GenError(format!(
                "{test_case}: two outpoint checks expected"
            )));
        };
        if p2pkh.contains {
            return Err(GenError(format!(
                "{test_case}: Core never holds the P2PKH outpoint"
            )));
        }
        let holds_p2pk = p2pk.contains;
        let coinbase_outpoint = display_txid(&p2pk.outpoint_txid_display)?;
        let p2pkh_outpoint = display_txid(&p2pkh.outpoint_txid_display)?;
        let msgs = [
            Msg::Load(core_load(flags, &elements)?),
            Msg::Block(b.clone()),
            Msg::Tx(spend(coinbase_outpoint)),
            Msg::Tx(spend(p2pkh_outpoint)),
        ];
        let (case, out) = session_case(
            &format!("core-{}-outpoints", test_case.replace('_', "-")),
            &msgs,
            &format!("bloom_tests.cpp:{line}: {test_case}; then spends of the coinbase's P2PK output and of transaction 3's P2PKH output ask which outpoints the filter holds"),
        )?;
        let relevant = tx_verdicts(&out);
        if relevant != [holds_p2pk, false] {
            return Err(GenError(format!(
                "bloom_tests.cpp:{line}: the reference's filter holds {relevant:?}, Core checks [{holds_p2pk}, false]"
            )));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// `test/functional/p2p_filter.py`'s protocol probes as two sessions: the size limits
/// (lines 110-132) and the misbehaving `filteradd` plus the empty filter of CVE-2013-5700
/// (lines 218-222), followed by a transaction the empty filter must match without updating.
fn functional_sessions() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::Sequence,
        core_source("test/functional/p2p_filter.py", 110, "p2p_filter.py test_size_limits / test_msg_mempool"),
        "The limits and the empty filter as Core's functional test probes them (it checks the debug log for Misbehaving).",
    );
    let filled = |byte, len, hash_funcs| FilterLoad {
        data: vec![byte; len],
        hash_funcs,
        tweak: 0,
        flags: 0,
    };
    let limits = [
        Msg::Load(filled(0xbb, 36_001, 0)),
        Msg::Load(filled(0xbb, 36_000, 0)),
        Msg::Clear,
        Msg::Load(filled(0xaa, 1, 51)),
        Msg::Load(filled(0xaa, 1, 50)),
        Msg::Add(vec![0xcc; 520]),
        Msg::Add(vec![0xcc; 521]),
        Msg::Clear,
    ];
    let (case, _) = session_case(
        "functional-size-limits",
        &limits,
        "p2p_filter.py:110-132: 36,001 bytes and 51 hash functions are misbehaving, 36,000 bytes and 50 functions are accepted; a 520-byte filteradd is accepted, 521 bytes are misbehaving",
    )?;
    group.generated(
        case.targets(&[
            "NoFilterSizeLimit",
            "NoHashFuncLimit",
            "NoElementSizeLimit",
            "LimitOffByOne",
        ]),
        Expectation::Valid,
    );
    let anything = tx(
        vec![input(foreign_outpoint(0x66, 0), Vec::new())],
        vec![push(&element(0xd9))],
    );
    let empty = [
        Msg::Add(b"letsmisbehave".to_vec()),
        Msg::Load(filled(0, 0, 1)),
        Msg::Add(b"letstrytocrashthisnode".to_vec()),
        Msg::Tx(anything),
    ];
    let (case, _) = session_case(
        "functional-empty-filter",
        &empty,
        "p2p_filter.py:218-222: filteradd with no filter is misbehaving; an empty filter (0 bytes, 1 hash function) is accepted, filteradd to it is harmless (CVE-2013-5700), and it matches every transaction without changing",
    )?;
    let case = case.targets(&[
        "FilteraddWithoutFilterAccepted",
        "NoEmptyFilterGuard",
        "FilteraddToEmptyFilterRefused",
    ]);
    group.generated(case, Expectation::Valid);
    Ok(group)
}

fn generated_sessions() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::Sequence,
        generated_source("sequence", "UpdatesNotPersisted, FilterclearIgnored, RejectedFilterloadReplaces, FilteraddWithoutFilterAccepted, MalformedMessagePunished, MerkleblockWithoutFilterServed"),
        "Sessions whose later answers depend on what earlier messages did to the filter.",
    );
    let watched = element(0xd1);
    let parent = tx(
        vec![input(foreign_outpoint(0x55, 0), Vec::new())],
        vec![push(&watched)],
    );
    let child = tx(
        vec![input(output_of(&parent, 0), Vec::new())],
        vec![push(&element(0xd2))],
    );
    let all = core_load(BLOOM_UPDATE_ALL, std::slice::from_ref(&watched))?;
    let other = core_load(BLOOM_UPDATE_NONE, &[element(0xd3)])?;
    let oversize = FilterLoad {
        data: vec![0; 36_001],
        hash_funcs: 1,
        tweak: 0,
        flags: 0,
    };
    let too_many_funcs = FilterLoad {
        data: vec![0; 10],
        hash_funcs: 51,
        tweak: 0,
        flags: 0,
    };
    let truncated = all.encode()[..5].to_vec();
    let sessions: Vec<(&str, Vec<Msg>, &[&str], &str)> = vec![
        ("parent-then-child", vec![Msg::Load(all.clone()), Msg::Tx(parent.clone()), Msg::Tx(child.clone())], &["UpdatesNotPersisted"],
            "UPDATE_ALL: the parent pays to the watched element, the child matches only through the outpoint the parent inserted."),
        ("filterclear-then-nothing-filtered", vec![Msg::Load(all.clone()), Msg::Tx(parent.clone()), Msg::Clear, Msg::Tx(parent.clone()), Msg::Load(other.clone()), Msg::Tx(parent.clone())], &["FilterclearIgnored"],
            "After filterclear there is no filter (every transaction relayed); a new filter of other elements does not match the old ones."),
        ("oversize-filterload-keeps-old-filter", vec![Msg::Load(all.clone()), Msg::Load(oversize), Msg::Tx(parent.clone())], &["RejectedFilterloadReplaces"],
            "A 36,001-byte filterload is refused (misbehaving) and the loaded filter still matches."),
        ("too-many-hash-funcs-keeps-old-filter", vec![Msg::Load(all.clone()), Msg::Load(too_many_funcs), Msg::Tx(parent.clone())], &["RejectedFilterloadReplaces"],
            "A filterload with 51 hash functions is refused and the loaded filter still matches."),
        ("filteradd-without-filter", vec![Msg::Add(watched.clone()), Msg::Tx(parent.clone())], &["FilteraddWithoutFilterAccepted"],
            "filteradd with no filter loaded is misbehaviour and creates nothing."),
        ("filteradd-limits", vec![Msg::Load(other.clone()), Msg::Add(vec![0x5a; 521]), Msg::Add(vec![0x5a; 520]), Msg::Add(watched), Msg::Tx(parent.clone())], &[],
            "A 521-byte filteradd is refused, 520 bytes are accepted, and an added element matches."),
        ("undecodable-filterload-ignored", vec![Msg::LoadBytes(truncated), Msg::Tx(parent.clone()), Msg::Load(all), Msg::LoadBytes(vec![0xfd, 0x01, 0x00]), Msg::Tx(parent.clone())], &["MalformedMessagePunished"],
            "A truncated or non-canonical filterload payload is dropped without penalty and changes nothing."),
        ("merkleblock-without-filter", vec![Msg::Block(super::synthetic::block(vec![parent.clone(), child]))], &["MerkleblockWithoutFilterServed"],
            "A filtered block requested with no filter loaded gets no answer."),
        ("update-none-child-unmatched", vec![Msg::Load(core_load(BLOOM_UPDATE_NONE, &[element(0xd1)])?), Msg::Tx(parent.clone()), Msg::Tx(tx(vec![input(output_of(&parent, 0), Vec::new())], vec![]))], &[],
            "UPDATE_NONE: the parent matches, its child does not."),
    ];
    for (slug, msgs, targets, comment) in sessions {
        let (case, _) = session_case(slug, &msgs, comment)?;
        group.generated(case.targets(targets), Expectation::Valid);
    }
    Ok(group)
}
