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
/// The schema file every vector file names (it sits next to them).
pub const SCHEMA_FILE: &str = "vectors.schema.json";
/// What a flag's name looks like.
pub const FLAG_PATTERN: &str = "^[A-Z][A-Za-z0-9]*$";
/// A git commit, in full.
pub const COMMIT_PATTERN: &str = "^[0-9a-f]{40}$";

/// One vector file. `T` is a test: a [`TestCase`], or the loader's unparsed JSON text of one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "bip37-conformance vector file",
        description = "One *_test.json file of the BIP 37 conformance vectors; vectors/README.md documents every field."
    )
)]
pub struct VectorFile<T = TestCase> {
    /// Always `bip37-conformance`.
    #[cfg_attr(feature = "schema", schemars(extend("const" = SUITE)))]
    pub suite: String,
    /// The version of the format, 1.
    #[cfg_attr(feature = "schema", schemars(extend("const" = FORMAT_VERSION)))]
    pub format_version: u32,
    /// The JSON Schema file (relative to the vector file) that validates it.
    #[cfg_attr(feature = "schema", schemars(extend("const" = SCHEMA_FILE)))]
    pub schema: String,
    /// The total number of tests in all groups.
    pub number_of_tests: usize,
    /// Free text for readers: what the file covers.
    pub header: Vec<String>,
    /// Every flag used by the file's tests, defined.
    #[cfg_attr(feature = "schema", schemars(extend("propertyNames" = {"pattern": FLAG_PATTERN})))]
    pub notes: BTreeMap<String, Note>,
    /// The groups of tests.
    pub test_groups: Vec<TestGroup<T>>,
}

/// The definition of a flag: the bug class it marks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Note {
    pub bug_type: BugType,
    /// What the flagged tests check.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub description: String,
    /// What goes wrong in an implementation that fails them.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub effect: String,
    /// Where to read more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    /// The CVEs of a known vulnerability.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "schema",
        schemars(inner(regex(pattern = r"^CVE-[0-9]{4}-[0-9]+$")))
    )]
    pub cves: Vec<String>,
    /// Present when the verdict of the flagged tests is the suite's policy rather than Core's
    /// behaviour (an input Core leaves undefined, a tolerated rejection): the policy in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String", length(min = 1)))]
    pub policy: Option<String>,
}

/// The kind of mistake a flag marks (after Wycheproof's `bugType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "schema", schemars(rename = "TestGroup"))]
pub struct TestGroup<T = TestCase> {
    /// The operation every test of the group asks.
    pub operation: OpName,
    /// Where the tests come from.
    pub source: Source,
    /// Free text for readers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// Shared input fields: each test's input is this object with the test's fields over it.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input: Map<String, Value>,
    pub tests: Vec<T>,
}

/// Where a group's tests come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Source {
    /// A Bitcoin Core test, at a commit.
    #[serde(rename_all = "camelCase")]
    Core {
        /// The commit of bitcoin/bitcoin.
        #[cfg_attr(feature = "schema", schemars(regex(pattern = COMMIT_PATTERN)))]
        commit: String,
        /// The file, relative to the repository.
        file: String,
        /// The line the test starts at.
        #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
        line: u32,
        /// The test's name.
        test_case: String,
    },
    /// The text of a BIP, at a commit of the BIPs repository.
    #[serde(rename_all = "camelCase")]
    Bip {
        /// The BIP's number.
        #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
        bip: u32,
        /// The commit of bitcoin/bips.
        #[cfg_attr(feature = "schema", schemars(regex(pattern = COMMIT_PATTERN)))]
        commit: String,
        /// The section.
        section: String,
    },
    /// A published example (a book, a tutorial) that implementations copy.
    #[serde(rename_all = "camelCase")]
    Literature {
        /// What to read: author, title, where.
        #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
        reference: String,
    },
    /// Made by the generator in this repository; `targets` says what mistake it separates.
    #[serde(rename_all = "camelCase")]
    Generated {
        /// The generator and its settings.
        #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
        generator: String,
        /// The mistakes the tests separate, in words.
        #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
        targets: String,
    },
}

/// The expected result of a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(
    feature = "schema",
    schemars(extend(
        "if" = {"properties": {"result": {"const": "invalid"}}},
        "then" = {"not": {"required": ["expected"]}},
        "else" = {"required": ["expected"]}
    ))
)]
pub struct TestCase {
    /// Stable, unique across all files: `<file>/<slug>`.
    #[cfg_attr(
        feature = "schema",
        schemars(regex(pattern = r"^[a-z0-9_]+/[a-z0-9][a-z0-9.+-]*$"))
    )]
    pub id: String,
    /// What the test checks, in words.
    pub comment: String,
    /// The bug classes the test separates, each defined in the file's `notes`.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(inner(regex(pattern = FLAG_PATTERN)), extend("uniqueItems" = true)))]
    pub flags: Vec<String>,
    /// What an implementation must do.
    pub result: Expectation,
    /// The part of BIP 37 processing it exercises.
    pub phase: Phase,
    /// The operation's input fields beyond the group's `input`.
    pub input: Map<String, Value>,
    /// The output an implementation must give (absent for `invalid` tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
    pub expected: Option<Value>,
}

/// The canonical text of a vector file.
pub fn render(file: &VectorFile) -> String {
    // The model holds only strings, numbers, booleans, lists and maps: this cannot fail.
    let mut text = serde_json::to_string_pretty(file).expect("a vector file serializes");
    text.push('\n');
    text
}
