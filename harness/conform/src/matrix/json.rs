//! The matrix as JSON, for tools: `{"matrixFormat": 1, "mode", "columns", "rows"}`, each row with
//! every test id and one cell per column (`state`, `diagnosis`, `detail`). [`parse`] reads it
//! back, for the commands that work from a committed matrix (`bip37-conform findings`).

use super::Matrix;
use serde::{Deserialize, Serialize};

/// The version of this JSON shape; it changes when a field changes meaning or goes away.
pub const MATRIX_FORMAT: u32 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document<'a> {
    matrix_format: u32,
    #[serde(flatten)]
    matrix: &'a Matrix,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OwnedDocument {
    matrix_format: u32,
    #[serde(flatten)]
    matrix: Matrix,
}

/// The pretty-printed JSON document of `matrix`, newline-terminated.
pub fn render(matrix: &Matrix) -> String {
    let document = Document {
        matrix_format: MATRIX_FORMAT,
        matrix,
    };
    // Only strings, numbers, lists and maps with string keys: serializing cannot fail.
    let text = serde_json::to_string_pretty(&document).expect("the matrix serializes to JSON");
    // Hidden characters from adapters (a bidirectional override in a name) as `\uXXXX`.
    bip37_harness::report::escape::json(&text).into_owned() + "\n"
}

/// The matrix of a JSON document [`render`] wrote; another `matrixFormat` is refused, as is a
/// row whose cells do not match the columns.
pub fn parse(text: &str) -> Result<Matrix, String> {
    let document: OwnedDocument =
        serde_json::from_str(text).map_err(|e| format!("not a bip37-conform matrix: {e}"))?;
    if document.matrix_format != MATRIX_FORMAT {
        return Err(format!(
            "matrixFormat {} (this bip37-conform reads {MATRIX_FORMAT})",
            document.matrix_format
        ));
    }
    let matrix = document.matrix;
    let width = matrix.columns.len();
    if let Some(row) = matrix.rows.iter().find(|r| r.cells.len() != width) {
        return Err(format!(
            "the row of {} has {} cells for {width} columns",
            row.tests.first().map_or("no test", String::as_str),
            row.cells.len()
        ));
    }
    if let Some(nodes) = &matrix.nodes {
        let width = nodes.columns.len();
        if let Some(row) = nodes.rows.iter().find(|r| r.cells.len() != width) {
            return Err(format!(
                "the node row {} has {} cells for {width} columns",
                row.id,
                row.cells.len()
            ));
        }
    }
    Ok(matrix)
}
