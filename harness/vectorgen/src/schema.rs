//! `vectors/vectors.schema.json`, derived rather than written by hand: schemars reads the serde
//! types of the vector format (`bip37_harness::vectors::model`) and of every operation's input
//! and output (`bip37_harness::ops`, listed by the operation table), with the doc comments as
//! descriptions and the `#[schemars]` attributes beside the serde ones (constants, patterns,
//! minimum lengths, the `expected` field that only `invalid` tests lack). The generator writes
//! it with the vectors and `--check` demands the committed copy is identical, so a new
//! operation or field reaches the schema by regeneration, not by editing JSON.
//!
//! Two steps are added after derivation, each because serde types cannot say it:
//! - the tie from a group's `operation` to the type of its `input` and `expected`: one
//!   `if`/`then` per row of the operation table. A group's `input` and each test's `input` each
//!   hold part of the operation's input (they are merged before parsing), so both are checked
//!   against the input type's fields without its `required` list (`<Type>Fields`).
//! - the ceiling of a `u32` (`maximum` 4294967295): schemars 1 writes only `minimum` for u32.

use crate::{GenError, GeneratedFile};
use bip37_harness::ops::schema::{operations, OperationSchema};
use bip37_harness::vectors::model::{VectorFile, SCHEMA_FILE};
use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};

/// The schema file, in canonical text (pretty JSON and a newline, like the vectors).
pub fn file() -> Result<GeneratedFile, GenError> {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let ops = operations(&mut generator);
    let mut root = generator.root_schema_for::<VectorFile>().to_value();
    cap_u32(&mut root);
    tie_operations(&mut root, &ops)?;
    let mut text = serde_json::to_string_pretty(&root)
        .map_err(|e| GenError(format!("the schema does not serialize: {e}")))?;
    text.push('\n');
    Ok(GeneratedFile {
        name: SCHEMA_FILE.into(),
        text,
    })
}

/// Adds `maximum: u32::MAX` to every `uint32` schema.
fn cap_u32(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.get("format") == Some(&json!("uint32")) {
                object.entry("maximum").or_insert_with(|| json!(u32::MAX));
            }
            object.values_mut().for_each(cap_u32);
        }
        Value::Array(items) => items.iter_mut().for_each(cap_u32),
        _ => {}
    }
}

/// Adds to `TestGroup` one `if operation = X then input and expected have X's types` per
/// operation, with the `<Input>Fields` definitions they use.
fn tie_operations(root: &mut Value, ops: &[OperationSchema]) -> Result<(), GenError> {
    let defs = root
        .get_mut("$defs")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| GenError("the derived schema has no $defs".into()))?;
    let mut ties = Vec::new();
    for op in ops {
        let fields = fields_definition(defs, &op.input)?;
        let fields = json!({ "$ref": format!("#/$defs/{fields}") });
        ties.push(json!({
            "if": {"properties": {"operation": {"const": op.op.as_str()}}},
            "then": {"properties": {
                "input": fields,
                "tests": {"items": {"properties": {
                    "input": fields,
                    "expected": op.output.as_value(),
                }}},
            }},
        }));
    }
    let group = defs
        .get_mut("TestGroup")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| GenError("the derived schema has no TestGroup".into()))?;
    group.insert("allOf".into(), Value::Array(ties));
    Ok(())
}

/// The name of the definition holding the fields of `input` (a reference to an object type)
/// with none required, added to `defs` on first use.
fn fields_definition(
    defs: &mut Map<String, Value>,
    input: &schemars::Schema,
) -> Result<String, GenError> {
    let name = input
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .ok_or_else(|| GenError(format!("an operation input is not a named type: {input:?}")))?;
    let fields = format!("{name}Fields");
    if !defs.contains_key(&fields) {
        let mut definition = defs
            .get(name)
            .and_then(Value::as_object)
            .filter(|d| d.contains_key("properties"))
            .cloned()
            .ok_or_else(|| {
                GenError(format!(
                    "the input type {name} is not an object with fields, which the vector \
                     format splits between a group's and a test's input"
                ))
            })?;
        definition.remove("required");
        let description = format!(
            "Fields of a {name}, split between the group's and the test's `input` (together \
             they must be complete)."
        );
        definition.insert("description".into(), description.into());
        defs.insert(fields.clone(), Value::Object(definition));
    }
    Ok(fields)
}
