//! Core's merkle block tests (src/test/bloom_tests.cpp, src/test/merkleblock_tests.cpp and
//! src/test/pmt_tests.cpp at d861c382) against the reference.
//!
//! Each bloom_tests case loads `CBloomFilter(10, 0.000001, 0, flags)`, inserts elements and
//! builds `CMerkleBlock` of a block; later steps insert more into the SAME (already updated)
//! filter. Core checks the matched (index, txid) list, the exact bytes of merkle_block_3 and,
//! for merkle_block_4's P2PUBKEY_ONLY / NONE variants, which outpoints the filter holds after.
//! The filter bytes and merkleblock bytes of the other steps were computed by an independent
//! model, not by Core: agreeing with them cross-checks two implementations.

mod matching_support;

use bip37_reference::pmt::ExtractError;
use bip37_reference::{Block, MerkleBlock, PartialMerkleTree};
use matching_support::{core_filter, display, hex, source};

/// One `CMerkleBlock` built in a Core case. (For the two merkle_block_4 variants Core checks
/// only the filter afterwards; their matched lists are the independent model's.)
struct Step {
    insert: &'static [&'static str],
    /// Core's `vMatchedTxn`: (index, txid in display order).
    matched: &'static [(u32, &'static str)],
    /// The filter bytes after the step (independent model).
    filter_after: &'static str,
    /// The merkleblock payload (independent model; Core checks it for merkle_block_3).
    merkleblock: &'static str,
}

/// One Core test case: a block, the filter flags, and its steps on one filter.
struct Case {
    name: &'static str,
    block: &'static str,
    flags: u8,
    steps: &'static [Step],
}

const CASES: &[Case] = &[
    Case {
        name: "merkle_block_1 (bloom_tests.cpp:173)",
        block: "block_13b8a",
        flags: 1,
        steps: &[
            Step {
                insert: &["201f4587ec86b58297edc2dd32d6fcd998aa794308aac802a8af3be0e081d674"],
                matched: &[(8, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20")],
                filter_after: "00000000008000000240a1000012082202000000000000040009000200004002000000",
                merkleblock: "0100000090f0a9f110702f808219ebea1173056042a714bad51b916cb6800000000000005275289558f51c9966699404ae2294730c3c9f9bda53523ce50e9b95e558da2fdb261b4d4c86041b1ab1bf930900000002bc56aae9c0b9a19d49250c9bf9bf90b3c1ee3ac9096410a1eb179e1e92f90a66201f4587ec86b58297edc2dd32d6fcd998aa794308aac802a8af3be0e081d674013d",
            },
            Step {
                insert: &["5310aedf9c8068f1e862ac9186724f7fdedb0aa9819833af4f4016fca6d21fdd"],
                matched: &[(7, "dd1fd2a6fc16404faf339881a90adbde7f4f728691ac62e8f168809cdfae1053"), (8, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20")],
                filter_after: "00000201048001002240a1000012082202000804000604040009050240004402200180",
                merkleblock: "0100000090f0a9f110702f808219ebea1173056042a714bad51b916cb6800000000000005275289558f51c9966699404ae2294730c3c9f9bda53523ce50e9b95e558da2fdb261b4d4c86041b1ab1bf9309000000055ef2374cf1cd1c0b8c1b795950c077fc571cca44866c375a1ed17ace665cfaaad403489f6b1a2f7de72c6e4573e1cc7ac15745518e42a0bf884f58dc48f455338719e60a59869e70a7a7a5d4ff6ceb979cd5abe60721d4402aaf365719ebd2215310aedf9c8068f1e862ac9186724f7fdedb0aa9819833af4f4016fca6d21fdd201f4587ec86b58297edc2dd32d6fcd998aa794308aac802a8af3be0e081d67402ab0f",
            },
        ],
    },
    Case {
        name: "merkle_block_2 (bloom_tests.cpp:214)",
        block: "block_5a4ded",
        flags: 1,
        steps: &[
            Step {
                insert: &["703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e9"],
                matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70")],
                filter_after: "000000000002104a000008810000080000088100100000000000e00000000008012000",
                merkleblock: "0100000075616236cc2126035fadb38deb65b9102cc2c41c09cdf29fc051906800000000fe7d5e12ef0ff901f6050211249919b1c0653771832b3a80c66cea42847f0ae1d4d26e49ffff001d00f0a4410400000003703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e95f9a06d3acdceb56be1bfeaa3e8a25e62d182fa24fefe899d1c17f1dad4c2028e91eb9b0ede8c4735562363d58e31e061b71826c50cfdcccda62dadb25bad8b10107",
            },
            Step {
                insert: &["044a656f065871a353f216ca26cef8dde2f03e8c16202d2e8ad769f02032cb86a5eb5e56842e92e19141d60a01928f8dd2c875a390f67c1f6c94cfc617c0ea45af"],
                matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70"), (1, "28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f"), (2, "6b0f8a73a56c04b519f1883e8aafda643ba61a30bd1439969df21bea5f4e27e2"), (3, "3c1d7e82342158e4109df2e0b6348b6e84e403d8b4046d7007663ace63cddb23")],
                filter_after: "842010090283186a5c600a8100010811808cc380900000880441ea00420000b8996a20",
                merkleblock: "0100000075616236cc2126035fadb38deb65b9102cc2c41c09cdf29fc051906800000000fe7d5e12ef0ff901f6050211249919b1c0653771832b3a80c66cea42847f0ae1d4d26e49ffff001d00f0a4410400000004703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e95f9a06d3acdceb56be1bfeaa3e8a25e62d182fa24fefe899d1c17f1dad4c2028e2274e5fea1bf29d963914bd301aa63b64daaf8a3e88f119b5046ca5738a0f6b23dbcd63ce3a6607706d04b4d803e4846e8b34b6e0f29d10e4582134827e1d3c017f",
            },
        ],
    },
    Case {
        name: "merkle_block_2_with_update_none (bloom_tests.cpp:271)",
        block: "block_5a4ded",
        flags: 0,
        steps: &[
            Step {
                insert: &["703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e9"],
                matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70")],
                filter_after: "000000000002104a000008810000080000088100100000000000e00000000008012000",
                merkleblock: "0100000075616236cc2126035fadb38deb65b9102cc2c41c09cdf29fc051906800000000fe7d5e12ef0ff901f6050211249919b1c0653771832b3a80c66cea42847f0ae1d4d26e49ffff001d00f0a4410400000003703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e95f9a06d3acdceb56be1bfeaa3e8a25e62d182fa24fefe899d1c17f1dad4c2028e91eb9b0ede8c4735562363d58e31e061b71826c50cfdcccda62dadb25bad8b10107",
            },
            Step {
                insert: &["044a656f065871a353f216ca26cef8dde2f03e8c16202d2e8ad769f02032cb86a5eb5e56842e92e19141d60a01928f8dd2c875a390f67c1f6c94cfc617c0ea45af"],
                matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70"), (1, "28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f"), (3, "3c1d7e82342158e4109df2e0b6348b6e84e403d8b4046d7007663ace63cddb23")],
                filter_after: "800010000003104a14000a810000080080888300900000000440e80042000028012200",
                merkleblock: "0100000075616236cc2126035fadb38deb65b9102cc2c41c09cdf29fc051906800000000fe7d5e12ef0ff901f6050211249919b1c0653771832b3a80c66cea42847f0ae1d4d26e49ffff001d00f0a4410400000004703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e95f9a06d3acdceb56be1bfeaa3e8a25e62d182fa24fefe899d1c17f1dad4c2028e2274e5fea1bf29d963914bd301aa63b64daaf8a3e88f119b5046ca5738a0f6b23dbcd63ce3a6607706d04b4d803e4846e8b34b6e0f29d10e4582134827e1d3c015f",
            },
        ],
    },
    Case {
        name: "merkle_block_3_and_serialize (bloom_tests.cpp:325)",
        block: "block_dab013",
        flags: 1,
        steps: &[
            Step {
                insert: &["b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f1963"],
                matched: &[(0, "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5")],
                filter_after: "0000004020000020004800000010000004000420500002900000800000020000000020",
                merkleblock: "0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d630100000001b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f19630101",
            },
        ],
    },
    Case {
        name: "merkle_block_4 (bloom_tests.cpp:361)",
        block: "block_b731f2",
        flags: 1,
        steps: &[
            Step {
                insert: &["54c10adf159bf118b8b2e629141ac6b5c69addf4ddea130a7d72a4bdf0922a0a"],
                matched: &[(6, "0a2a92f0bda4727d0a13eaddf4dd9ac6b5c61a1429e6b2b818f19b15df0ac154")],
                filter_after: "0420000040000140200400002100000011200100000000000000000080020000100080",
                merkleblock: "0100000082bb869cf3a793432a66e826e05a6fc37469f8efb7421dc880670100000000007f16c5962e8bd963659c793ce370d95f093bc7e367117b3c30c1f8fdd0d9728776381b4d4c86041b554b852907000000033612262624047ee87660be1a707519a443b1c1ce3d248cbfc6c15870f6c5daa2323a54ad9aa4ba42d1edfb9519af995cf93b736364f81a090885b61b6d7ee1ca54c10adf159bf118b8b2e629141ac6b5c69addf4ddea130a7d72a4bdf0922a0a0135",
            },
            Step {
                insert: &["41c05bdf71643267ded2cf037af2105a036621fcf46858bc1d48f052a01f9802"],
                matched: &[(3, "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041"), (6, "0a2a92f0bda4727d0a13eaddf4dd9ac6b5c61a1429e6b2b818f19b15df0ac154")],
                filter_after: "0421000040404140210400002100202211700100001010800000000280020480188080",
                merkleblock: "0100000082bb869cf3a793432a66e826e05a6fc37469f8efb7421dc880670100000000007f16c5962e8bd963659c793ce370d95f093bc7e367117b3c30c1f8fdd0d9728776381b4d4c86041b554b85290700000005ae88e8ea63033165d025594e07fd2c05b5d96731ec1a7fa69948899fe7e201338a92a3ea10b8c728a0b7e10b39b1b1e281d6489d5a3716f228268e815786734841c05bdf71643267ded2cf037af2105a036621fcf46858bc1d48f052a01f9802323a54ad9aa4ba42d1edfb9519af995cf93b736364f81a090885b61b6d7ee1ca54c10adf159bf118b8b2e629141ac6b5c69addf4ddea130a7d72a4bdf0922a0a026b03",
            },
        ],
    },
    Case {
        name: "merkle_block_4_test_p2pubkey_only (bloom_tests.cpp:409)",
        block: "block_b731f2",
        flags: 2,
        steps: &[
            Step {
                insert: &["04eaafc2314def4ca98ac970241bcab022b9c1e1f4ea423a20f134c876f2c01ec0f0dd5b2e86e7168cefe0d81113c3807420ce13ad1357231a2252247d97a46a91", "b6efd80d99179f4f4ff6f4dd0a007d018c385d21"],
                matched: &[(0, "147caa76786596590baa4e98f5d9f48b86c7765e489f7a6ff3360fe5c674360b"), (3, "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041")],
                filter_after: "4006c940088041008000050010d06020004a08050002802032180202012580c8001890",
                merkleblock: "0100000082bb869cf3a793432a66e826e05a6fc37469f8efb7421dc880670100000000007f16c5962e8bd963659c793ce370d95f093bc7e367117b3c30c1f8fdd0d9728776381b4d4c86041b554b852907000000050b3674c6e50f36f36f7a9f485e76c7868bf4d9f5984eaa0b5996657876aa7c14fdacf9b3eb077412e7a968d2e4f11b9a9dee312d666187ed77ee7d26af16cb0b8a92a3ea10b8c728a0b7e10b39b1b1e281d6489d5a3716f228268e815786734841c05bdf71643267ded2cf037af2105a036621fcf46858bc1d48f052a01f9802cfbc39264b50034b71abba2d4eb0220ad66bf8ffde47d42b32b199accbdca73902af00",
            },
        ],
    },
    Case {
        name: "merkle_block_4_test_update_none (bloom_tests.cpp:434)",
        block: "block_b731f2",
        flags: 0,
        steps: &[
            Step {
                insert: &["04eaafc2314def4ca98ac970241bcab022b9c1e1f4ea423a20f134c876f2c01ec0f0dd5b2e86e7168cefe0d81113c3807420ce13ad1357231a2252247d97a46a91", "b6efd80d99179f4f4ff6f4dd0a007d018c385d21"],
                matched: &[(0, "147caa76786596590baa4e98f5d9f48b86c7765e489f7a6ff3360fe5c674360b"), (3, "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041")],
                filter_after: "4006c900088040000000050000402000004800040002800032100200010580c8001810",
                merkleblock: "0100000082bb869cf3a793432a66e826e05a6fc37469f8efb7421dc880670100000000007f16c5962e8bd963659c793ce370d95f093bc7e367117b3c30c1f8fdd0d9728776381b4d4c86041b554b852907000000050b3674c6e50f36f36f7a9f485e76c7868bf4d9f5984eaa0b5996657876aa7c14fdacf9b3eb077412e7a968d2e4f11b9a9dee312d666187ed77ee7d26af16cb0b8a92a3ea10b8c728a0b7e10b39b1b1e281d6489d5a3716f228268e815786734841c05bdf71643267ded2cf037af2105a036621fcf46858bc1d48f052a01f9802cfbc39264b50034b71abba2d4eb0220ad66bf8ffde47d42b32b199accbdca73902af00",
            },
        ],
    },
];

fn block(name: &str) -> Block {
    Block::decode(&source(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn core_blocks_decode_and_hash_to_their_roots() {
    for (name, txs) in [
        ("block_13b8a", 9),
        ("block_5a4ded", 4),
        ("block_dab013", 1),
        ("block_b731f2", 7),
    ] {
        let b = block(name);
        assert_eq!(b.transactions.len(), txs, "{name}");
        assert_eq!(
            b.computed_merkle_root(),
            Some(b.header.merkle_root),
            "{name}"
        );
        assert_eq!(b.encode(), source(name), "{name}");
    }
    assert_eq!(
        block("block_13b8a").header.hash(),
        display("0000000000013b8ab2cd513b0261a14096412195a72a0c4827d229dcc7e0f7af")
    );
}

#[test]
fn every_core_merkle_block_case() {
    for case in CASES {
        let b = block(case.block);
        let mut filter = core_filter(case.flags);
        for (i, step) in case.steps.iter().enumerate() {
            let at = format!("{} step {i}", case.name);
            for element in step.insert {
                filter.insert(&hex(element));
            }
            let mb = MerkleBlock::from_filter(&b, &mut filter).expect(&at);
            let matched: Vec<(u32, [u8; 32])> =
                mb.matched.iter().map(|m| (m.index, m.txid)).collect();
            let expected: Vec<(u32, [u8; 32])> = step
                .matched
                .iter()
                .map(|&(index, txid)| (index, display(txid)))
                .collect();
            assert_eq!(matched, expected, "{at}: matched");
            assert_eq!(filter.data(), hex(step.filter_after), "{at}: filter after");
            assert_eq!(mb.encode(), hex(step.merkleblock), "{at}: merkleblock");
            let extracted = mb.tree.extract_matches().expect(&at);
            assert_eq!(extracted.root, b.header.merkle_root, "{at}: root");
            assert_eq!(extracted.matches, mb.matched, "{at}: extracted");
        }
    }
}

#[test]
fn p2pubkey_only_inserts_the_p2pk_outpoint_but_not_the_p2pkh_one() {
    // bloom_tests.cpp:428-431 and :453-456.
    let p2pk = hex("0b3674c6e50f36f36f7a9f485e76c7868bf4d9f5984eaa0b5996657876aa7c1400000000");
    let p2pkh = hex("41c05bdf71643267ded2cf037af2105a036621fcf46858bc1d48f052a01f980200000000");
    for (case, holds_p2pk) in [(&CASES[5], true), (&CASES[6], false)] {
        let mut filter = core_filter(case.flags);
        for element in case.steps[0].insert {
            filter.insert(&hex(element));
        }
        MerkleBlock::from_filter(&block(case.block), &mut filter).expect(case.name);
        assert_eq!(filter.contains(&p2pk), holds_p2pk, "{}", case.name);
        assert!(!filter.contains(&p2pkh), "{}", case.name);
    }
}

#[test]
fn merkle_block_3_bytes_are_cores() {
    // bloom_tests.cpp:346-352 compares the serialization byte for byte.
    let expected = "0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d630100000001b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f19630101";
    assert_eq!(CASES[3].steps[0].merkleblock, expected);
    let (header, tree) = MerkleBlock::decode(&hex(expected)).unwrap();
    assert_eq!(header, block("block_dab013").header);
    assert_eq!(tree.encode(), hex(&expected[160..]));
}

#[test]
fn merkleblock_from_txids() {
    // merkleblock_tests.cpp:20: found, in tree order, with an empty vMatchedTxn.
    let b = block("block_13b8a");
    let wanted = [
        display("74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20"),
        display("f9fc751cb7dc372406a9f8d738d5e6f8f63bab71986a39cf36ee70ee17036d07"),
    ];
    let mb = MerkleBlock::from_txids(&b, &wanted).unwrap();
    assert!(mb.matched.is_empty());
    // The bytes agree with the independent model's.
    assert_eq!(mb.encode(), hex("0100000090f0a9f110702f808219ebea1173056042a714bad51b916cb6800000000000005275289558f51c9966699404ae2294730c3c9f9bda53523ce50e9b95e558da2fdb261b4d4c86041b1ab1bf930900000005a3f3ac605d5e4727f4ea72e9346a5d586f0231460fd52ad9895bc8240d871def076d0317ee70ee36cf396a9871ab3bf6f8e6d538d7f8a9062437dcb71c75fcf9522db339c186c1149843a4848990e6ddb9a6065f4bc1422af53f4bc86f1b084a89189ff0316cdc10511da71da757e553cada9f3b5b1434f3923673adb57d83ca201f4587ec86b58297edc2dd32d6fcd998aa794308aac802a8af3be0e081d674022f0f"));
    let extracted = mb.tree.extract_matches().unwrap();
    assert_eq!(extracted.root, b.header.merkle_root);
    let found: Vec<(u32, [u8; 32])> = extracted
        .matches
        .iter()
        .map(|m| (m.index, m.txid))
        .collect();
    assert_eq!(found, vec![(1, wanted[1]), (8, wanted[0])]);
    // merkleblock_tests.cpp:61: a txid not in the block matches nothing; the root still holds.
    let absent = display("c0ffee00003bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20");
    let mb = MerkleBlock::from_txids(&b, &[absent]).unwrap();
    let extracted = mb.tree.extract_matches().unwrap();
    assert_eq!(extracted.root, b.header.merkle_root);
    assert!(extracted.matches.is_empty());
}

#[test]
fn pmt_malleability_is_refused() {
    // pmt_tests.cpp:111: txids 1..10, 9, 10 with matches at positions 9 and 10.
    let txids: Vec<[u8; 32]> = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 10]
        .iter()
        .map(|&v| {
            let mut id = [0u8; 32];
            id[0] = v;
            id
        })
        .collect();
    let matches: Vec<bool> = (0..12).map(|i| i == 9 || i == 10).collect();
    let tree = PartialMerkleTree::build(&txids, &matches).unwrap();
    assert_eq!(tree.encode(), hex("0c00000005e352ba096de9edc60201240d4183daa732bb965e0ec663827aea331920514f1f09000000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000000000009000000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000000000002dd01"));
    let decoded = PartialMerkleTree::decode(&tree.encode()).unwrap();
    assert!(matches!(
        decoded.extract_matches(),
        Err(ExtractError::IdenticalSiblings { .. })
    ));
}
