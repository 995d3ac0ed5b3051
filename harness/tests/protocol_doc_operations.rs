//! docs/PROTOCOL.md's table of operations agrees with the operation table: every operation, in
//! table order, with the input and output fields its types have (read from the schema derived
//! from those types, `vectors/vectors.schema.json`).

use bip37_harness::ops::OpName;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The names in backticks in one cell.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The documented operations with their input and output fields, row by row.
fn documented() -> Vec<(String, BTreeSet<String>, BTreeSet<String>)> {
    let doc = read("../docs/PROTOCOL.md");
    let section = doc
        .split("## Operations")
        .nth(1)
        .expect("docs/PROTOCOL.md has an Operations section");
    let mut rows = Vec::new();
    for line in section
        .lines()
        .skip_while(|l| !l.starts_with("| op |"))
        .skip(2)
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            break;
        }
        let (input, output) = (quoted(cells[2]), quoted(cells[3]));
        for op in quoted(cells[1]) {
            rows.push((
                op,
                input.iter().cloned().collect(),
                output.iter().cloned().collect(),
            ));
        }
    }
    rows
}

/// The property names of the schema definition `reference` points at.
fn fields(schema: &Value, reference: &Value) -> BTreeSet<String> {
    let name = reference["$ref"]
        .as_str()
        .unwrap()
        .trim_start_matches("#/$defs/");
    schema["$defs"][name]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{name} has no properties"))
        .keys()
        .cloned()
        .collect()
}

#[test]
fn the_protocol_doc_lists_every_operation_with_its_fields() {
    let schema: Value = serde_json::from_str(&read("../vectors/vectors.schema.json")).unwrap();
    let ties = schema["$defs"]["TestGroup"]["allOf"].as_array().unwrap();
    let expected: Vec<(String, BTreeSet<String>, BTreeSet<String>)> = OpName::ALL
        .iter()
        .map(|op| {
            let tie = ties
                .iter()
                .find(|t| t["if"]["properties"]["operation"]["const"] == op.as_str())
                .unwrap_or_else(|| panic!("the schema does not tie {op}"));
            let then = &tie["then"]["properties"];
            let input = fields(&schema, &then["input"]);
            let output = fields(&schema, &then["tests"]["items"]["properties"]["expected"]);
            (op.as_str().to_owned(), input, output)
        })
        .collect();
    assert_eq!(documented(), expected);
}
