//! The deterministic generator of the vector files (binary `bip37-vectorgen`): a tool for the
//! project's maintainers, in its own unpublished crate so that neither the library
//! `bip37-harness` nor `cargo install bip37-conform` carries it (it replaces the former
//! `maintainer` feature). It depends on the library for the vectors' model and the mutants.
//!
//! One submodule writes one file with the [`builder`] API; [`FILES`] lists them, so adding a
//! vector file means adding one module and one line there. Every generated test proves that it
//! separates the mistakes it names: the module computes the mistaken implementation's answer
//! and the builder refuses a test whose expected result would not tell the two apart. Figures
//! from Core and the literature are transcribed in the modules with their source, never taken
//! from the reference, so the lint's re-derivation checks the reference against them.
//!
//! The output is canonical: `serde_json` pretty printing (2-space indent) plus a newline, so
//! `bip37-vectorgen --check` can demand that the committed files are byte-identical.

pub mod builder;
mod core_facts;
mod filter;
mod matching;
mod merkle;
mod murmur3;
pub mod oracle;
mod schema;
mod sequence;
mod sizing;
mod synthetic;
mod wire;

use bip37_harness::flags;
use bip37_harness::vectors::model::VectorFile;
use bip37_harness::vectors::render;
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

/// A generator module that does not hold together (a test that separates nothing, a flag
/// missing from the catalog, ...). The message names the test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError(pub String);

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

/// A generator module's entry point: the file name and its contents.
pub type FileWriter = fn() -> Result<(String, VectorFile), GenError>;

/// The writer of each vector file.
pub const FILES: &[FileWriter] = &[
    murmur3::file,
    sizing::file,
    filter::file,
    wire::file,
    matching::file,
    merkle::file,
    sequence::file,
];

/// One file as the generator writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// `<area>_test.json`.
    pub name: String,
    /// The canonical text.
    pub text: String,
}

/// Every vector file, checked for ids unique across files and for catalog flags no file uses,
/// and last the JSON Schema they follow, derived from their types (`schema`).
pub fn generate() -> Result<Vec<GeneratedFile>, GenError> {
    let files = FILES
        .iter()
        .map(|write| write())
        .collect::<Result<Vec<_>, _>>()?;
    let mut ids = BTreeSet::new();
    let mut used = BTreeSet::new();
    for (name, file) in &files {
        for test in file.test_groups.iter().flat_map(|g| &g.tests) {
            if !ids.insert(test.id.as_str()) {
                return Err(GenError(format!("{name}: id {} is used twice", test.id)));
            }
        }
        used.extend(file.notes.keys().map(String::as_str));
    }
    if let Some(unused) = flags::CATALOG.iter().find(|f| !used.contains(f.name)) {
        return Err(GenError(format!(
            "catalog flag {} is used by no test",
            unused.name
        )));
    }
    let mut generated: Vec<GeneratedFile> = files
        .iter()
        .map(|(name, file)| GeneratedFile {
            name: name.clone(),
            text: render(file),
        })
        .collect();
    generated.push(schema::file()?);
    Ok(generated)
}

/// Writes every file into `dir`.
pub fn write_dir(dir: &Path, files: &[GeneratedFile]) -> std::io::Result<()> {
    for file in files {
        bip37_harness::atomic_file::write(&dir.join(&file.name), file.text.as_bytes())?;
    }
    Ok(())
}

/// The differences between `dir` and the generator's output: files that differ or are missing,
/// and `*_test.json` files the generator does not write. Empty when `dir` is up to date. The
/// generator owns the top level of `dir` only: `dir/imported/` is the imported vectors' home
/// (`bip37_harness::vectors::imported`).
pub fn check_dir(dir: &Path, files: &[GeneratedFile]) -> Result<Vec<String>, GenError> {
    let mut problems = Vec::new();
    for file in files {
        match std::fs::read_to_string(dir.join(&file.name)) {
            Ok(text) if text == file.text => {}
            Ok(_) => problems.push(format!("{} differs from the generator's output", file.name)),
            Err(e) => problems.push(format!("{} cannot be read: {e}", file.name)),
        }
    }
    let written: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let on_disk = bip37_harness::vectors::test_files(dir).map_err(|e| GenError(e.to_string()))?;
    for path in on_disk {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(name) = name.filter(|n| !written.contains(n.as_str())) {
            problems.push(format!("{name} is not written by the generator"));
        }
    }
    Ok(problems)
}
