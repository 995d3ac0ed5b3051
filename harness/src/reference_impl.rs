//! The built-in reference implementation (`--builtin reference`): the trait answered by
//! `bip37-reference`, the oracle every vector is checked against.

use crate::implementation::{Answer, Implementation, Stage};
use crate::ops::*;
use bip37_reference::{murmur3, size_for, BloomFilter, FilterAdd, FilterLoad};

/// `bip37-reference` behind the [`Implementation`] trait.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reference;

/// Sets up the filter a test describes.
pub fn init_filter(init: &FilterInit) -> Result<BloomFilter, (Stage, String)> {
    match init {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            tweak,
            flags,
        } => BloomFilter::new(*n_elements, fp_rate.0, *tweak, *flags)
            .map_err(|e| (Stage::Parameters, e.to_string())),
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        } => BloomFilter::with_size(u64::from(*filter_bytes), *hash_funcs, *tweak, *flags)
            .map_err(|e| (Stage::Parameters, e.to_string())),
        FilterInit::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => Ok(BloomFilter::from_parts(
            data.0.clone(),
            *hash_funcs,
            *tweak,
            *flags,
        )),
    }
}

fn filterload_output(load: FilterLoad) -> FilterloadOutput {
    FilterloadOutput {
        data: load.data.into(),
        hash_funcs: load.hash_funcs,
        tweak: load.tweak,
        flags: load.flags,
    }
}

impl Implementation for Reference {
    fn name(&self) -> String {
        "reference".into()
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: murmur3(input.seed, &input.data),
        })
    }

    fn hash_seed(&mut self, input: &HashSeedInput) -> Answer<HashSeedOutput> {
        Answer::Ok(HashSeedOutput {
            seed: bip37_reference::hash_seed(input.hash_index, input.tweak),
        })
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        size_for(input.n_elements, input.fp_rate.0)
            .map(|s| SizingOutput {
                filter_bytes: s.filter_bytes,
                hash_funcs: s.hash_funcs,
            })
            .map_err(|e| (Stage::Parameters, e))
            .into()
    }

    fn bit_indexes(&mut self, input: &BitIndexesInput) -> Answer<BitIndexesOutput> {
        init_filter(&input.filter)
            .map(|f| BitIndexesOutput {
                indexes: f.bit_indexes(&input.element),
            })
            .into()
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        init_filter(&input.filter)
            .map(|mut f| {
                for element in &input.insert {
                    f.insert(element);
                }
                BuildFilterOutput {
                    filterload: FilterLoad::from(&f).encode().into(),
                    contains: input.queries.iter().map(|q| f.contains(q)).collect(),
                }
            })
            .into()
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        FilterLoad::decode(&input.payload)
            .map(filterload_output)
            .map_err(|e| (Stage::Decode, e))
            .into()
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        let load = match FilterLoad::decode(&input.payload) {
            Ok(load) => load,
            Err(e) => return Answer::reject(Stage::Decode, e),
        };
        match load.check_limits() {
            Ok(()) => Answer::Ok(filterload_output(load)),
            Err(e) => Answer::reject(Stage::Limits, e),
        }
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        FilterAdd::decode(&input.payload)
            .map(|add| FilteraddOutput {
                data: add.data.into(),
            })
            .map_err(|e| (Stage::Decode, e))
            .into()
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        let add = match FilterAdd::decode(&input.payload) {
            Ok(add) => add,
            Err(e) => return Answer::reject(Stage::Decode, e),
        };
        match add.check_limits() {
            Ok(()) => Answer::Ok(FilteraddOutput {
                data: add.data.into(),
            }),
            Err(e) => Answer::reject(Stage::Limits, e),
        }
    }
}
