//! CONTRIBUTING.md names real places: every path it writes in backticks exists (for a path with
//! a `<placeholder>` or `*`, the directory before it), so a moved file cannot leave the guide pointing
//! nowhere.

use std::path::Path;

#[test]
fn every_path_in_the_contributors_guide_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap();
    let paths: Vec<&str> = guide
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| !quoted.contains(' ') && quoted.contains('/') && !quoted.contains("::"))
        .collect();
    assert!(paths.len() > 30, "too few paths found: {paths:?}");
    let missing: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|path| {
            // The directory before the first placeholder (`<name>`, `*`).
            let fixed = path.split(['<', '*']).next().unwrap_or_default();
            let known = if fixed.len() < path.len() {
                fixed.rsplit_once('/').map_or("", |(dir, _)| dir)
            } else {
                fixed
            };
            !root.join(known).exists()
        })
        .collect();
    assert!(
        missing.is_empty(),
        "CONTRIBUTING.md names missing paths: {missing:?}"
    );
}
