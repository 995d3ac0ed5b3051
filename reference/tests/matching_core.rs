//! Core's `bloom_match` test (src/test/bloom_tests.cpp:102 at d861c382): twelve one-element
//! filters against one transaction, and the spending transaction that matches only through
//! the outpoint the output match inserted.

mod matching_support;

use bip37_reference::flags::BLOOM_UPDATE_ALL;
use bip37_reference::Transaction;
use matching_support::{core_filter, display, hex, source};

/// (bloom_tests.cpp line, element inserted, whether the transaction matches).
const CASES: [(u32, &str, bool); 12] = [
    (117, "6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4", true),
    (122, "6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4", true),
    (126, "30450220070aca44506c5cef3a16ed519d7c3c39f8aab192c4e1c90d065f37b8a4af6141022100a8e160b856c2d43d27d8fba71e5aef6405b8643ac4cb7cb3c462aced7f14711a01", true),
    (130, "046d11fee51b0e60666d5049a9101a72741df480b96ee26488a4d3466b95c9a40ac5eeef87e10a5cd336c19a84565f80fa6c547957b7700ff4dfbdefe76036c339", true),
    (134, "04943fdd508053c75000106d3bc6e2754dbcff19", true),
    (139, "a266436d2965547608b9e15d9032a7b9d64fa431", true),
    (143, "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19000000000", true),
    (147, "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19000000000", true),
    (157, "3604112b83ff15b943736458a67be0985bf4d4639784ef622ff384e709000000", false),
    (161, "0000006d2965547608b9e15d9032a7b9d64fa431", false),
    (165, "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19001000000", false),
    (169, "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d700000000000000", false),
];

fn transactions() -> (Transaction, Transaction) {
    let tx = Transaction::decode(&source("bloom_match_tx")).expect("Core's tx decodes");
    let spending =
        Transaction::decode(&source("bloom_match_spending_tx")).expect("Core's spender decodes");
    (tx, spending)
}

#[test]
fn txids_are_the_ones_core_prints() {
    let (tx, spending) = transactions();
    assert_eq!(
        tx.txid(),
        display("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b")
    );
    assert_eq!(
        spending.txid(),
        display("e2769b09e784f32f62ef849763d4f45b98e07ba658647343b915ff832b110436")
    );
    assert_eq!(Transaction::decode(&tx.encode()), Ok(tx));
}

#[test]
fn every_bloom_match_case() {
    let (tx, spending) = transactions();
    for (line, element, expected) in CASES {
        let mut filter = core_filter(BLOOM_UPDATE_ALL);
        filter.insert(&hex(element));
        assert_eq!(
            filter.is_relevant_and_update(&tx),
            expected,
            "bloom_tests.cpp:{line}"
        );
        if line == 134 {
            // bloom_tests.cpp:136: the same filter now holds outpoint (tx, 0).
            assert!(
                filter.is_relevant_and_update(&spending),
                "bloom_tests.cpp:136"
            );
        }
    }
}

#[test]
fn the_spender_does_not_match_a_fresh_filter_for_the_output() {
    let (_, spending) = transactions();
    let mut filter = core_filter(BLOOM_UPDATE_ALL);
    filter.insert(&hex("04943fdd508053c75000106d3bc6e2754dbcff19"));
    assert!(!filter.is_relevant_and_update(&spending));
}
