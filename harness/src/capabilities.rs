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
//! A `sequence` (a node's session) is judged step by step as a node reads it: each `filterload`
//! a node takes (it decodes, its bytes after the fields unread, and is within Core's limits)
//! sets up a `loaded` filter of its size, and each `matchTx` or `merkleBlock` step tested
//! against it matches in its update mode. A `filterload` a node ignores or penalizes sets up
//! nothing, so it is never excluded: the answer Core gives it needs no filter of the
//! implementation's.
//!
//! An absent entry excludes nothing. Operations an implementation cannot do at all are left
//! out of `operations` instead.

use crate::ops::{FilterInit, Request, Step};
use bip37_reference::FilterLoad;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The narrowings an implementation declares (`hello.capabilities`); the default excludes
/// nothing. Read only from an object with the documented fields (its `Deserialize`): serde's derive
/// would also take an array, field by field in order, so that `[]` declared nothing and
/// `[["sized"], 10, ["none"]]` three narrowings no adapter spelled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, remote = "Self")]
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
            Request::Sequence(session) => return self.excludes_session(&session.steps),
            _ => return None,
        };
        let (kind, flags) = match filter {
            FilterInit::Sized { flags, .. } => (FilterKind::Sized, *flags),
            FilterInit::Explicit { flags, .. } => (FilterKind::Explicit, *flags),
            FilterInit::Loaded { flags, .. } => (FilterKind::Loaded, *flags),
        };
        self.excludes_setup(kind, filter_bytes(filter))
            .or_else(|| matches.then(|| self.excludes_mode(flags)).flatten())
    }

    /// Why a session is outside: the first step that sets up a filter these capabilities
    /// exclude, or matches in an excluded update mode (see the module documentation).
    fn excludes_session(&self, steps: &[Step]) -> Option<String> {
        // The nFlags of the filter loaded before the step, if any.
        let mut loaded: Option<u8> = None;
        for (i, step) in steps.iter().enumerate() {
            let why = match step {
                Step::Filterload { payload } => {
                    match crate::reference_impl::decode_as_node(payload, FilterLoad::decode) {
                        Some(load) if load.check_limits().is_ok() => {
                            loaded = Some(load.flags);
                            self.excludes_setup(FilterKind::Loaded, Some(load.data.len() as u64))
                        }
                        _ => None,
                    }
                }
                Step::Filterclear {} => {
                    loaded = None;
                    None
                }
                Step::MatchTx { .. } | Step::MerkleBlock { .. } => {
                    loaded.and_then(|flags| self.excludes_mode(flags))
                }
                Step::Filteradd { .. } => None,
            };
            if let Some(why) = why {
                return Some(format!("step {} ({}): {why}", i + 1, step_name(step)));
            }
        }
        None
    }

    /// Why setting up a filter of `kind` and `bytes` is outside these capabilities.
    fn excludes_setup(&self, kind: FilterKind, bytes: Option<u64>) -> Option<String> {
        if let Some(kinds) = self.filter_kinds.as_ref().filter(|k| !k.contains(&kind)) {
            return Some(format!(
                "its filter is {}, and the hello's filterKinds are {}",
                spelled(&kind),
                list(kinds)
            ));
        }
        match (self.max_filter_bytes, bytes) {
            (Some(max), Some(bytes)) if u64::from(max) < bytes => Some(format!(
                "its filter has {bytes} bytes, over the hello's maxFilterBytes {max}"
            )),
            _ => None,
        }
    }

    /// Why matching against a filter of nFlags `flags` is outside these capabilities.
    fn excludes_mode(&self, flags: u8) -> Option<String> {
        let mode = UpdateMode::of_flags(flags);
        match &self.update_modes {
            Some(modes) if !modes.contains(&mode) => Some(format!(
                "its filter's update mode is {} (flags {flags}), and the hello's updateModes are {}",
                spelled(&mode),
                list(modes)
            )),
            _ => None,
        }
    }
}

/// A step's wire name (`filterload`, `matchTx`, ...), for messages.
fn step_name(step: &Step) -> &'static str {
    match step {
        Step::Filterload { .. } => "filterload",
        Step::Filteradd { .. } => "filteradd",
        Step::Filterclear {} => "filterclear",
        Step::MatchTx { .. } => "matchTx",
        Step::MerkleBlock { .. } => "merkleBlock",
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

// `remote = "Self"` makes the derives inherent functions, which these impls wrap.
impl Serialize for Capabilities {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Capabilities::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for Capabilities {
    /// The derived fields, from a JSON object only: any other kind is refused with what was
    /// expected, and the JSON reader adds where.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> serde::de::Visitor<'de> for Object {
            type Value = Capabilities;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "an object with the fields filterKinds, maxFilterBytes and updateModes \
                     (each optional)",
                )
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                Capabilities::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        deserializer.deserialize_map(Object)
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
    use crate::ops::{BuildFilterInput, FpRate, MatchTxInput, Murmur3Input, SequenceInput};

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
    fn only_an_object_is_read() {
        for text in [
            "[]",
            r#"[["sized"], 10, ["none"]]"#,
            "null",
            "7",
            r#""sized""#,
        ] {
            let err = serde_json::from_str::<Capabilities>(text)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("expected an object with the fields"),
                "{text}: {err}"
            );
            assert!(err.contains("column"), "{text}: {err}");
        }
        let empty: Capabilities = serde_json::from_str("{}").unwrap();
        assert!(empty.is_everything());
        let round = Capabilities {
            max_filter_bytes: Some(10),
            ..Capabilities::default()
        };
        let text = serde_json::to_string(&round).unwrap();
        assert_eq!(text, r#"{"maxFilterBytes":10}"#);
        assert_eq!(serde_json::from_str::<Capabilities>(&text).unwrap(), round);
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

    fn filterload(data_bytes: usize, flags: u8) -> Step {
        let load = FilterLoad {
            data: vec![0; data_bytes],
            hash_funcs: 1,
            tweak: 0,
            flags,
        };
        Step::Filterload {
            payload: load.encode().into(),
        }
    }

    fn session(steps: Vec<Step>) -> Request {
        Request::Sequence(SequenceInput { steps })
    }

    fn caps(json: &str) -> Capabilities {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_session_is_judged_by_the_filters_a_node_would_load_and_match_with() {
        let tx = || Step::MatchTx { tx: vec![0].into() };
        let loads_then_matches = session(vec![filterload(2, 1), tx()]);
        let why = caps(r#"{"updateModes": ["none"]}"#)
            .excludes(&loads_then_matches)
            .unwrap();
        assert!(
            why.starts_with("step 2 (matchTx)") && why.contains("all"),
            "{why}"
        );
        let why = caps(r#"{"filterKinds": ["sized", "explicit"]}"#)
            .excludes(&loads_then_matches)
            .unwrap();
        assert!(
            why.starts_with("step 1 (filterload)") && why.contains("loaded"),
            "{why}"
        );
        let why = caps(r#"{"maxFilterBytes": 1}"#)
            .excludes(&loads_then_matches)
            .unwrap();
        assert!(why.contains("2 bytes"), "{why}");
        assert_eq!(
            caps(r#"{"updateModes": ["all"], "filterKinds": ["loaded"], "maxFilterBytes": 2}"#)
                .excludes(&loads_then_matches),
            None
        );
        // After filterclear nothing is loaded: the match needs no filter of the implementation.
        let cleared = session(vec![filterload(2, 1), Step::Filterclear {}, tx()]);
        assert_eq!(
            caps(r#"{"updateModes": ["none"]}"#).excludes(&cleared),
            None
        );
    }

    #[test]
    fn a_filterload_a_node_refuses_sets_up_nothing_and_is_never_excluded() {
        let oversized = session(vec![filterload(36_001, 0)]);
        assert_eq!(caps(r#"{"maxFilterBytes": 10}"#).excludes(&oversized), None);
        let undecodable = session(vec![Step::Filterload {
            payload: vec![0xfd].into(),
        }]);
        assert_eq!(
            caps(r#"{"filterKinds": ["sized"]}"#).excludes(&undecodable),
            None
        );
        // Bytes after the fields are unread by a node: that filter is loaded, and judged.
        let mut trailing = FilterLoad {
            data: vec![0; 4],
            hash_funcs: 1,
            tweak: 0,
            flags: 0,
        }
        .encode();
        trailing.push(0);
        let why = caps(r#"{"maxFilterBytes": 3}"#)
            .excludes(&session(vec![Step::Filterload {
                payload: trailing.into(),
            }]))
            .unwrap();
        assert!(why.contains("4 bytes"), "{why}");
    }
}
