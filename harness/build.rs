//! Derives the list of embedded vector files from the vector directory: every
//! `../vectors/*_test.json` (the generator's) and `../vectors/imported/*_test.json` (imported
//! findings) becomes an `include_str!` entry of `$OUT_DIR/embedded_vectors.rs`, which
//! `src/vectors/embedded.rs` includes. A new vector file therefore needs no edit anywhere.
//!
//! The directory is outside this crate, as the `include_str!` paths were before: the crate
//! builds from a checkout of the repository (a path dependency, `cargo install --path` or
//! `--git`), which is how it is distributed; a packaged copy without `../vectors` stops here
//! with that explanation.

use std::fs;
use std::path::{Path, PathBuf};

fn test_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with("_test.json"))
        .collect();
    paths.sort();
    paths
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let vectors = Path::new(&manifest).join("../vectors");
    // A directory here makes cargo rerun the script when any file in it changes or appears.
    println!("cargo:rerun-if-changed={}", vectors.display());
    let generated = test_files(&vectors);
    assert!(
        !generated.is_empty(),
        "no vector files in {}: bip37-harness builds from a checkout of the bip37-conformance \
         repository (path or git dependency), whose vectors/ directory it embeds",
        vectors.display()
    );
    let imported = test_files(&vectors.join("imported"));
    let mut table = String::from(
        "/// Every vector file: its suite name and its text, the generator's files sorted by name,\n\
         /// then the imported ones.\npub const FILES: &[(&str, &str)] = &[\n",
    );
    let entries = generated
        .iter()
        .map(|p| (String::new(), p))
        .chain(imported.iter().map(|p| ("imported/".to_string(), p)));
    for (prefix, path) in entries {
        let file = path.file_name().expect("a listed file").to_string_lossy();
        let absolute = fs::canonicalize(path).expect("a listed file resolves");
        table.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            format!("{prefix}{file}"),
            absolute.to_string_lossy()
        ));
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("embedded_vectors.rs"), table).expect("OUT_DIR is writable");
}
