//! The matrix as JSON, for tools: `{"matrixFormat": 1, "mode", "columns", "rows"}`, each row with
//! every test id and one cell per column (`state`, `diagnosis`, `detail`).

use super::Matrix;
use serde::Serialize;

/// The version of this JSON shape; it changes when a field changes meaning or goes away.
pub const MATRIX_FORMAT: u32 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document<'a> {
    matrix_format: u32,
    #[serde(flatten)]
    matrix: &'a Matrix,
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
