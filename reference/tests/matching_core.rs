//! Core's `bloom_match` test (src/test/bloom_tests.cpp:102 at d861c382): twelve one-element
//! filters against one transaction, and the spending transaction that matches only through
//! the outpoint the output match inserted. The cases are read from `vectors/sources/core.json`.

mod core_support;

use bip37_reference::flags::BLOOM_UPDATE_ALL;
use bip37_reference::Transaction;
use core_support::{bytes, core, core_filter, display, list, source, text};

fn transactions() -> (Transaction, Transaction) {
    let tx = Transaction::decode(&source("bloom_match_tx")).expect("Core's tx decodes");
    let spending =
        Transaction::decode(&source("bloom_match_spending_tx")).expect("Core's spender decodes");
    (tx, spending)
}

#[test]
fn txids_are_the_ones_core_prints() {
    let (tx, spending) = transactions();
    let txs = &core()["transactions"];
    assert_eq!(tx.txid(), display(text(&txs["tx"]["txid_display"])));
    assert_eq!(
        spending.txid(),
        display(text(&txs["spendingTx"]["txid_display"]))
    );
    assert_eq!(Transaction::decode(&tx.encode()), Ok(tx));
}

#[test]
fn every_bloom_match_case() {
    let (tx, spending) = transactions();
    let cases = list(&core()["bloom_match"]["cases"]);
    assert_eq!(cases.len(), 12);
    for case in cases {
        let at = text(&case["source"]);
        let mut filter = core_filter(BLOOM_UPDATE_ALL);
        filter.insert(&bytes(&case["element_hex"]));
        assert_eq!(
            filter.is_relevant_and_update(&tx),
            case["expect_match"].as_bool().expect("expect_match"),
            "{at}"
        );
        if let Some(then) = case.get("then") {
            // The same filter now holds outpoint (tx, 0).
            assert_eq!(text(&then["tx"]), "spendingTx");
            assert!(filter.is_relevant_and_update(&spending), "{at} then");
        }
    }
}

#[test]
fn the_spender_does_not_match_a_fresh_filter_for_the_output() {
    let (_, spending) = transactions();
    let cases = list(&core()["bloom_match"]["cases"]);
    let output_case = cases
        .iter()
        .find(|c| c.get("then").is_some())
        .expect("the case that follows with the spender");
    let mut filter = core_filter(BLOOM_UPDATE_ALL);
    filter.insert(&bytes(&output_case["element_hex"]));
    assert!(!filter.is_relevant_and_update(&spending));
}
