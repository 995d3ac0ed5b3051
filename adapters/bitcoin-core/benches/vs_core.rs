//! `bip37-reference` against Bitcoin Core's own compiled code (Core's static libraries and
//! bloom.cpp, built with Core's flags: build.rs, shim/bench.cpp), every operation in one run:
//!
//! - MurmurHash3 at 20, 32, 33, 36, 65, 520 and 4,096 bytes;
//! - `insert`, `contains` of a present and of an absent element, at every element size BIP 37
//!   hashes, on a 2,396-byte filter with 13 hash functions and a 36,000-byte one with 9
//!   (`reference/benches/support/filter_cases.rs`, shared with the reference's murmur3 bench);
//! - `IsRelevantAndUpdate` of a 2-in/2-out P2PKH transaction that does not match and of one
//!   that matches through an output (UPDATE_ALL, so it inserts the outpoint: the same bits on
//!   every call after the first);
//! - the txid of a transaction, computed (Core's `CMutableTransaction::GetHash`, the
//!   reference's `MutableTransaction::txid`);
//! - building a partial merkle tree of 2,000 txids with 10 matched, and extracting its matches.
//!
//! `cargo bench --manifest-path adapters/bitcoin-core/Cargo.toml --bench vs_core [-- ROUNDS
//! [GROUP...]]`, GROUP one of murmur3, filter, transaction, merkle (all by default).
//!
//! Each round times every case once by the timing loop of the reference's benches
//! (`reference/benches/support/timing.rs`: short batches of each side alternately, the median
//! of the ratios of adjacent batches); the rounds are interleaved, all cases in each, so a
//! slow phase of the shared machine lands on every case alike. The table gives per case the
//! median over the rounds of reference time / Core time (at most 1.00: the reference is at
//! least as fast) and the lowest and highest round.

#[path = "../../../reference/benches/support/timing.rs"]
mod timing;
#[path = "../../../reference/benches/support/workload.rs"]
mod workload;

#[path = "../../../reference/benches/support/filter_cases.rs"]
mod filter_cases;

use bip37_adapter_bitcoin_core::bench_ffi::{self as core, Filter, MutableTx, TreeInputs, Tx};
use bip37_reference::{BloomFilter, FilterLoad, PartialMerkleTree, Transaction};
use filter_cases::PeerFilter;
use std::hint::black_box;
use timing::{measure, Timing};
use workload::{block, bytes, p2pkh_tx, wallet_filter};

const ROUNDS: usize = 5;
const MURMUR_SIZES: [usize; 7] = [20, 32, 33, 36, 65, 520, 4096];
/// The element sizes BIP 37 hashes: hash160, txid, compressed key, outpoint, uncompressed
/// key, the largest script element.
const ELEMENT_SIZES: [usize; 6] = [20, 32, 33, 36, 65, 520];
const BLOCK_TXS: u64 = 2_000;
const MATCH_EVERY: usize = 200;

impl PeerFilter for Filter {
    fn insert(&mut self, element: &[u8]) {
        Filter::insert(self, element)
    }

    fn contains(&self, element: &[u8]) -> bool {
        Filter::contains(self, element)
    }

    fn data(&self) -> Vec<u8> {
        FilterLoad::decode(&self.save())
            .expect("Core's filter serializes as a filterload")
            .data
    }
}

/// Core's copy of a reference filter, through its filterload payload.
fn core_filter(ours: &BloomFilter) -> Filter {
    let payload = FilterLoad {
        data: ours.data().to_vec(),
        hash_funcs: ours.hash_funcs(),
        tweak: ours.tweak(),
        flags: ours.flags(),
    }
    .encode();
    Filter::load(&payload).expect("Core reads the reference's filterload")
}

/// Every round's figures of one case.
struct Case {
    op: String,
    size: String,
    ratios: Vec<f64>,
    ours: Vec<f64>,
    core: Vec<f64>,
}

#[derive(Default)]
struct Table(Vec<Case>);

impl Table {
    /// Records one round of a case: `t` timed the reference as "ours" and Core as "theirs".
    fn add(&mut self, op: &str, size: String, t: Timing) {
        let at = match self.0.iter().position(|c| c.op == op && c.size == size) {
            Some(at) => at,
            None => {
                self.0.push(Case {
                    op: op.into(),
                    size,
                    ratios: Vec::new(),
                    ours: Vec::new(),
                    core: Vec::new(),
                });
                self.0.len() - 1
            }
        };
        let case = &mut self.0[at];
        // The median of theirs/ours over the batches, inverted: reference / Core.
        case.ratios.push(1.0 / t.ratio);
        case.ours.push(t.ours);
        case.core.push(t.theirs);
    }

    fn print(&self) {
        println!(
            "| operation | size | reference / Core | spread (rounds) | reference ns | Core ns |"
        );
        println!("|---|---|---:|---:|---:|---:|");
        for case in &self.0 {
            let (lo, hi) = (min(&case.ratios), max(&case.ratios));
            println!(
                "| {} | {} | {:.2} | {lo:.2}–{hi:.2} | {} | {} |",
                case.op,
                case.size,
                median(&case.ratios),
                ns(median(&case.ours)),
                ns(median(&case.core)),
            );
        }
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

fn ns(t: f64) -> String {
    if t >= 10_000.0 {
        format!("{:.0} µs", t / 1e3)
    } else {
        format!("{t:.1}")
    }
}

/// One round of the MurmurHash3 cases.
fn murmur3_round(table: &mut Table) {
    for len in MURMUR_SIZES {
        let data = filter_cases::input_bytes(len);
        for seed in [0, 7, u32::MAX] {
            assert_eq!(
                bip37_reference::murmur3(seed, &data),
                core::murmur3(seed, &data)
            );
        }
        let t = measure(
            || {
                black_box(bip37_reference::murmur3(black_box(7), black_box(&data)));
            },
            || {
                black_box(core::murmur3(black_box(7), black_box(&data)));
            },
        );
        table.add("MurmurHash3", format!("{len} B"), t);
    }
}

/// One round of the filter cases.
fn filter_round(table: &mut Table) {
    filter_cases::run(&ELEMENT_SIZES, core_filter, |op, len, t| {
        table.add(op, format!("{len} B"), t)
    });
}

/// Times `IsRelevantAndUpdate` of transaction `index` of the workload on copies of `filter`,
/// which answer `matches`; returns the transaction, decoded by both.
fn match_case(
    table: &mut Table,
    op: &str,
    filter: &BloomFilter,
    index: u64,
    matches: bool,
) -> (Transaction, MutableTx) {
    let wire = p2pkh_tx(index).encode();
    let (tx, core_mtx) = (
        Transaction::decode(&wire).expect("decodes"),
        MutableTx::decode(&wire).expect("Core decodes it"),
    );
    let core_tx = Tx::new(&core_mtx);
    let (mut ours, mut theirs) = (filter.clone(), core_filter(filter));
    assert_eq!(ours.is_relevant_and_update(&tx), matches);
    assert_eq!(theirs.is_relevant_and_update(&core_tx), matches);
    assert_eq!(ours.data(), theirs.data(), "the same update");
    let t = measure(
        || assert_eq!(ours.is_relevant_and_update(black_box(&tx)), matches),
        || assert_eq!(theirs.is_relevant_and_update(black_box(&core_tx)), matches),
    );
    table.add(op, "2-in/2-out".into(), t);
    (tx, core_mtx)
}

/// One round of `IsRelevantAndUpdate` and the txid.
fn transaction_round(table: &mut Table) {
    let mut filter = wallet_filter();
    match_case(
        table,
        "IsRelevantAndUpdate, no match",
        &filter,
        1_000_001,
        false,
    );
    // A transaction paying to a key of the filter's: its first output matches, and UPDATE_ALL
    // inserts that outpoint; from the second call on, into bits already set.
    filter.insert(&bytes(4, 1_000_002 * 2, 20));
    let (tx, core_mtx) = match_case(
        table,
        "IsRelevantAndUpdate, match",
        &filter,
        1_000_002,
        true,
    );
    let wire_len = tx.encode().len();

    let mtx = tx.into_mutable();
    assert_eq!(mtx.txid(), core_mtx.txid(), "the same txid");
    let t = measure(
        || {
            black_box(black_box(&mtx).txid());
        },
        || {
            black_box(black_box(&core_mtx).txid());
        },
    );
    table.add("txid", format!("2-in/2-out, {wire_len} B"), t);
}

/// One round of the partial merkle tree cases.
fn merkle_round(table: &mut Table) {
    let txids = block(BLOCK_TXS, |_, _, _| {}).txids();
    let matches: Vec<bool> = (0..txids.len()).map(|i| i % MATCH_EVERY == 7).collect();
    let inputs = TreeInputs::new(&txids, &matches).expect("2,000 txids and flags");
    let ours = PartialMerkleTree::build(&txids, &matches).expect("2,000 txids");
    let mut tree = inputs.tree();
    assert_eq!(ours.encode(), tree.save(), "the same tree");
    let size = format!(
        "{BLOCK_TXS} txids, {} matched",
        BLOCK_TXS as usize / MATCH_EVERY
    );
    let t = measure(
        || {
            black_box(PartialMerkleTree::build(black_box(&txids), &matches).ok());
        },
        || {
            black_box(black_box(&inputs).build());
        },
    );
    table.add("partial merkle tree, build", size.clone(), t);

    let extracted = ours.extract_matches().expect("a valid tree");
    assert_eq!(
        (extracted.root, extracted.matches.len()),
        tree.extract_matches(),
        "the same root and matches"
    );
    let t = measure(
        || {
            black_box(black_box(&ours).extract_matches().ok());
        },
        || {
            black_box(black_box(&mut tree).extract_matches());
        },
    );
    table.add("partial merkle tree, extract", size, t);
}

/// One round of a group of cases.
type Round = fn(&mut Table);

/// The groups of cases, by the name that picks them on the command line.
const GROUPS: [(&str, Round); 4] = [
    ("murmur3", murmur3_round),
    ("filter", filter_round),
    ("transaction", transaction_round),
    ("merkle", merkle_round),
];

fn main() {
    // `cargo bench` passes `--bench`; the other arguments are the rounds and the groups.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let rounds = args
        .first()
        .map_or(ROUNDS, |a| a.parse().expect("ROUNDS is a number"));
    let groups: Vec<_> = GROUPS
        .iter()
        .filter(|(name, _)| args.len() < 2 || args[1..].iter().any(|a| a == name))
        .collect();
    let sha256 = core::init();
    eprintln!("Core's SHA-256: {sha256}; {rounds} rounds");
    let mut table = Table::default();
    for round in 1..=rounds {
        for (_, group) in &groups {
            group(&mut table);
        }
        eprintln!("round {round} of {rounds} done");
    }
    table.print();
    println!(
        "\nreference / Core: the reference's time over Core's, the median of {rounds} rounds \
         (at most 1.00: the reference is at least as fast); spread: the lowest and highest \
         round. Core's SHA-256: {sha256}."
    );
}
