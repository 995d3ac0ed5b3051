//! Loading vector files into typed tests, with errors that point at the file, line, column
//! and field of the first problem, before anything runs.

use super::model::{Expectation, TestCase, TestGroup, VectorFile, FORMAT_VERSION, SUITE};
use crate::ops::{OpName, Output, Request};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A vector file that cannot be used, located as precisely as the problem allows, with the
/// error that caused it (a read, a JSON syntax or a field error) as its `source()`.
#[derive(Debug, Clone)]
pub struct VectorError {
    pub file: String,
    /// The line and column of the problem; 0 for a problem with the whole file.
    pub line: usize,
    pub column: usize,
    /// The JSON path of the offending field (e.g. `testGroups[0].tests[3].input.data`).
    pub field: String,
    pub message: String,
    cause: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl VectorError {
    /// A problem at `line`:`column` of `file`, in `field`.
    pub fn at(
        file: impl Into<String>,
        (line, column): (usize, usize),
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        VectorError {
            file: file.into(),
            line,
            column,
            field: field.into(),
            message: message.into(),
            cause: None,
        }
    }

    /// A problem with the whole file or directory `file` (it cannot be read or listed).
    pub fn whole(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::at(file, (0, 0), ".", message)
    }

    /// The same problem, caused by `cause`.
    fn because(mut self, cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.cause = Some(Arc::new(cause));
        self
    }
}

/// Two errors are equal when they say the same thing at the same place.
impl PartialEq for VectorError {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.file,
            self.line,
            self.column,
            &self.field,
            &self.message,
        ) == (
            &other.file,
            other.line,
            other.column,
            &other.field,
            &other.message,
        )
    }
}

impl Eq for VectorError {}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // A problem with the whole file (it cannot be read): no position to show.
            return write!(f, "{}: {}", self.file, self.message);
        }
        write!(
            f,
            "{}:{}:{}: field `{}`: {}",
            self.file, self.line, self.column, self.field, self.message
        )
    }
}

impl std::error::Error for VectorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        let cause: &(dyn std::error::Error + 'static) = self.cause.as_deref()?;
        Some(cause)
    }
}

/// A test ready to run: the case as written plus its typed request and expected output.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedTest {
    /// The file it came from (its name, e.g. `murmur3_test.json`).
    pub file: String,
    /// Its group, for the operation and the source.
    pub group: TestGroupInfo,
    /// The case as written, except its `input` and `expected` (emptied: they live on typed as
    /// `request` and `expected`, which keeps a loaded file within a few times its size).
    pub case: TestCase,
    /// The input with the group's shared fields merged in, typed.
    pub request: Request,
    /// The expected output, typed (`None` for invalid tests).
    pub expected: Option<Output>,
}

/// What a test inherits from its group.
#[derive(Debug, Clone, PartialEq)]
pub struct TestGroupInfo {
    pub index: usize,
    pub operation: OpName,
    pub source: super::model::Source,
    pub comment: String,
}

/// Below this many bytes, the copies of the groups' shared fields are never refused.
const MIN_COPIED_BYTES: usize = 1 << 20;

/// One parsed file with its typed tests.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedFile {
    pub name: String,
    /// The file's header, notes and groups; each group's tests moved into `tests`.
    pub file: VectorFile,
    pub tests: Vec<LoadedTest>,
}

/// Where each group's shared fields are in the text: their size, and a position for errors.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Positions<'a> {
    #[serde(borrow, default)]
    test_groups: Vec<GroupPositions<'a>>,
}

#[derive(Deserialize)]
struct GroupPositions<'a> {
    #[serde(borrow)]
    source: Option<&'a RawValue>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
}

impl GroupPositions<'_> {
    /// The bytes of text every test of the group gets a copy of: shared input, source, comment.
    fn shared_bytes<T>(&self, group: &TestGroup<T>) -> usize {
        let len = |raw: Option<&RawValue>| raw.map_or(0, |r| r.get().len());
        len(self.input) + len(self.source) + group.comment.len()
    }
}

/// Where a test's `input` and `expected` start in the text, for error positions.
#[derive(Deserialize, Default)]
struct TestPositions<'a> {
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    expected: Option<&'a RawValue>,
}

/// Parses the text of one vector file named `name`.
///
/// The tests are read as JSON text first and parsed one at a time into their typed form, so
/// the file is never held as JSON maps all at once (those cost many times the text).
pub fn parse_file(name: &str, text: &str) -> Result<LoadedFile, VectorError> {
    let error_at = |offset: usize, field: String, message: String| {
        VectorError::at(name, line_column(text, offset), field, message)
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let raw: VectorFile<&RawValue> = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        VectorError::at(
            name,
            (inner.line(), inner.column()),
            field,
            strip_position(&inner.to_string()),
        )
        .because(inner)
    })?;
    let positions: Positions = serde_json::from_str(text).map_err(|e| {
        VectorError::at(name, (e.line(), e.column()), ".", e.to_string()).because(e)
    })?;
    if raw.suite != SUITE {
        return Err(error_at(
            0,
            "suite".into(),
            format!("expected {SUITE:?}, found {:?}", raw.suite),
        ));
    }
    if raw.format_version != FORMAT_VERSION {
        return Err(error_at(
            0,
            "formatVersion".into(),
            format!(
                "this harness reads format version {FORMAT_VERSION}, the file has {}",
                raw.format_version
            ),
        ));
    }
    let mut copied = 0usize;
    for (g, (group, at)) in raw
        .test_groups
        .iter()
        .zip(&positions.test_groups)
        .enumerate()
    {
        copied = copied.saturating_add(at.shared_bytes(group).saturating_mul(group.tests.len()));
        if copied > text.len().max(MIN_COPIED_BYTES) {
            return Err(error_at(
                at.input.map_or(0, |r| offset_in(text, r)),
                format!("testGroups[{g}].input"),
                format!(
                    "the shared input, source and comment of the groups, copied into each of \
                     their tests, come to more than the file's own {} bytes: move large fields \
                     into the tests",
                    text.len()
                ),
            ));
        }
    }
    let mut tests = Vec::new();
    let mut groups = Vec::new();
    for (g, group) in raw.test_groups.into_iter().enumerate() {
        let TestGroup {
            operation,
            source,
            comment,
            input,
            tests: cases,
        } = group;
        let group = TestGroup {
            operation,
            source,
            comment,
            input,
            tests: Vec::new(),
        };
        for (t, raw_case) in cases.into_iter().enumerate() {
            let path = format!("testGroups[{g}].tests[{t}]");
            let mut case = parse_case(raw_case).map_err(|(offset_error, field, message)| {
                let mut e = error_at(
                    offset_in(text, raw_case),
                    format!("{path}.{field}"),
                    message,
                );
                (e.line, e.column) = shift(e.line, e.column, offset_error);
                e
            })?;
            let at: TestPositions = serde_json::from_str(raw_case.get()).unwrap_or_default();
            let offset_of = |raw: Option<&RawValue>| {
                raw.map_or(offset_in(text, raw_case), |r| offset_in(text, r))
            };
            let request =
                Request::from_json(group.operation, &Value::Object(merged_input(&group, &case)))
                    .map_err(|e| {
                        error_at(
                            offset_of(at.input),
                            format!("{path}.input.{}", e.path),
                            e.message.clone(),
                        )
                        .because(e)
                    })?;
            let expected = match (&case.expected, case.result) {
                (None, Expectation::Invalid) => None,
                (None, _) => {
                    return Err(error_at(
                        offset_of(at.input),
                        format!("{path}.expected"),
                        "a valid or acceptable test needs an expected output".into(),
                    ))
                }
                (Some(_), Expectation::Invalid) => {
                    return Err(error_at(
                        offset_of(at.expected),
                        format!("{path}.expected"),
                        "an invalid test has no expected output".into(),
                    ))
                }
                (Some(value), _) => {
                    Some(Output::from_json(group.operation, value).map_err(|e| {
                        error_at(
                            offset_of(at.expected),
                            format!("{path}.expected.{}", e.path),
                            e.message.clone(),
                        )
                        .because(e)
                    })?)
                }
            };
            // Kept typed only: as JSON maps they cost several times their text again.
            case.input = Map::new();
            case.expected = None;
            tests.push(LoadedTest {
                file: name.to_string(),
                group: TestGroupInfo {
                    index: g,
                    operation: group.operation,
                    source: group.source.clone(),
                    comment: group.comment.clone(),
                },
                case,
                request,
                expected,
            });
        }
        groups.push(group);
    }
    let file = VectorFile {
        suite: raw.suite,
        format_version: raw.format_version,
        schema: raw.schema,
        number_of_tests: raw.number_of_tests,
        header: raw.header,
        notes: raw.notes,
        test_groups: groups,
    };
    Ok(LoadedFile {
        name: name.to_string(),
        file,
        tests,
    })
}

/// Parses one test from its JSON text; an error carries its (line, column) within that text,
/// the path of the field and the message.
fn parse_case(raw: &RawValue) -> Result<TestCase, ((usize, usize), String, String)> {
    let mut de = serde_json::Deserializer::from_str(raw.get());
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let inner = e.inner();
        (
            (inner.line(), inner.column()),
            e.path().to_string(),
            strip_position(&inner.to_string()),
        )
    })
}

/// The position `within` (line, column, both from 1) of a text that starts at `line`, `column`.
fn shift(line: usize, column: usize, within: (usize, usize)) -> (usize, usize) {
    match within {
        (1, c) => (line, column + c - 1),
        (l, c) => (line + l - 1, c),
    }
}

/// The largest vector file read, in bytes (the suite's largest is under 1 MB).
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// Reads and parses one vector file from disk: a regular file of at most [`MAX_FILE_BYTES`].
pub fn load_file(path: &Path) -> Result<LoadedFile, VectorError> {
    let name = super::imported::name_of(path);
    let text = crate::input_file::read_text(path, MAX_FILE_BYTES).map_err(|e| {
        VectorError::whole(path.display().to_string(), format!("cannot read: {e}")).because(e)
    })?;
    parse_file(&name, &text)
}

/// Every vector file of a vector directory: its own `*_test.json` files (the generator's),
/// then those of its `imported/` subdirectory, if any ([`super::imported`]), each sorted by name.
pub fn vector_paths(dir: &Path) -> Result<Vec<PathBuf>, VectorError> {
    let mut paths = test_files(dir)?;
    let imported = dir.join(super::imported::DIR);
    if imported.is_dir() {
        paths.extend(test_files(&imported)?);
    }
    Ok(paths)
}

/// The `*_test.json` files of one directory (not its subdirectories), sorted by name.
pub fn test_files(dir: &Path) -> Result<Vec<PathBuf>, VectorError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        let message = format!("cannot list vector directory: {e}");
        VectorError::whole(dir.display().to_string(), message).because(e)
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with("_test.json"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// A test's input: the group's shared fields with the test's own fields over them.
pub fn merged_input(group: &TestGroup, case: &TestCase) -> Map<String, Value> {
    let mut input = group.input.clone();
    input.extend(case.input.clone());
    input
}

/// Where `raw`, a slice of `text`, starts in it.
fn offset_in(text: &str, raw: &RawValue) -> usize {
    raw.get().as_ptr() as usize - text.as_ptr() as usize
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// serde_json appends " at line L column C" to its messages; the position is reported apart.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{
  "suite": "bip37-conformance",
  "formatVersion": 1,
  "schema": "vectors.schema.json",
  "numberOfTests": 1,
  "header": ["h"],
  "notes": {},
  "testGroups": [
    {
      "operation": "murmur3",
      "source": {"kind": "generated", "generator": "g", "targets": "t"},
      "input": {"seed": 0},
      "tests": [
        {"id": "m/1", "comment": "c", "flags": [], "result": "valid", "phase": "hash",
         "input": {"data": ""}, "expected": {"hash": 0}}
      ]
    }
  ]
}"#;

    #[test]
    fn group_input_is_merged() {
        let loaded = parse_file("m_test.json", GOOD).unwrap();
        assert_eq!(loaded.tests.len(), 1);
        assert_eq!(loaded.tests[0].request.input_json()["seed"], 0);
    }

    #[test]
    fn bad_hex_points_at_the_test_input() {
        let text = GOOD.replace(r#""data": """#, r#""data": "0""#);
        let err = parse_file("m_test.json", &text).unwrap_err();
        assert_eq!(err.field, "testGroups[0].tests[0].input.data");
        assert_eq!((err.line, err.column), (15, 19));
        assert!(err.message.contains("odd length"), "{err}");
    }

    #[test]
    fn unknown_field_is_located_by_serde() {
        let text = GOOD.replace(r#""phase": "hash""#, r#""phase": "hash", "bogus": 1"#);
        let err = parse_file("m_test.json", &text).unwrap_err();
        assert_eq!(err.field, "testGroups[0].tests[0].bogus");
        assert_eq!(err.line, 14);
    }

    #[test]
    fn a_large_shared_input_copied_into_many_tests_is_refused() {
        let data = "ab".repeat(MIN_COPIED_BYTES);
        let with_big_group = GOOD.replace(
            r#""input": {"seed": 0}"#,
            &format!(r#""input": {{"seed": 0, "data": "{data}"}}"#),
        );
        let test = r#"{"id": "m/1", "comment": "c", "flags": [], "result": "valid", "phase": "hash",
         "input": {"data": ""}, "expected": {"hash": 0}}"#;
        assert!(parse_file("m_test.json", &with_big_group).is_ok());
        let two_tests = with_big_group.replace(test, &format!("{test}, {test}"));
        let err = parse_file("m_test.json", &two_tests).unwrap_err();
        assert_eq!(err.field, "testGroups[0].input");
        assert!(err.message.contains("copied into each"), "{err}");
    }

    #[test]
    fn invalid_json_has_a_position() {
        let err = parse_file("m_test.json", "{\n  \"suite\": ").unwrap_err();
        assert_eq!(err.line, 2);
        let cause = std::error::Error::source(&err).expect("the JSON error");
        assert!(
            cause.downcast_ref::<serde_json::Error>().is_some(),
            "{cause:?}"
        );
    }

    #[test]
    fn an_unreadable_file_keeps_the_read_error() {
        let err = load_file(Path::new("no/such/m_test.json")).unwrap_err();
        assert_eq!(
            err.to_string().split(": ").next(),
            Some("no/such/m_test.json")
        );
        let cause =
            std::error::Error::source(&err).and_then(|e| e.downcast_ref::<std::io::Error>());
        assert_eq!(
            cause.map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
    }
}
