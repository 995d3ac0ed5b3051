//! Where the record is when `--record` is not given: in the checkout the command runs in,
//! never in the tree the binary was built from (an installed or copied binary run in another
//! checkout must not write into its build tree).
//!
//! With `--vectors DIR` the record is `DIR/live-node/record.json`, next to the vectors it
//! confirms (the suite's own layout: `vectors/live-node/record.json`). Without it, the
//! nearest directory at or above the current one that holds `vectors/live-node/` is the
//! checkout. Found nowhere, `regen` stops and asks for `--record`.

use super::error::RegenError;
use std::path::{Path, PathBuf};

/// The record's place inside a vector directory.
const IN_VECTORS: &str = "live-node/record.json";

/// The record of `--vectors` if given, else of the checkout containing `current_dir`.
pub fn default_record(vectors: Option<&Path>, current_dir: &Path) -> Result<PathBuf, RegenError> {
    if let Some(dir) = vectors {
        return Ok(dir.join(IN_VECTORS));
    }
    current_dir
        .ancestors()
        .map(|dir| dir.join("vectors"))
        .find(|vectors| vectors.join("live-node").is_dir())
        .map(|vectors| vectors.join(IN_VECTORS))
        .ok_or_else(|| RegenError::NoRecordPath {
            searched_from: current_dir.display().to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("regen-record-path-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_checkout_is_found_from_a_subdirectory() {
        let root = scratch("checkout");
        fs::create_dir_all(root.join("vectors/live-node")).unwrap();
        fs::create_dir_all(root.join("harness/src")).unwrap();
        for dir in [root.clone(), root.join("harness/src"), root.join("vectors")] {
            assert_eq!(
                default_record(None, &dir).unwrap(),
                root.join("vectors/live-node/record.json"),
                "from {}",
                dir.display()
            );
        }
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn vectors_take_precedence_over_the_checkout() {
        let root = scratch("vectors");
        fs::create_dir_all(root.join("vectors/live-node")).unwrap();
        assert_eq!(
            default_record(Some(Path::new("/elsewhere/v")), &root).unwrap(),
            Path::new("/elsewhere/v/live-node/record.json")
        );
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn outside_a_checkout_it_asks_for_record() {
        let dir = scratch("outside");
        let err = default_record(None, &dir).unwrap_err();
        assert!(err.to_string().contains("--record"), "{err}");
        fs::remove_dir_all(dir).unwrap();
    }
}
