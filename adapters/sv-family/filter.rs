//! The filter of the rust-sv family (`util::BloomFilter` of `sv` and of its fork `nour`): its
//! constructor's sizing, and a filter set up, filled and queried through its public fields,
//! `add` and `contains`, then written as the library's `filterload` message. The including
//! crate's `api` module names the library.
//!
//! The constructor takes no tweak (it draws one at random) and the filter has no flags: a sized
//! filter gets the test's tweak through the public `tweak` field, and the flags travel in the
//! `FilterLoad` message, where the library keeps them.

use crate::api::{self, BloomFilter, FilterLoad, Serializable};
use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Stage};
use bip37_harness::ops::{
    BuildFilterInput, BuildFilterOutput, FilterInit, SizingInput, SizingOutput,
};

/// The library's filter size and hash function count for (n, p); parameters its constructor refuses
/// are rejected.
pub fn sizing(input: &SizingInput) -> Answer<SizingOutput> {
    match BloomFilter::new(f64::from(input.n_elements), input.fp_rate.0) {
        Ok(filter) => sized_output(&filter),
        Err(e) => Answer::reject(Stage::Parameters, e),
    }
}

fn sized_output(filter: &BloomFilter) -> Answer<SizingOutput> {
    match (
        u32::try_from(filter.filter.len()),
        u32::try_from(filter.num_hash_funcs),
    ) {
        (Ok(filter_bytes), Ok(hash_funcs)) => Answer::Ok(SizingOutput {
            filter_bytes,
            hash_funcs,
        }),
        _ => Answer::reject(
            Stage::Parameters,
            format!(
                "sized {} bytes and {} hash functions, beyond 32 bits",
                filter.filter.len(),
                filter.num_hash_funcs
            ),
        ),
    }
}

/// The filter of `input.filter`, with `input.insert` added, written as a `filterload` payload
/// and asked about each of `input.queries`. An element the library's `add` refuses is a
/// rejection.
pub fn build(input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
    let (mut filter, flags) = match set_up(&input.filter) {
        Ok(set_up) => set_up,
        Err(e) => return Answer::reject(Stage::Parameters, e),
    };
    for element in &input.insert {
        if let Err(e) = api::add(&mut filter, element) {
            return Answer::reject(Stage::Parameters, e);
        }
    }
    let contains = input.queries.iter().map(|q| filter.contains(q)).collect();
    let message = FilterLoad {
        bloom_filter: filter,
        flags,
    };
    let mut filterload = Vec::new();
    if let Err(e) = message.write(&mut filterload) {
        return Answer::reject(Stage::Parameters, e);
    }
    Answer::Ok(BuildFilterOutput {
        filterload: Hex(filterload),
        contains,
    })
}

/// The library's filter for a test's set-up, and the flags its `filterload` carries.
fn set_up(init: &FilterInit) -> Result<(BloomFilter, u8), api::Error> {
    Ok(match init {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            tweak,
            flags,
        } => {
            let mut filter = BloomFilter::new(f64::from(*n_elements), fp_rate.0)?;
            filter.tweak = *tweak;
            (filter, *flags)
        }
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        } => (
            BloomFilter {
                filter: vec![0; *filter_bytes as usize],
                num_hash_funcs: *hash_funcs as usize,
                tweak: *tweak,
            },
            *flags,
        ),
        FilterInit::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => (
            BloomFilter {
                filter: data.0.clone(),
                num_hash_funcs: *hash_funcs as usize,
                tweak: *tweak,
            },
            *flags,
        ),
    })
}
