//! hns-light-wallet (Handshake's light-wallet crate, pinned in Cargo.toml) behind the suite's
//! [`Implementation`] trait, so the suite checks it in-process (`tests/suite.rs`) and over the
//! subprocess protocol (the `bip37-hns-light-wallet` binary).
//!
//! Its `HsdBloomFilter` is BIP 37's filter as HSD (a bcoin fork) builds it: Core's seeds over its
//! own MurmurHash3 (private), `from_rate` sizing, explicit sizes, insert, query, the
//! `filterload` payload (`encode`) and a strict decoder that applies the node's limits
//! (`decode_strict`, so `filterloadAccept`; it has no decoder without limits). It has no
//! `filteradd` decoder, no bit-index call and no transaction matching, and Handshake's merkle
//! trees are not Bitcoin's: those operations are unsupported. Every answer is what the library
//! does, never adjusted towards Core: where it differs, `expectations.toml` says why.

use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Implementation, Stage};
use bip37_harness::ops::*;
use hns_light_wallet::{BloomError, BloomUpdate, HsdBloomFilter};

/// hns-light-wallet as an implementation under test.
#[derive(Debug, Default, Clone, Copy)]
pub struct HnsLightWallet;

impl Implementation for HnsLightWallet {
    fn name(&self) -> String {
        "hns-light-wallet".to_string()
    }

    fn version(&self) -> String {
        // The exact pin of Cargo.toml.
        "0.2.7".to_string()
    }

    fn notes(&self) -> Option<String> {
        Some(
            "HSD's filter: sizing is from_rate(n, p, tweak, flags); filterloadAccept is \
             decode_strict; loaded filters are decode_strict of their filterload payload"
                .to_string(),
        )
    }

    fn operations(&self) -> Vec<OpName> {
        vec![
            OpName::Sizing,
            OpName::BuildFilter,
            OpName::FilterloadAccept,
        ]
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        match from_rate(input.n_elements, input.fp_rate.0, 0, 0) {
            Ok(filter) => Answer::Ok(SizingOutput {
                filter_bytes: (filter.size_bits() / 8) as u32,
                hash_funcs: filter.hash_functions(),
            }),
            Err(e) => Answer::reject(Stage::Parameters, e),
        }
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        let mut filter = match set_up(&input.filter) {
            Ok(filter) => filter,
            Err(e) => return Answer::reject(Stage::Parameters, e),
        };
        for element in &input.insert {
            if let Err(e) = filter.insert(element) {
                return Answer::reject(Stage::Parameters, e);
            }
        }
        Answer::Ok(BuildFilterOutput {
            contains: input.queries.iter().map(|q| filter.contains(q)).collect(),
            filterload: Hex(filter.encode()),
        })
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        match HsdBloomFilter::decode_strict(&input.payload) {
            Ok(filter) => {
                // The filter's bytes are private; its own encoding carries them back.
                let payload = filter.encode();
                let data_start = payload.len() - 9 - filter.size_bits() / 8;
                Answer::Ok(FilterloadOutput {
                    data: Hex(payload[data_start..payload.len() - 9].to_vec()),
                    hash_funcs: filter.hash_functions(),
                    tweak: filter.tweak(),
                    flags: filter.update() as u8,
                })
            }
            Err(e) => Answer::reject(Stage::Decode, e),
        }
    }
}

fn from_rate(n: u32, p: f64, tweak: u32, flags: u8) -> Result<HsdBloomFilter, BloomError> {
    HsdBloomFilter::from_rate(n as usize, p, tweak, BloomUpdate::try_from(flags)?)
}

/// The library's filter for a test's set-up: `from_rate`, `new` from the bit count, or
/// `decode_strict` of the `filterload` payload of a loaded filter.
fn set_up(init: &FilterInit) -> Result<HsdBloomFilter, BloomError> {
    match init {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            tweak,
            flags,
        } => from_rate(*n_elements, fp_rate.0, *tweak, *flags),
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            tweak,
            flags,
        } => HsdBloomFilter::new(
            *filter_bytes as usize * 8,
            *hash_funcs,
            *tweak,
            BloomUpdate::try_from(*flags)?,
        ),
        FilterInit::Loaded {
            data,
            hash_funcs,
            tweak,
            flags,
        } => {
            let mut payload = Vec::with_capacity(data.len() + 18);
            bip37_reference::compact_size::write(&mut payload, data.len() as u64);
            payload.extend_from_slice(data);
            payload.extend_from_slice(&hash_funcs.to_le_bytes());
            payload.extend_from_slice(&tweak.to_le_bytes());
            payload.push(*flags);
            HsdBloomFilter::decode_strict(&payload)
        }
    }
}
