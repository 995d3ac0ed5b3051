//! Mutants: the reference implementation with exactly one classic mistake each, built in so
//! the suite can prove it catches every bug class (a mutant no vector fails "survives") and so
//! a failing implementation can be diagnosed by which mutant answers like it.
//!
//! One engine serves every mutant: the operations below compute what `bip37-reference`
//! computes, through switch points ([`hashing`], [`sizing`], [`filter`], [`wire`],
//! [`matching`], [`merkle`], [`session`]) where the
//! mistake named by a [`Bug`] is made. Everything a bug does not touch is the reference's own
//! code. The registry is [`all`]; `mutant:<name>` selects one by [`Bug::name`].

pub mod bug;
pub mod filter;
pub mod hashing;
pub mod matching;
pub mod merkle;
pub mod murmur;
pub mod session;
pub mod sizing;
pub mod wire;

pub use bug::Bug;

use crate::implementation::{Answer, Fault, Implementation, Stage};
use crate::ops::*;
use crate::reference_impl::{filterload_output, matched_txs, Reference};
use bip37_reference::block::Block;
use bip37_reference::pmt::PartialMerkleTree;
use bip37_reference::tx::Transaction;
use filter::MutantFilter;
use wire::WireFailure;

/// The reference with one mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mutant {
    pub bug: Bug,
}

/// Every mutant, one per bug class, in table order.
pub fn all() -> Vec<Mutant> {
    Bug::ALL.iter().map(|&bug| Mutant { bug }).collect()
}

/// The mutant called `name`.
pub fn by_name(name: &str) -> Option<Mutant> {
    Bug::ALL
        .iter()
        .find(|b| b.name() == name)
        .map(|&bug| Mutant { bug })
}

/// A rejection where a filter mistake stops an operation (the empty filter hashed into).
fn hashing_failed(e: filter::DivisionByZero) -> (Stage, String) {
    (Stage::Parameters, e.to_string())
}

/// The answer to a message operation: `then` of the decoded message, a decode rejection, or
/// the crash a mutant that trusts length prefixes runs into.
fn decoded<T, U>(result: Result<T, WireFailure>, then: impl FnOnce(T) -> Answer<U>) -> Answer<U> {
    match result {
        Ok(message) => then(message),
        Err(WireFailure::Decode(e)) => Answer::reject(Stage::Decode, e),
        Err(refused @ WireFailure::ZeroHashFuncs) => Answer::reject(Stage::Decode, refused),
        Err(crash) => Answer::Fault(Fault::Crash(crash.to_string())),
    }
}

/// The answer to an accept operation: the output, or the limit the message breaks.
fn limited<T, E: std::fmt::Display>(check: Result<(), E>, output: T) -> Answer<T> {
    match check {
        Ok(()) => Answer::Ok(output),
        Err(e) => Answer::reject(Stage::Limits, e),
    }
}

/// A decode rejection.
fn undecodable(e: impl std::fmt::Display) -> (Stage, String) {
    (Stage::Decode, e.to_string())
}

impl Mutant {
    /// The filter a test sets up, with its elements inserted.
    fn filter_with(
        &self,
        init: &FilterInit,
        insert: &[crate::hex::Hex],
    ) -> Result<MutantFilter, (Stage, String)> {
        let mut filter = MutantFilter::new(self.bug, init)?;
        for element in insert {
            filter.insert(element).map_err(hashing_failed)?;
        }
        Ok(filter)
    }
}

impl Implementation for Mutant {
    fn name(&self) -> String {
        format!("mutant:{}", self.bug.name())
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: hashing::mutant_murmur3(self.bug, u64::from(input.seed), &input.data),
        })
    }

    fn hash_seed(&mut self, input: &HashSeedInput) -> Answer<HashSeedOutput> {
        let seed = hashing::reported_seed(self.bug, input.hash_index, input.tweak);
        match u32::try_from(seed) {
            Ok(seed) => Answer::Ok(HashSeedOutput { seed }),
            // The answer a port that never wraps sends: the whole seed.
            Err(_) => crate::ops::wide::WideAnswer::from_json(
                OpName::HashSeed,
                &serde_json::json!({ "seed": seed }),
            )
            .map_or(
                Answer::reject(Stage::Parameters, "seed beyond 64 bits"),
                Answer::Wide,
            ),
        }
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        match sizing::mutant_size(self.bug, input.n_elements, input.fp_rate.0) {
            Err(undefined) => Answer::reject(Stage::Parameters, undefined),
            Ok(size) => Answer::Ok(SizingOutput {
                filter_bytes: size.filter_bytes,
                hash_funcs: size.hash_funcs,
            }),
        }
    }

    fn bit_indexes(&mut self, input: &BitIndexesInput) -> Answer<BitIndexesOutput> {
        MutantFilter::new(self.bug, &input.filter)
            .and_then(|f| f.bit_indexes(&input.element).map_err(hashing_failed))
            .map(|indexes| BitIndexesOutput { indexes })
            .into()
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        let build = || {
            let f = self.filter_with(&input.filter, &input.insert)?;
            let contains = input
                .queries
                .iter()
                .map(|q| f.contains(q))
                .collect::<Result<_, _>>()
                .map_err(hashing_failed)?;
            Ok(BuildFilterOutput {
                filterload: wire::encode_filterload(self.bug, f.fields()).into(),
                contains,
            })
        };
        build().into()
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        decoded(wire::decode_filterload(self.bug, &input.payload), |load| {
            Answer::Ok(filterload_output(load))
        })
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        decoded(wire::decode_filterload(self.bug, &input.payload), |load| {
            limited(
                wire::check_filterload_limits(self.bug, &load),
                filterload_output(load),
            )
        })
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        decoded(wire::decode_filteradd(self.bug, &input.payload), |add| {
            Answer::Ok(FilteraddOutput {
                data: add.data.into(),
            })
        })
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        decoded(wire::decode_filteradd(self.bug, &input.payload), |add| {
            limited(
                wire::check_filteradd_limits(self.bug, &add),
                FilteraddOutput {
                    data: add.data.into(),
                },
            )
        })
    }

    fn match_tx(&mut self, input: &MatchTxInput) -> Answer<MatchTxOutput> {
        let evaluate = || {
            let mut filter = self.filter_with(&input.filter, &input.insert)?;
            let mut matched = Vec::with_capacity(input.txs.len());
            for raw in &input.txs {
                let tx = Transaction::decode(raw).map_err(undecodable)?;
                matched.push(
                    matching::is_relevant_and_update(self.bug, &mut filter, &tx)
                        .map_err(hashing_failed)?,
                );
            }
            Ok(MatchTxOutput {
                matched,
                filter_data: filter.data().to_vec().into(),
            })
        };
        evaluate().into()
    }

    fn merkle_block(&mut self, input: &MerkleBlockInput) -> Answer<MerkleBlockOutput> {
        let build = || {
            let mut filter = self.filter_with(&input.filter, &input.insert)?;
            let block = Block::decode(&input.block).map_err(undecodable)?;
            merkle::merkle_block(self.bug, &block, &mut filter)
                .map_err(|e| (Stage::Validation, e.to_string()))
        };
        build().into()
    }

    fn pmt_build(&mut self, input: &PmtBuildInput) -> Answer<PmtBuildOutput> {
        Reference.pmt_build(input).map(|built| PmtBuildOutput {
            pmt: merkle::repacked(self.bug, &built.pmt).into(),
        })
    }

    fn pmt_extract(&mut self, input: &PmtExtractInput) -> Answer<PmtExtractOutput> {
        if !merkle::is_extraction_bug(self.bug) {
            return Reference.pmt_extract(&PmtExtractInput {
                pmt: merkle::repacked(self.bug, &input.pmt).into(),
            });
        }
        match PartialMerkleTree::decode(&input.pmt) {
            Err(e) => Answer::reject(Stage::Decode, e),
            Ok(tree) => match merkle::extract_matches(self.bug, &tree) {
                Err(invalid) => Answer::reject(Stage::Validation, invalid),
                Ok(found) => Answer::Ok(PmtExtractOutput {
                    root: found.root.to_vec().into(),
                    matched: matched_txs(&found.matches),
                }),
            },
        }
    }

    fn sequence(&mut self, input: &SequenceInput) -> Answer<SequenceOutput> {
        session::run(self.bug, &input.steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Hex;

    /// Requests built to break a careless decoder or filter: huge length claims, truncation,
    /// empty filters, oversize sizing, garbage transactions and trees.
    fn hostile() -> Vec<Request> {
        let empty = FilterInit::Loaded {
            data: Hex(Vec::new()),
            hash_funcs: 50,
            tweak: u32::MAX,
            flags: 0xff,
        };
        let payloads: [&[u8]; 5] = [
            &[],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            &[0xfe, 0xff, 0xff, 0xff, 0x01, 0xaa],
            &[0xfd, 0x00],
            &[0x03, 0xaa],
        ];
        let mut requests: Vec<Request> = payloads
            .iter()
            .flat_map(|p| {
                let input = PayloadInput {
                    payload: Hex(p.to_vec()),
                };
                [
                    Request::FilterloadAccept(input.clone()),
                    Request::FilteraddAccept(input),
                ]
            })
            .collect();
        requests.extend([
            Request::Sizing(SizingInput {
                n_elements: u32::MAX,
                fp_rate: FpRate(f64::MIN_POSITIVE),
            }),
            Request::BuildFilter(BuildFilterInput {
                filter: empty.clone(),
                insert: vec![Hex(vec![0; 600])],
                queries: vec![Hex(Vec::new())],
            }),
            Request::MatchTx(MatchTxInput {
                filter: empty,
                insert: Vec::new(),
                txs: vec![Hex(vec![1, 0, 0, 0, 0, 1])],
            }),
            Request::PmtExtract(PmtExtractInput {
                pmt: Hex([
                    &[0xff, 0xff, 0xff, 0xff, 0x01][..],
                    &[0xab; 32],
                    &[0x01, 0x01],
                ]
                .concat()),
            }),
        ]);
        requests
    }

    #[test]
    fn no_mutant_panics_on_hostile_input() {
        for mut mutant in all() {
            for request in hostile() {
                // An answer of any kind is fine; a panic fails the test.
                let _ = mutant.execute(&request);
            }
        }
    }

    #[test]
    fn names_select_their_mutant() {
        for mutant in all() {
            assert_eq!(by_name(mutant.bug.name()), Some(mutant));
        }
        assert_eq!(by_name("reference"), None);
    }
}
