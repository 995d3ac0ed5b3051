//! The vector file format (documented for authors in `vectors/README.md`), as Rust types.
//!
//! A file has a header, `notes` that define every flag, and `testGroups`; a group names one
//! operation and its provenance; a test carries a stable id, a comment, flags, the expected
//! result (`valid`, `invalid` or `acceptable`), the phase it exercises, the operation's input
//! and, unless it is `invalid`, the expected output.

use crate::ops::OpName;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The `suite` value every vector file carries.
pub const SUITE: &str = "bip37-conformance";
/// The format version this harness reads; a file of another version is refused.
pub const FORMAT_VERSION: u32 = 1;

/// One vector file. `T` is a test: a [`TestCase`], or the loader's unparsed JSON text of one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VectorFile<T = TestCase> {
    /// Always [`SUITE`].
    pub suite: String,
    /// Always [`FORMAT_VERSION`] for files this harness reads.
    pub format_version: u32,
    /// The JSON Schema file (relative to the vector file) that validates it.
    pub schema: String,
    /// The total number of tests in all groups.
    pub number_of_tests: usize,
    /// Free text for readers: what the file covers.
    pub header: Vec<String>,
    /// Every flag used by the file's tests, defined.
    pub notes: BTreeMap<String, Note>,
    /// The groups of tests.
    pub test_groups: Vec<TestGroup<T>>,
}

/// The definition of a flag: the bug class it marks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Note {
    pub bug_type: BugType,
    /// What the flagged tests check.
    pub description: String,
    /// What goes wrong in an implementation that fails them.
    pub effect: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cves: Vec<String>,
    /// Present when the verdict of the flagged tests is the suite's policy rather than Core's
    /// behaviour (an input Core leaves undefined, a tolerated rejection): the policy in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
}

/// The kind of mistake a flag marks (after Wycheproof's `bugType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BugType {
    /// The plain behaviour every implementation needs.
    Basic,
    /// A boundary value.
    EdgeCase,
    /// Integer vs floating-point arithmetic, truncation, wrapping.
    WrongArithmetic,
    /// Byte order of an integer or a hash.
    Endianness,
    /// Bit order within a byte.
    BitOrder,
    /// A serialization or decoding rule.
    Encoding,
    /// A check the implementation must make and may skip.
    MissingCheck,
    /// A step of Core's algorithm left out or done differently.
    MissingStep,
    /// Core and other well-known implementations legitimately differ (used on `acceptable` tests).
    Divergence,
    /// An input Core leaves undefined.
    Undefined,
    /// A known vulnerability.
    KnownBug,
}

/// A group of tests of one operation from one source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestGroup<T = TestCase> {
    pub operation: OpName,
    pub source: Source,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// Shared input fields: each test's input is this object with the test's fields over it.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input: Map<String, Value>,
    pub tests: Vec<T>,
}

/// Where a group's tests come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Source {
    /// A Bitcoin Core test, at a commit.
    #[serde(rename_all = "camelCase")]
    Core {
        commit: String,
        file: String,
        line: u32,
        test_case: String,
    },
    /// The text of a BIP, at a commit of the BIPs repository.
    #[serde(rename_all = "camelCase")]
    Bip {
        bip: u32,
        commit: String,
        section: String,
    },
    /// A published example (a book, a tutorial) that implementations copy.
    #[serde(rename_all = "camelCase")]
    Literature { reference: String },
    /// Made by the generator in this repository; `targets` says what mistake it separates.
    #[serde(rename_all = "camelCase")]
    Generated { generator: String, targets: String },
}

/// The expected result of a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Expectation {
    /// The implementation must answer exactly `expected`.
    Valid,
    /// The implementation must reject the input.
    Invalid,
    /// Either `expected` or a rejection; the flags say why both are tolerated.
    Acceptable,
}

/// The part of BIP 37 processing a test exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    Hash,
    Seed,
    Sizing,
    Insert,
    Contains,
    Serialize,
    Decode,
    Limits,
    Match,
    Update,
    Merkle,
    Sequence,
}

/// One test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestCase {
    /// Stable, unique across all files: `<file>/<slug>`.
    pub id: String,
    pub comment: String,
    #[serde(default)]
    pub flags: Vec<String>,
    pub result: Expectation,
    pub phase: Phase,
    pub input: Map<String, Value>,
    /// The output an implementation must give (absent for `invalid` tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
}

/// The canonical text of a vector file.
pub fn render(file: &VectorFile) -> String {
    // The model holds only strings, numbers, booleans, lists and maps: this cannot fail.
    let mut text = serde_json::to_string_pretty(file).expect("a vector file serializes");
    text.push('\n');
    text
}
