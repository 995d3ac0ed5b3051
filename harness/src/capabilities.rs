//! Capabilities: what an implementation declares, beside the operations it claims, about the
//! inputs of those operations it cannot take. The hello is a claim: a test of a claimed
//! operation that is answered `unsupported` fails the run, unless a declared capability
//! excludes its input (then it is not sent, and is reported `notClaimed`) or the expectations
//! file lists it as `unsupported` with a reason.
//!
//! The vocabulary is small on purpose, each entry a narrowing that a real library has (as an
//! ACVP registration narrows an algorithm to the sizes and modes it implements), each decided
//! from a test's input alone, so that the same test is in or out of every run:
//!
//! - `filterKinds`: the filter objects it can set up (`sized`, `explicit`, `loaded`); a library
//!   with no constructor from an explicit size leaves out `explicit`.
//! - `maxFilterBytes`: the largest filter it can set up, in bytes (a sized filter counts the
//!   size Core gives it; sizing inputs Core leaves undefined are never excluded).
//! - `updateModes`: the update modes of matching it implements (`none`, `all`,
//!   `p2pubkeyOnly`), judged on `matchTx` and `merkleBlock` by `flags & 3` as Core masks them
//!   (3 updates nothing, as `none`).
//!
//! An absent entry excludes nothing. Operations an implementation cannot do at all are left
//! out of `operations` instead.

use crate::ops::{FilterInit, Request};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The narrowings an implementation declares (`hello.capabilities`); the default excludes
/// nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capabilities {
    /// The filter objects it can set up; `None` for all three.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter_kinds: Option<Vec<FilterKind>>,
    /// The largest filter it can set up, in bytes; `None` for no limit of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_filter_bytes: Option<u32>,
    /// The update modes its matching implements; `None` for all three.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_modes: Option<Vec<UpdateMode>>,
}

/// A kind of filter object (`filter.kind` of a test's input).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FilterKind {
    Sized,
    Explicit,
    Loaded,
}

/// An update mode of `IsRelevantAndUpdate` (the low two bits of `nFlags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UpdateMode {
    /// `BLOOM_UPDATE_NONE` (and 3, which Core's mask leaves updating nothing).
    None,
    /// `BLOOM_UPDATE_ALL`.
    All,
    /// `BLOOM_UPDATE_P2PUBKEY_ONLY`.
    P2pubkeyOnly,
}

impl UpdateMode {
    /// The mode Core applies for `flags`.
    pub fn of_flags(flags: u8) -> UpdateMode {
        match flags & 3 {
            1 => UpdateMode::All,
            2 => UpdateMode::P2pubkeyOnly,
            _ => UpdateMode::None,
        }
    }
}

/// The wire spelling of a capability value, for messages.
fn spelled<T: Serialize>(value: &T) -> String {
    crate::runner::select::wire_name(value)
}

impl Capabilities {
    /// True when nothing is narrowed.
    pub fn is_everything(&self) -> bool {
        *self == Capabilities::default()
    }

    /// Why `request` is outside these capabilities, or `None` when it is inside.
    pub fn excludes(&self, request: &Request) -> Option<String> {
        let (filter, matches) = match request {
            Request::BitIndexes(i) => (&i.filter, false),
            Request::BuildFilter(i) => (&i.filter, false),
            Request::MatchTx(i) => (&i.filter, true),
            Request::MerkleBlock(i) => (&i.filter, true),
            _ => return None,
        };
        let (kind, flags) = match filter {
            FilterInit::Sized { flags, .. } => (FilterKind::Sized, *flags),
            FilterInit::Explicit { flags, .. } => (FilterKind::Explicit, *flags),
            FilterInit::Loaded { flags, .. } => (FilterKind::Loaded, *flags),
        };
        if let Some(kinds) = self.filter_kinds.as_ref().filter(|k| !k.contains(&kind)) {
            return Some(format!(
                "its filter is {}, and the hello's filterKinds are {}",
                spelled(&kind),
                list(kinds)
            ));
        }
        if let (Some(max), Some(bytes)) = (self.max_filter_bytes, filter_bytes(filter)) {
            if u64::from(max) < bytes {
                return Some(format!(
                    "its filter has {bytes} bytes, over the hello's maxFilterBytes {max}"
                ));
            }
        }
        let mode = UpdateMode::of_flags(flags);
        match &self.update_modes {
            Some(modes) if matches && !modes.contains(&mode) => Some(format!(
                "its filter's update mode is {} (flags {flags}), and the hello's updateModes are {}",
                spelled(&mode),
                list(modes)
            )),
            _ => None,
        }
    }
}

/// The size of the filter `filter` sets up, when it is defined.
fn filter_bytes(filter: &FilterInit) -> Option<u64> {
    match filter {
        FilterInit::Sized {
            n_elements,
            fp_rate,
            ..
        } => bip37_reference::sizing::size_for(*n_elements, fp_rate.0)
            .ok()
            .map(|size| u64::from(size.filter_bytes)),
        FilterInit::Explicit { filter_bytes, .. } => Some(u64::from(*filter_bytes)),
        FilterInit::Loaded { data, .. } => Some(data.0.len() as u64),
    }
}

fn list<T: Serialize>(values: &[T]) -> String {
    match values {
        [] => "none".to_string(),
        _ => values.iter().map(spelled).collect::<Vec<_>>().join(", "),
    }
}

impl fmt::Display for Capabilities {
    /// The narrowings in words (`filterKinds sized, loaded; maxFilterBytes 1000`), or
    /// `everything` when there are none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(kinds) = &self.filter_kinds {
            parts.push(format!("filterKinds {}", list(kinds)));
        }
        if let Some(max) = self.max_filter_bytes {
            parts.push(format!("maxFilterBytes {max}"));
        }
        if let Some(modes) = &self.update_modes {
            parts.push(format!("updateModes {}", list(modes)));
        }
        match parts.is_empty() {
            true => f.write_str("everything"),
            false => f.write_str(&parts.join("; ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{BuildFilterInput, FpRate, MatchTxInput, Murmur3Input};

    fn build(filter: FilterInit) -> Request {
        Request::BuildFilter(BuildFilterInput {
            filter,
            insert: vec![],
            queries: vec![],
        })
    }

    fn explicit(filter_bytes: u32, flags: u8) -> FilterInit {
        FilterInit::Explicit {
            filter_bytes,
            hash_funcs: 1,
            tweak: 0,
            flags,
        }
    }

    #[test]
    fn each_narrowing_excludes_only_its_inputs() {
        let caps: Capabilities =
            serde_json::from_str(r#"{"filterKinds": ["sized"], "maxFilterBytes": 10}"#).unwrap();
        let why = caps.excludes(&build(explicit(1, 0))).unwrap();
        assert!(why.contains("explicit") && why.contains("sized"), "{why}");
        let sized = |n, p| FilterInit::Sized {
            n_elements: n,
            fp_rate: FpRate(p),
            tweak: 0,
            flags: 0,
        };
        assert_eq!(caps.excludes(&build(sized(3, 0.01))), None);
        let why = caps.excludes(&build(sized(1000, 0.0001))).unwrap();
        assert!(why.contains("maxFilterBytes 10"), "{why}");
        // Undefined sizing is never excluded: its rejection is what the test checks.
        assert_eq!(caps.excludes(&build(sized(0, 0.01))), None);
        let murmur = Request::Murmur3(Murmur3Input {
            seed: 0,
            data: crate::hex::Hex(vec![]),
        });
        assert_eq!(caps.excludes(&murmur), None);
    }

    #[test]
    fn update_modes_judge_matching_by_the_masked_flags() {
        let caps: Capabilities = serde_json::from_str(r#"{"updateModes": ["none"]}"#).unwrap();
        let matching = |flags| {
            Request::MatchTx(MatchTxInput {
                filter: explicit(1, flags),
                insert: vec![],
                txs: vec![],
            })
        };
        assert_eq!(caps.excludes(&matching(0)), None);
        assert_eq!(caps.excludes(&matching(3)), None);
        let why = caps.excludes(&matching(0x81)).unwrap();
        assert!(why.contains("update mode is all (flags 129)"), "{why}");
        assert!(caps
            .excludes(&matching(2))
            .unwrap()
            .contains("p2pubkeyOnly"));
        // Building a filter never updates it: its flags are only carried.
        assert_eq!(caps.excludes(&build(explicit(1, 2))), None);
    }

    #[test]
    fn unknown_names_are_refused_and_the_default_is_everything() {
        assert!(serde_json::from_str::<Capabilities>(r#"{"maxFilterSize": 1}"#).is_err());
        assert!(serde_json::from_str::<Capabilities>(r#"{"filterKinds": ["big"]}"#).is_err());
        let none: Capabilities = serde_json::from_str("{}").unwrap();
        assert!(none.is_everything());
        assert_eq!(none.to_string(), "everything");
    }
}
