//! proptest strategies that generate a [`Request`] for each operation the fuzzer covers.
//!
//! Inputs are drawn so that the interesting cases are common rather than astronomically rare:
//! tweaks at the 32-bit wrap, filters and elements around the protocol limits, element pools
//! shared between filters and transactions (so matches and outpoint updates happen), txids from
//! a small alphabet (so identical merkle siblings happen), and well-formed payloads that are
//! then cut short or extended by a byte (so every decode rule is reached).

use bip37_harness::hex::Hex;
use bip37_harness::ops::*;
use bip37_reference::block::{Block, BlockHeader};
use bip37_reference::tx::{MutableTransaction, OutPoint, Transaction, TxIn, TxOut};
use bip37_reference::{FilterAdd, FilterLoad, PartialMerkleTree};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};

/// The operations the fuzzer generates inputs for: those [`request`] has a strategy for.
pub fn fuzzed() -> Vec<OpName> {
    OpName::ALL
        .iter()
        .copied()
        .filter(|&op| request(op).is_some())
        .collect()
}

/// Requests for any of `ops` (those without a strategy are left out), equally likely per op.
pub fn requests(ops: &[OpName]) -> Option<BoxedStrategy<Request>> {
    let arms: Vec<BoxedStrategy<Request>> = ops.iter().filter_map(|&op| request(op)).collect();
    (!arms.is_empty()).then(|| Union::new(arms).boxed())
}

/// Requests of one operation, or `None` if the fuzzer does not cover it.
pub fn request(op: OpName) -> Option<BoxedStrategy<Request>> {
    Some(match op {
        OpName::Murmur3 => (any::<u32>(), bytes(40))
            .prop_map(|(seed, data)| Request::Murmur3(Murmur3Input { seed, data }))
            .boxed(),
        OpName::HashSeed => (0u32..100, tweak())
            .prop_map(|(hash_index, tweak)| Request::HashSeed(HashSeedInput { hash_index, tweak }))
            .boxed(),
        OpName::Sizing => (n_elements(), fp_rate())
            .prop_map(|(n_elements, fp_rate)| {
                Request::Sizing(SizingInput {
                    n_elements,
                    fp_rate,
                })
            })
            .boxed(),
        OpName::BitIndexes => (filter_init(), bytes(40))
            .prop_map(|(filter, element)| Request::BitIndexes(BitIndexesInput { filter, element }))
            .boxed(),
        OpName::BuildFilter => (filter_init(), vec(bytes(24), 0..6), vec(bytes(24), 0..6))
            .prop_map(|(filter, insert, queries)| {
                Request::BuildFilter(BuildFilterInput {
                    filter,
                    insert,
                    queries,
                })
            })
            .boxed(),
        OpName::FilterloadDecode => filterload_payload()
            .prop_map(|payload| Request::FilterloadDecode(PayloadInput { payload }))
            .boxed(),
        OpName::FilterloadAccept => filterload_payload()
            .prop_map(|payload| Request::FilterloadAccept(PayloadInput { payload }))
            .boxed(),
        OpName::FilteraddDecode => filteradd_payload()
            .prop_map(|payload| Request::FilteraddDecode(PayloadInput { payload }))
            .boxed(),
        OpName::FilteraddAccept => filteradd_payload()
            .prop_map(|payload| Request::FilteraddAccept(PayloadInput { payload }))
            .boxed(),
        OpName::MatchTx => pool()
            .prop_flat_map(|pool| (matching_filter(&pool), vec(tx(&pool), 1..4)))
            .prop_map(|((filter, insert), txs)| {
                let txs = txs.iter().map(|t| Hex(t.encode())).collect();
                Request::MatchTx(MatchTxInput {
                    filter,
                    insert,
                    txs,
                })
            })
            .boxed(),
        OpName::MerkleBlock => pool()
            .prop_flat_map(|pool| (matching_filter(&pool), header(), vec(tx(&pool), 1..7)))
            .prop_map(|((filter, insert), header, transactions)| {
                let block = Hex(Block {
                    header,
                    transactions,
                }
                .encode());
                Request::MerkleBlock(MerkleBlockInput {
                    filter,
                    insert,
                    block,
                })
            })
            .boxed(),
        OpName::PmtBuild => (1usize..24)
            .prop_flat_map(|n| (vec(txid(), n), vec(any::<bool>(), n)))
            .prop_map(|(txids, matches)| {
                let txids = txids.into_iter().map(|t| Hex(t.to_vec())).collect();
                Request::PmtBuild(PmtBuildInput { txids, matches })
            })
            .boxed(),
        OpName::PmtExtract => pmt_bytes()
            .prop_map(|pmt| Request::PmtExtract(PmtExtractInput { pmt }))
            .boxed(),
        // Sessions are left to the vectors.
        OpName::Sequence => return None,
    })
}

fn bytes(max: usize) -> impl Strategy<Value = Hex> {
    vec(any::<u8>(), 0..=max).prop_map(Hex)
}

fn tweak() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0, 1, 5, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, u32::MAX]),
    ]
}

fn flags() -> impl Strategy<Value = u8> {
    prop_oneof![3 => 0u8..4, 1 => any::<u8>()]
}

fn n_elements() -> impl Strategy<Value = u32> {
    prop_oneof![4 => 1u32..200, 1 => Just(0u32), 1 => any::<u32>()]
}

fn fp_rate() -> impl Strategy<Value = FpRate> {
    prop_oneof![
        6 => (1e-7f64..0.6).prop_map(FpRate),
        1 => prop::sample::select(vec![0.0, 1.0, -0.5, 0.5, 1e-300, f64::NAN, f64::INFINITY]).prop_map(FpRate),
    ]
}

fn filter_init() -> impl Strategy<Value = FilterInit> {
    prop_oneof![
        (1u32..300, (1e-6f64..0.6), tweak(), flags()).prop_map(|(n_elements, p, tweak, flags)| {
            FilterInit::Sized {
                n_elements,
                fp_rate: FpRate(p),
                tweak,
                flags,
            }
        }),
        (0u32..48, 0u32..56, tweak(), flags()).prop_map(
            |(filter_bytes, hash_funcs, tweak, flags)| {
                FilterInit::Explicit {
                    filter_bytes,
                    hash_funcs,
                    tweak,
                    flags,
                }
            }
        ),
        (bytes(24), 0u32..56, tweak(), flags()).prop_map(|(data, hash_funcs, tweak, flags)| {
            FilterInit::Loaded {
                data,
                hash_funcs,
                tweak,
                flags,
            }
        }),
    ]
}

/// A well-formed payload, possibly cut short or given an extra byte, or plain random bytes.
fn damaged(well_formed: impl Strategy<Value = Vec<u8>>) -> impl Strategy<Value = Hex> {
    let edited = (
        well_formed,
        0u8..4,
        any::<prop::sample::Index>(),
        any::<u8>(),
    )
        .prop_map(|(mut payload, edit, at, byte)| {
            match edit {
                0 => payload.truncate(at.index(payload.len().max(1))),
                1 => payload.push(byte),
                _ => {}
            }
            Hex(payload)
        });
    prop_oneof![4 => edited, 1 => bytes(24)]
}

/// Element or filter bytes: usually short, sometimes right around a protocol limit.
fn sized_data(short: usize, limit: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => vec(any::<u8>(), 0..=short),
        1 => (limit - 2..=limit + 2, any::<u8>()).prop_map(|(len, b)| vec![b; len]),
        1 => (250usize..260, any::<u8>()).prop_map(|(len, b)| vec![b; len]),
    ]
}

fn filterload_payload() -> impl Strategy<Value = Hex> {
    let hash_funcs = prop_oneof![4 => 0u32..56, 1 => any::<u32>()];
    let load = (sized_data(40, 36_000), hash_funcs, tweak(), flags()).prop_map(
        |(data, hash_funcs, tweak, flags)| {
            FilterLoad {
                data,
                hash_funcs,
                tweak,
                flags,
            }
            .encode()
        },
    );
    damaged(load)
}

fn filteradd_payload() -> impl Strategy<Value = Hex> {
    damaged(sized_data(40, 520).prop_map(|data| FilterAdd { data }.encode()))
}

/// A pool of four elements shared by a filter and the transactions it is matched against.
fn pool() -> impl Strategy<Value = Vec<Vec<u8>>> {
    vec(vec(any::<u8>(), 1..12), 4)
}

/// A filter for matching, and the pool elements inserted into it.
fn matching_filter(pool: &[Vec<u8>]) -> impl Strategy<Value = (FilterInit, Vec<Hex>)> {
    let pool = pool.to_vec();
    let init = (1u32..40, 0u32..20, tweak(), flags()).prop_map(
        |(filter_bytes, hash_funcs, tweak, flags)| FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        },
    );
    (init, vec(0usize..4, 0..3)).prop_map(move |(init, picks)| {
        (init, picks.iter().map(|&i| Hex(pool[i].clone())).collect())
    })
}

/// A script of pool pushes, opcodes and pay-to-pubkey shapes.
fn script(pool: &[Vec<u8>]) -> impl Strategy<Value = Vec<u8>> {
    let pool = pool.to_vec();
    let piece = prop_oneof![
        4 => (0usize..4).prop_map(move |i| push(&pool[i])),
        1 => any::<u8>().prop_map(|op| vec![op]),
        1 => any::<[u8; 32]>().prop_map(|key| {
            let mut p2pk = vec![33, 0x02];
            p2pk.extend_from_slice(&key);
            p2pk.push(0xac);
            p2pk
        }),
    ];
    vec(piece, 0..4).prop_map(|pieces| pieces.concat())
}

/// A minimal direct push of `data` (1 to 75 bytes).
fn push(data: &[u8]) -> Vec<u8> {
    [&[data.len() as u8][..], data].concat()
}

fn txid() -> impl Strategy<Value = [u8; 32]> {
    prop_oneof![1 => (0u8..3).prop_map(|b| [b; 32]), 2 => any::<[u8; 32]>()]
}

fn tx(pool: &[Vec<u8>]) -> impl Strategy<Value = Transaction> {
    let input = (txid(), 0u32..3, script(pool), any::<u32>()).prop_map(
        |(txid, vout, script_sig, sequence)| TxIn {
            prevout: OutPoint { txid, vout },
            script_sig,
            sequence,
            witness: Vec::new(),
        },
    );
    let output = (0i64..100_000, script(pool)).prop_map(|(value, script_pubkey)| TxOut {
        value,
        script_pubkey,
    });
    (
        any::<u32>(),
        vec(input, 1..3),
        vec(output, 1..4),
        any::<u32>(),
    )
        .prop_map(|(version, inputs, outputs, lock_time)| {
            Transaction::from(MutableTransaction {
                version,
                inputs,
                outputs,
                lock_time,
            })
        })
}

fn header() -> impl Strategy<Value = BlockHeader> {
    (
        any::<u32>(),
        any::<[u8; 32]>(),
        any::<[u8; 32]>(),
        any::<(u32, u32, u32)>(),
    )
        .prop_map(
            |(version, prev_block, merkle_root, (time, bits, nonce))| BlockHeader {
                version,
                prev_block,
                merkle_root,
                time,
                bits,
                nonce,
            },
        )
}

/// A serialized partial merkle tree: a real one, edited, or random bytes.
fn pmt_bytes() -> impl Strategy<Value = Hex> {
    let built = (1usize..20)
        .prop_flat_map(|n| (vec(txid(), n), vec(any::<bool>(), n)))
        .prop_map(|(txids, matches)| {
            PartialMerkleTree::build(&txids, &matches)
                .map(|tree| tree.encode())
                .unwrap_or_default()
        });
    let flipped = (built.clone(), any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(mut bytes, at, mask)| {
            if !bytes.is_empty() {
                let i = at.index(bytes.len());
                bytes[i] ^= mask;
            }
            bytes
        },
    );
    prop_oneof![2 => damaged(built), 1 => flipped.prop_map(Hex), 1 => bytes(80)]
}
