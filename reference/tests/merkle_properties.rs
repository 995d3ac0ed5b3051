//! Properties of merkle blocks over random blocks and filters: the tree built for a block
//! always extracts back exactly the transactions that matched, in block order, and the
//! block's merkle root; a changed hash changes the root; the decoders never panic.

use bip37_reference::block::merkle_root;
use bip37_reference::tx::{OutPoint, TxIn, TxOut};
use bip37_reference::{
    Block, BlockHeader, BloomFilter, MerkleBlock, MutableTransaction, PartialMerkleTree,
    Transaction,
};
use proptest::prelude::*;

/// A transaction spending `prevout` to one push of `element` (so filters can target it).
fn tx(prevout: OutPoint, element: Vec<u8>, lock_time: u32) -> Transaction {
    let mut script_pubkey = vec![element.len() as u8];
    script_pubkey.extend_from_slice(&element);
    Transaction::from(MutableTransaction {
        version: 1,
        inputs: vec![TxIn {
            prevout,
            script_sig: Vec::new(),
            sequence: u32::MAX,
            witness: Vec::new(),
        }],
        outputs: vec![TxOut {
            value: 1,
            script_pubkey,
        }],
        lock_time,
    })
}

/// A block of transactions, each spending either an unrelated outpoint or an earlier
/// transaction of the block, so UPDATE_ALL chains are exercised.
fn block_strategy() -> impl Strategy<Value = Block> {
    prop::collection::vec(
        (
            prop::collection::vec(any::<u8>(), 1..8),
            any::<Option<prop::sample::Index>>(),
        ),
        1..48,
    )
    .prop_map(|specs| {
        let mut transactions: Vec<Transaction> = Vec::new();
        for (i, (element, parent)) in specs.into_iter().enumerate() {
            let prevout = match (parent, transactions.is_empty()) {
                (Some(p), false) => OutPoint {
                    txid: transactions[p.index(transactions.len())].txid(),
                    vout: 0,
                },
                _ => OutPoint::NULL,
            };
            transactions.push(tx(prevout, element, i as u32));
        }
        let merkle_root = merkle_root(
            &transactions
                .iter()
                .map(Transaction::txid)
                .collect::<Vec<_>>(),
        )
        .expect("at least one transaction");
        Block {
            header: BlockHeader {
                version: 1,
                prev_block: [0; 32],
                merkle_root,
                time: 0,
                bits: 0,
                nonce: 0,
            },
            transactions,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn merkle_block_yields_back_the_matches_and_the_root(
        block in block_strategy(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        flags in 0u8..4,
    ) {
        let mut filter = BloomFilter::new(8, 0.0001, 7, flags).unwrap();
        for pick in &picks {
            let tx = &block.transactions[pick.index(block.transactions.len())];
            filter.insert(&tx.outputs[0].script_pubkey[1..]);
        }
        let mb = MerkleBlock::from_filter(&block, &mut filter).unwrap();
        let (header, tree) = MerkleBlock::decode(&mb.encode()).unwrap();
        prop_assert_eq!(header, block.header);
        let extracted = tree.extract_matches().unwrap();
        prop_assert_eq!(extracted.root, block.header.merkle_root);
        prop_assert_eq!(&extracted.matches, &mb.matched);
        for m in &mb.matched {
            prop_assert_eq!(m.txid, block.transactions[m.index as usize].txid());
        }
    }

    #[test]
    fn any_match_set_roundtrips_and_every_hash_is_bound(
        n in 1usize..130,
        seed in any::<u64>(),
        density in 0u32..5,
    ) {
        let txids: Vec<[u8; 32]> = (0..n as u64)
            .map(|i| bip37_reference::sha256::sha256(&(seed ^ i).to_le_bytes()))
            .collect();
        let matches: Vec<bool> = txids.iter().map(|id| u32::from(id[0]) % 8 < density).collect();
        let tree = PartialMerkleTree::build(&txids, &matches).unwrap();
        let decoded = PartialMerkleTree::decode(&tree.encode()).unwrap();
        let extracted = decoded.extract_matches().unwrap();
        prop_assert_eq!(Some(extracted.root), merkle_root(&txids));
        let expected: Vec<u32> = (0..n as u32).filter(|&i| matches[i as usize]).collect();
        let got: Vec<u32> = extracted.matches.iter().map(|m| m.index).collect();
        prop_assert_eq!(got, expected);
        let count = decoded.hashes.len();
        for i in [0, count / 3, count / 2, count - 1] {
            let mut flipped = decoded.clone();
            flipped.hashes[i][31] ^= 1;
            prop_assert_ne!(flipped.extract_matches().map(|e| e.root), Ok(extracted.root));
        }
    }

    #[test]
    fn decoders_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = Transaction::decode(&bytes);
        let _ = Block::decode(&bytes);
        if let Ok(tree) = PartialMerkleTree::decode(&bytes) {
            let _ = tree.extract_matches();
        }
        let _ = MerkleBlock::decode(&bytes);
    }
}
