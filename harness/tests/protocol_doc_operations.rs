//! docs/PROTOCOL.md agrees with the code and the vectors, so it cannot drift: its table of
//! operations has every operation, in table order, with the input and output fields its types
//! have (read from the schema derived from those types, `vectors/vectors.schema.json`); each
//! operation's section opens with the operation table's line for it, and its *Must reject* and
//! *Acceptable* lines name exactly the phases of its `invalid` vectors and the divergences of
//! its `acceptable` ones; every example is answered by the reference exactly; and the Policies
//! table is the notes of the flags whose verdict is the suite's choice.

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::mutants::Bug;
use bip37_harness::ops::{OpName, Output, Request};
use bip37_harness::reference_impl::Reference;
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

/// The section of `docs/PROTOCOL.md` from `heading` to the next heading of the same level.
fn doc_section(heading: &str) -> String {
    let doc = read("../docs/PROTOCOL.md");
    let level = heading.split(' ').next().unwrap();
    let rest = doc
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/PROTOCOL.md has no {heading:?}"))
        .1;
    rest.split(&format!("\n{level} "))
        .next()
        .unwrap()
        .to_string()
}

/// Each operation's section under "## Operations", in the order of the page.
fn operation_sections() -> Vec<(String, String)> {
    doc_section("## Operations")
        .split("\n### `")
        .skip(1)
        .map(|part| {
            let (op, body) = part.split_once("`\n").expect("### `op`");
            (op.to_owned(), body.to_owned())
        })
        .collect()
}

/// The names in backticks on the line of `section` that starts with `label`.
fn listed(section: &str, label: &str) -> BTreeSet<String> {
    let line = section
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} line in {section}"));
    quoted(line).into_iter().collect()
}

/// Per operation, the phases of its `invalid` vectors and the divergences of its `acceptable`
/// ones, read from the generated vector files.
fn judged_by_vectors() -> Vec<(OpName, BTreeSet<String>, BTreeSet<String>)> {
    let divergences: BTreeSet<&str> = bip37_harness::flags::CATALOG
        .iter()
        .map(|f| f.name)
        .collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let files: Vec<Value> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("_test.json"))
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect();
    OpName::ALL
        .iter()
        .map(|&op| {
            let (mut phases, mut flags) = (BTreeSet::new(), BTreeSet::new());
            let groups = files
                .iter()
                .flat_map(|f| f["testGroups"].as_array().unwrap());
            for group in groups.filter(|g| g["operation"] == op.as_str()) {
                for test in group["tests"].as_array().unwrap() {
                    match test["result"].as_str().unwrap() {
                        "invalid" => {
                            phases.insert(test["phase"].as_str().unwrap().to_owned());
                        }
                        "acceptable" => flags.extend(
                            (test["flags"].as_array().unwrap().iter())
                                .map(|f| f.as_str().unwrap())
                                .filter(|f| divergences.contains(f))
                                .map(str::to_owned),
                        ),
                        _ => {}
                    }
                }
            }
            (op, phases, flags)
        })
        .collect()
}

#[test]
fn each_operation_has_its_section_with_the_table_line_and_its_verdicts() {
    let sections = operation_sections();
    let names: Vec<&str> = sections.iter().map(|(op, _)| op.as_str()).collect();
    let wanted: Vec<&str> = OpName::ALL.iter().map(|op| op.as_str()).collect();
    assert_eq!(
        names, wanted,
        "one ### section per operation, in table order"
    );
    for ((_, body), (op, phases, flags)) in sections.iter().zip(judged_by_vectors()) {
        let opening = format!("\n*{}*\n", op.doc());
        assert!(
            body.starts_with(&opening),
            "{op}: the section must open with {opening:?}"
        );
        assert_eq!(listed(body, "Must reject:"), phases, "{op}: Must reject");
        assert_eq!(listed(body, "Acceptable:"), flags, "{op}: Acceptable");
    }
}

/// The ```json examples of the operation sections (moved here from vectors/README.md, whose
/// check this is).
fn examples() -> Vec<(String, Value)> {
    operation_sections()
        .into_iter()
        .flat_map(|(op, body)| {
            body.split("```json\n")
                .skip(1)
                .filter_map(|block| block.split("\n```").next())
                .map(|json| serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}")))
                .map(move |v: Value| (op.clone(), v))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_example_is_answered_by_the_reference() {
    let mut covered = BTreeSet::new();
    for (section, example) in examples() {
        let name = example["operation"].as_str().unwrap();
        assert_eq!(name, section, "an example of {name} under {section}");
        let op = OpName::from_name(name).unwrap_or_else(|| panic!("unknown operation {name}"));
        covered.insert(op);
        let request = Request::from_json(op, &example["input"]).unwrap();
        let expected = Output::from_json(op, &example["expected"]).unwrap();
        match Reference.execute(&request) {
            Answer::Ok(got) => assert_eq!(got, expected, "{name}: got {}", got.to_json()),
            other => panic!("{name}: the reference answers {other:?}"),
        }
    }
    let missing: Vec<_> = OpName::ALL
        .iter()
        .filter(|op| !covered.contains(op))
        .collect();
    assert!(missing.is_empty(), "no example for {missing:?}");
}

/// The rows of the Policies table: every flag whose verdict is the suite's choice, from the
/// notes the vectors carry (the divergences, then the bug classes with a policy).
fn policy_rows() -> Vec<String> {
    let divergences = bip37_harness::flags::CATALOG
        .iter()
        .map(|f| (f.name, "acceptable"));
    let classes = (Bug::ALL.iter())
        .filter(|bug| bug.note().policy.is_some())
        .map(|bug| (bug.flag(), "invalid"));
    divergences
        .chain(classes)
        .map(|(name, result)| {
            let note = bip37_harness::flags::note(name).unwrap();
            format!(
                "| `{name}` | {result} | {} {} | {} |",
                note.description,
                note.effect,
                note.policy.unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn the_policies_table_is_the_notes() {
    let section = doc_section("### Policies");
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("| flag |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let wanted = policy_rows();
    assert_eq!(
        rows,
        wanted,
        "the Policies table of docs/PROTOCOL.md:\n{}",
        wanted.join("\n")
    );
}
