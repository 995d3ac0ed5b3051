//! What the reference says a node must send for a filtered-block request, and the comparison
//! with what the node sent.
//!
//! The answer to `getdata(MSG_FILTERED_BLOCK)` is a `merkleblock` (Core's `CMerkleBlock` of the
//! block for the peer's filter) followed by one `tx` per matched transaction, in block order,
//! serialized without witness. The filter is updated while the block is evaluated (nFlags 1
//! and 2), so the prediction takes the filter by `&mut` and keeps the updates, as the node does.

use super::chain::MinedBlock;
use super::message::Message;
use super::peer::Reply;
use bip37_reference::{BloomFilter, MerkleBlock};

/// The messages the reference predicts and the indexes (in block order) of the transactions
/// it says match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prediction {
    pub messages: Vec<Message>,
    pub matched: Vec<usize>,
}

/// The reference's answer to a filtered-block request for `mined` under `filter`.
pub fn predict(filter: &mut BloomFilter, mined: &MinedBlock) -> Result<Prediction, String> {
    let merkle = MerkleBlock::from_filter(&mined.block, filter)
        .map_err(|e| format!("the reference cannot build the merkleblock: {e:?}"))?;
    let mut messages = vec![Message::new("merkleblock", merkle.encode())];
    let mut matched = Vec::with_capacity(merkle.matched.len());
    for m in &merkle.matched {
        let index = m.index as usize;
        matched.push(index);
        messages.push(Message::new(
            "tx",
            mined.block.transactions[index].encode_without_witness(),
        ));
    }
    Ok(Prediction { messages, matched })
}

/// The indexes (in block order) of the transactions the node sent, matched by txid.
pub fn node_matched(mined: &MinedBlock, reply: &Reply) -> Vec<usize> {
    let Reply::Answered(messages) = reply else {
        return Vec::new();
    };
    let txids = mined.block.txids();
    messages
        .iter()
        .filter(|m| m.command == "tx")
        .filter_map(|m| {
            let txid = bip37_reference::sha256::sha256d(&m.payload);
            txids.iter().position(|t| *t == txid)
        })
        .collect()
}

/// The most payload bytes shown in a difference (the first bytes carry the header, the
/// transaction count and the first hashes: where two merkleblocks usually part).
const SHOWN_BYTES: usize = 120;

/// A payload as hex, cut after [`SHOWN_BYTES`] with its full length said.
fn shown(payload: &[u8]) -> String {
    match payload.len() {
        n if n > SHOWN_BYTES => format!(
            "{}... ({n} bytes)",
            bip37_harness::hex::encode(&payload[..SHOWN_BYTES])
        ),
        _ => bip37_harness::hex::encode(payload),
    }
}

/// The first difference between the node's reply and the prediction, if any.
pub fn difference(prediction: &Prediction, reply: &Reply) -> Option<String> {
    let messages = match reply {
        Reply::Disconnected => return Some("the node disconnected instead of answering".into()),
        Reply::Answered(m) => m,
    };
    for (i, expected) in prediction.messages.iter().enumerate() {
        match messages.get(i) {
            None => {
                return Some(format!(
                    "message {i}: the node sent nothing, the reference predicts `{}` {}",
                    expected.command,
                    shown(&expected.payload)
                ))
            }
            Some(got) if got != expected => {
                return Some(format!(
                    "message {i}: the node sent `{}` {}, the reference predicts `{}` {}",
                    got.command,
                    shown(&got.payload),
                    expected.command,
                    shown(&expected.payload)
                ))
            }
            Some(_) => {}
        }
    }
    messages.get(prediction.messages.len()).map(|extra| {
        format!(
            "message {}: the node sent an extra `{}` {}",
            prediction.messages.len(),
            extra.command,
            shown(&extra.payload)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_reference::tx::{MutableTransaction, OutPoint, Transaction, TxIn, TxOut};
    use bip37_reference::{Block, BlockHeader};

    fn block_with_pushes(pushes: &[&[u8]]) -> MinedBlock {
        let transactions: Vec<Transaction> = pushes
            .iter()
            .enumerate()
            .map(|(i, data)| {
                Transaction::from(MutableTransaction {
                    version: 1,
                    inputs: vec![TxIn {
                        prevout: OutPoint {
                            txid: [i as u8 + 1; 32],
                            vout: 0,
                        },
                        script_sig: vec![],
                        sequence: u32::MAX,
                        witness: vec![],
                    }],
                    outputs: vec![TxOut {
                        value: 1,
                        script_pubkey: super::super::chain::carrier_script(data),
                    }],
                    lock_time: 0,
                })
            })
            .collect();
        let block = Block {
            header: BlockHeader {
                version: 1,
                prev_block: [0; 32],
                merkle_root: [0; 32],
                time: 0,
                bits: 0x207fffff,
                nonce: 0,
            },
            transactions,
        };
        MinedBlock {
            hash: block.header.hash(),
            block,
        }
    }

    #[test]
    fn prediction_lists_the_matched_transaction_after_the_merkleblock() {
        let mined = block_with_pushes(&[b"first element", b"second element"]);
        let mut filter = BloomFilter::with_size(64, 10, 0, 0).unwrap();
        filter.insert(b"second element");
        let prediction = predict(&mut filter, &mined).unwrap();
        assert_eq!(prediction.matched, vec![1]);
        assert_eq!(prediction.messages.len(), 2);
        assert_eq!(prediction.messages[0].command, "merkleblock");
        let reply = Reply::Answered(prediction.messages.clone());
        assert_eq!(difference(&prediction, &reply), None);
        assert_eq!(node_matched(&mined, &reply), vec![1]);
    }

    #[test]
    fn a_missing_or_extra_or_changed_message_is_a_difference() {
        let mined = block_with_pushes(&[b"first element"]);
        let mut filter = BloomFilter::with_size(64, 10, 0, 0).unwrap();
        filter.insert(b"first element");
        let prediction = predict(&mut filter, &mined).unwrap();
        let short = Reply::Answered(prediction.messages[..1].to_vec());
        assert!(difference(&prediction, &short)
            .unwrap()
            .contains("sent nothing"));
        let mut longer = prediction.messages.clone();
        longer.push(Message::new("tx", vec![0]));
        assert!(difference(&prediction, &Reply::Answered(longer))
            .unwrap()
            .contains("extra"));
        let mut changed = prediction.messages.clone();
        changed[0].payload[0] ^= 1;
        assert!(difference(&prediction, &Reply::Answered(changed)).is_some());
        assert!(difference(&prediction, &Reply::Disconnected).is_some());
    }

    #[test]
    fn long_payloads_are_cut_with_their_length() {
        assert_eq!(shown(&[0xab; 2]), "abab");
        let text = shown(&[0; 500]);
        assert!(text.ends_with("... (500 bytes)"));
        assert_eq!(text.len(), 2 * SHOWN_BYTES + " ... (500 bytes)".len() - 1);
    }
}
