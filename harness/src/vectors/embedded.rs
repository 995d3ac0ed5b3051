//! The vector files compiled into the harness, so an installed `bip37-conform` runs the whole
//! suite without a checkout. The list `FILES` is derived from the directory by the build script
//! (`build.rs`): the generator's `vectors/*_test.json`, then `vectors/imported/*_test.json`
//! named `imported/<file>`. A new vector file needs no edit here.

use super::load::{parse_file, LoadedFile, VectorError};

include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));

/// The embedded files, parsed.
pub fn load() -> Result<Vec<LoadedFile>, VectorError> {
    FILES
        .iter()
        .map(|(name, text)| parse_file(name, text))
        .collect()
}
