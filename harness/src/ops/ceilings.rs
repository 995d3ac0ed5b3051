//! The work ceilings of a request, checked when it is decoded (from a vector file or a `serve`
//! request line) and before anything is computed, so no input makes the reference, a mutant or
//! the diagnosis work without bound.
//!
//! A filter may have at most 288,000 bytes and 1,000 hash functions (`bip37_reference::ceilings`:
//! room to test a missing 36,000-byte or 50-function limit); a request may list at most
//! [`MAX_ELEMENTS`] elements, [`MAX_TRANSACTIONS`] transactions or txids and [`MAX_STEPS`]
//! session steps; and the bytes it hashes, times the hash function count, may not exceed
//! [`MAX_HASHED_BYTES`] (about a second of hashing).

use super::{FieldError, FilterInit, Request};
use crate::hex::Hex;
use bip37_reference::ceilings::{self, MAX_BUILT_HASH_FUNCS};

/// The most elements (inserted and queried) in one request.
pub const MAX_ELEMENTS: usize = 100_000;
/// The most transactions, txids or match flags in one request (Core's largest block holds
/// fewer than 70,000).
pub const MAX_TRANSACTIONS: usize = 100_000;
/// The most steps in one `sequence`.
pub const MAX_STEPS: usize = 10_000;
/// The most bytes one request may hash, counted as the bytes it hands to the filter (each
/// element or transaction counted 16 bytes more) times the hash function count: the explicit
/// count of an explicit or loaded filter, otherwise the ceiling of 1,000, which a mutant
/// without Core's caps may reach through a sized filter or a session's `filterload`.
pub const MAX_HASHED_BYTES: u64 = 1 << 30;

impl Request {
    /// Refuses a request beyond the ceilings, naming the field.
    pub fn check_ceilings(&self) -> Result<(), FieldError> {
        match self {
            Request::BitIndexes(i) => hashing(&i.filter, [&i.element].into_iter()),
            Request::BuildFilter(i) => {
                count("insert", i.insert.len() + i.queries.len(), MAX_ELEMENTS)?;
                hashing(&i.filter, i.insert.iter().chain(&i.queries))
            }
            Request::MatchTx(i) => {
                count("insert", i.insert.len(), MAX_ELEMENTS)?;
                count("txs", i.txs.len(), MAX_TRANSACTIONS)?;
                hashing(&i.filter, i.insert.iter().chain(&i.txs))
            }
            Request::MerkleBlock(i) => {
                count("insert", i.insert.len(), MAX_ELEMENTS)?;
                hashing(&i.filter, i.insert.iter().chain([&i.block]))
            }
            Request::PmtBuild(i) => {
                count("txids", i.txids.len(), MAX_TRANSACTIONS)?;
                count("matches", i.matches.len(), MAX_TRANSACTIONS)
            }
            Request::Sequence(i) => {
                count("steps", i.steps.len(), MAX_STEPS)?;
                let bytes = i.steps.iter().map(|s| step_bytes(s) + 16).sum();
                budget(bytes, MAX_BUILT_HASH_FUNCS)
            }
            _ => Ok(()),
        }
    }
}

fn step_bytes(step: &super::Step) -> u64 {
    use super::Step;
    match step {
        Step::Filterload { payload } | Step::Filteradd { payload } => payload.len() as u64,
        Step::MatchTx { tx } => tx.len() as u64,
        Step::MerkleBlock { block } => block.len() as u64,
        Step::Filterclear {} => 0,
    }
}

fn count(field: &str, n: usize, max: usize) -> Result<(), FieldError> {
    if n > max {
        return Err(FieldError {
            path: field.into(),
            message: format!("{n} items are beyond the ceiling of {max} per request"),
        });
    }
    Ok(())
}

/// The filter within the ceilings, and the bytes of `hashed` times its hash functions within
/// the hashing budget.
fn hashing<'a>(
    filter: &FilterInit,
    hashed: impl Iterator<Item = &'a Hex>,
) -> Result<(), FieldError> {
    let hash_funcs = match filter {
        FilterInit::Sized { .. } => MAX_BUILT_HASH_FUNCS,
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs,
            ..
        } => checked(u64::from(*filter_bytes), *hash_funcs)?,
        FilterInit::Loaded {
            data, hash_funcs, ..
        } => checked(data.len() as u64, *hash_funcs)?,
    };
    budget(hashed.map(|h| h.len() as u64 + 16).sum(), hash_funcs)
}

fn checked(filter_bytes: u64, hash_funcs: u32) -> Result<u32, FieldError> {
    ceilings::check_filter(filter_bytes, hash_funcs).map_err(|e| FieldError {
        path: "filter".into(),
        message: e.to_string(),
    })?;
    Ok(hash_funcs)
}

fn budget(bytes: u64, hash_funcs: u32) -> Result<(), FieldError> {
    let hashed = bytes.saturating_mul(u64::from(hash_funcs));
    if hashed > MAX_HASHED_BYTES {
        return Err(FieldError {
            path: ".".into(),
            message: format!(
                "{bytes} bytes to hash with {hash_funcs} hash functions are beyond the ceiling \
                 of {MAX_HASHED_BYTES} hashed bytes per request"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OpName;
    use serde_json::json;

    fn build(filter: serde_json::Value, insert: usize) -> Result<Request, FieldError> {
        let insert: Vec<&str> = vec!["00"; insert];
        Request::from_json(
            OpName::BuildFilter,
            &json!({"filter": filter, "insert": insert, "queries": []}),
        )
    }

    #[test]
    fn filters_counts_and_hashing_beyond_the_ceilings_are_refused() {
        let explicit = |bytes: u64, funcs: u64| json!({"kind": "explicit", "filterBytes": bytes, "hashFuncs": funcs, "tweak": 0, "flags": 0});
        assert!(build(explicit(288_000, 1_000), 1).is_ok());
        let err = build(explicit(10, 4_294_967_295), 1).unwrap_err();
        assert_eq!(err.path, "filter");
        assert!(err.message.contains("ceiling"), "{err}");
        assert!(build(explicit(288_001, 1), 1).is_err());
        let loaded =
            json!({"kind": "loaded", "data": "00", "hashFuncs": 51, "tweak": 0, "flags": 0});
        assert!(
            build(loaded, 1).is_ok(),
            "a missing 50-function limit stays testable"
        );
        let err = build(explicit(10, 1), MAX_ELEMENTS + 1).unwrap_err();
        assert_eq!(err.path, "insert");
        let err = build(explicit(10, 1_000), 70_000).unwrap_err();
        assert!(err.message.contains("hashed bytes"), "{err}");
    }
}
