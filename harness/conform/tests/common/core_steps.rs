//! The enumeration of Core's steps, `docs/CORE-STEPS.md`, read as data: each step with the
//! bug class that breaks it and the vector that separates that class with the fewest
//! capabilities, or no class (the table of steps no class separates).

use std::path::PathBuf;

/// One row of the enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub id: String,
    /// The class's flag and the vector's id, or `None` for a step no class separates.
    pub class: Option<(String, String)>,
}

/// The enumeration's path.
pub fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/CORE-STEPS.md")
}

/// The text between the first pair of backticks of a table cell, if the cell is one code span.
fn code(cell: &str) -> Option<String> {
    let inner = cell.trim().strip_prefix('`')?.strip_suffix('`')?;
    (!inner.is_empty() && !inner.contains('`')).then(|| inner.to_string())
}

/// Every step of the enumeration, in file order: rows of 4 cells name a class and a vector,
/// rows of 3 cells are steps no class separates.
pub fn steps() -> Vec<Step> {
    let text = std::fs::read_to_string(path()).expect("docs/CORE-STEPS.md reads");
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .strip_prefix('|')?
                .strip_suffix('|')?
                .split('|')
                .collect();
            let id = code(cells[0])?;
            let class = match cells.len() {
                4 => Some((
                    code(cells[2]).unwrap_or_else(|| panic!("{id}: no class in `{line}`")),
                    code(cells[3]).unwrap_or_else(|| panic!("{id}: no vector in `{line}`")),
                )),
                3 => None,
                _ => panic!("{id}: a step row has 3 or 4 cells: `{line}`"),
            };
            Some(Step { id, class })
        })
        .collect()
}
