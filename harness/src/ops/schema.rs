//! The JSON Schema of each operation's input and output (with the `schema` feature), generated
//! from the operation table: `bip37-vectorgen` ties each one to a vector group's `operation`
//! when it writes `vectors/vectors.schema.json`, so a new operation's row is all the schema
//! needs.

use super::*;
use schemars::{Schema, SchemaGenerator};

/// One operation's schemas, as references into the generator's definitions.
#[derive(Debug, Clone)]
pub struct OperationSchema {
    /// The operation.
    pub op: OpName,
    /// The schema of its input object.
    pub input: Schema,
    /// The schema of its output object.
    pub output: Schema,
}

macro_rules! operation_schemas {
    ($( $variant:ident = $name:literal fn $method:ident ($input:ty => $output:ty) phase $phase:ident : $doc:literal; )*) => {
        /// Every operation's schemas, in table order; the types' definitions are added to
        /// `generator`.
        pub fn operations(generator: &mut SchemaGenerator) -> Vec<OperationSchema> {
            vec![$(OperationSchema {
                op: OpName::$variant,
                input: generator.subschema_for::<$input>(),
                output: generator.subschema_for::<$output>(),
            },)*]
        }
    };
}

operation_table!(operation_schemas);
