//! The findings page, `docs/FINDINGS.md`: every deviation from Bitcoin Core that the committed
//! matrices show, per implementation and version, after the trophy lists of cryptofuzz and
//! bitcoinfuzz and Wycheproof's bug list. It is made from data only, never typed: the library
//! matrix (`adapters/matrix.json`), the node section (`adapters/nodes/matrix.json`), the
//! manifests (which library and version a column is) and the expectations files (why each
//! failure happens, in words; the matrix and the files must agree, or one of them is stale).
//!
//! A deviation is a set of failing tests of one implementation that fail alike: for a library,
//! the same named bug classes or, when none is named, the same words in the expectations file
//! (less the values of one vector) or else the same operation; for a node, one check. Its
//! severity is its worst test's. Each gets its test or check ids, its bug classes or
//! "unknown", its severity ([`severity`]), the reason from the expectations file, a minimal
//! reproduction ([`repro`]; for a node, the check to run) and its upstream status
//! ([`status`]). A node crash that no checked newer version fixes is listed without its
//! reproduction: "withheld until reported privately". Nothing here runs an implementation, so
//! nothing is stated that a committed run did not show.

pub mod command;
pub mod html;
mod libraries;
pub mod markdown;
mod nodes;
pub mod repro;
pub mod severity;
pub mod status;

use crate::adapters::manifest::Library;
use crate::adapters::{Kind, Manifest};
use bip37_harness::expectations::Expectations;
use bip37_harness::runner::State;
use severity::Severity;
use status::Status;
use std::path::{Path, PathBuf};

/// Where the page's data is, relative to the repository root.
#[derive(Debug, Clone)]
pub struct Sources {
    /// The library matrix (`bip37-conform matrix --json`).
    pub matrix: PathBuf,
    /// The matrix holding the node section (`--node-report`), if any.
    pub node_matrix: Option<PathBuf>,
    /// The directory of the library adapters' manifests.
    pub adapters: PathBuf,
    /// The directory of the nodes' manifests.
    pub node_adapters: PathBuf,
}

impl Sources {
    /// The committed files of this repository.
    pub fn committed() -> Self {
        Sources {
            matrix: "adapters/matrix.json".into(),
            node_matrix: Some("adapters/nodes/matrix.json".into()),
            adapters: "adapters".into(),
            node_adapters: "adapters/nodes".into(),
        }
    }
}

/// One implementation at one version: a matrix column and the library its manifest pins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The matrix column.
    pub column: String,
    pub library: Library,
    /// A full node (the node section) rather than a library.
    pub node: bool,
    /// Its library, whatever the version ([`status::family`]).
    pub family: String,
}

/// How to reproduce a deviation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reproduction {
    /// The input of the vector with the shortest one.
    Input {
        test: String,
        input: repro::Reproduction,
    },
    /// A node check: what it sends, and the command that runs it.
    Check { description: String },
    /// A node crash still present: withheld until reported privately.
    Withheld,
}

/// One deviation from Bitcoin Core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The failing test (vector) or check ids, in vector order.
    pub tests: Vec<String>,
    /// The bug classes the diagnosis names (vector flags, or a node check's deviation as
    /// `BUG_TYPE: name`), best ranked first; empty for unknown.
    pub classes: Vec<String>,
    /// The states the tests end in.
    pub states: Vec<State>,
    pub severity: Severity,
    /// Why, from the expectations file (the entry of the reproduced test).
    pub reason: String,
    pub reproduction: Reproduction,
    pub status: Status,
}

/// One implementation at one version with its deviations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub subject: Subject,
    /// How many tests or checks it answered (passed or failed), of `total`: none means it was
    /// not run here, which is no evidence of conformance.
    pub answered: usize,
    pub total: usize,
    /// Its deviations, most severe first.
    pub findings: Vec<Finding>,
    /// The checks it passed on a legitimate difference from Core (a node's `acceptable`
    /// checks), with the difference: not deviations, but not Core's behaviour either.
    pub legitimate: Vec<(String, String)>,
}

/// Every implementation at every version, in library name, version and column order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Findings {
    pub entries: Vec<Entry>,
    /// The library matrix's columns no manifest names (the reference), which fail nothing.
    pub left_out: Vec<String>,
}

/// Reads the sources under `root` and lists every deviation.
pub fn collect(root: &Path, sources: &Sources) -> Result<Findings, String> {
    let library_matrix = read_matrix(&root.join(&sources.matrix))?;
    let manifests = load_manifests(&root.join(&sources.adapters))?;
    let mut entries = libraries::findings(root, &library_matrix, &manifests)?;
    let left_out = (library_matrix.columns.iter())
        .map(|c| c.name.clone())
        .filter(|name| !entries.iter().any(|e| &e.subject.column == name))
        .collect();
    if let Some(path) = &sources.node_matrix {
        let matrix = read_matrix(&root.join(path))?;
        let section = matrix.nodes.ok_or_else(|| {
            format!(
                "{}: no node section (made with --node-report)",
                path.display()
            )
        })?;
        let node_manifests = load_manifests(&root.join(&sources.node_adapters))?;
        entries.extend(nodes::findings(root, &section, &node_manifests)?);
    }
    entries.sort_by(|a, b| {
        let (a, b) = (&a.subject, &b.subject);
        (a.node, a.library.name.to_lowercase())
            .cmp(&(b.node, b.library.name.to_lowercase()))
            .then_with(|| status::compare_versions(&a.library.version, &b.library.version))
            .then_with(|| a.column.cmp(&b.column))
    });
    for entry in &mut entries {
        entry.findings.sort_by(|a, b| {
            (a.severity, &a.classes, &a.tests).cmp(&(b.severity, &b.classes, &b.tests))
        });
    }
    Ok(Findings { entries, left_out })
}

/// The page for `sources` under `root`, as [`command`] writes it.
pub fn page(root: &Path, sources: &Sources) -> Result<String, String> {
    Ok(markdown::render(&collect(root, sources)?, sources))
}

fn read_matrix(path: &Path) -> Result<crate::matrix::Matrix, String> {
    let text = bip37_harness::input_file::read_text(path, MAX_MATRIX_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::matrix::json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The largest matrix read: the committed one is about 100 KB.
const MAX_MATRIX_BYTES: u64 = 64 * 1024 * 1024;

fn load_manifests(dir: &Path) -> Result<Vec<Manifest>, String> {
    crate::adapters::manifest::load_all(dir).map_err(|e| e.to_string())
}

/// The subject of the manifests of `column` (of `node` kind or not), which must agree on the
/// library; none when no manifest names the column.
fn subject_of(column: &str, node: bool, manifests: &[Manifest]) -> Result<Option<Subject>, String> {
    let mut of_column = manifests
        .iter()
        .filter(|m| (m.kind == Kind::Node) == node && m.column() == column);
    let Some(first) = of_column.next() else {
        return Ok(None);
    };
    if let Some(other) = of_column.find(|m| m.library != first.library) {
        return Err(format!(
            "the manifests {} and {} share the column {column} but pin different libraries",
            first.name, other.name
        ));
    }
    Ok(Some(Subject {
        column: column.to_string(),
        family: status::family(&first.library.registry, &first.library.name),
        library: first.library.clone(),
        node,
    }))
}

/// The expectations files of the manifests of `column`, loaded from under `root`.
fn expectations_of(
    root: &Path,
    column: &str,
    node: bool,
    manifests: &[Manifest],
) -> Result<Vec<(PathBuf, Expectations)>, String> {
    let mut files: Vec<PathBuf> = manifests
        .iter()
        .filter(|m| (m.kind == Kind::Node) == node && m.column() == column)
        .map(|m| m.expectations.clone())
        .collect();
    files.sort();
    files.dedup();
    files
        .into_iter()
        .map(|path| {
            Expectations::load(&root.join(&path))
                .map(|e| (path.clone(), e))
                .map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

/// The entry of `id` in `files`: its state and reason.
fn expected<'a>(
    files: &'a [(PathBuf, Expectations)],
    id: &str,
) -> Option<(&'a Path, State, &'a str)> {
    files.iter().find_map(|(path, e)| {
        e.failures
            .get(id)
            .map(|entry| (path.as_path(), entry.state, entry.reason.as_str()))
    })
}
