//! The messages of the subprocess protocol, version 1 (specified in `docs/PROTOCOL.md`): one
//! JSON object per line, a `hello` from the child first, then one answer per request.

use crate::capabilities::Capabilities;
use crate::implementation::{Answer, Fault, Rejection, Stage};
use crate::ops::wide::WideAnswer;
use crate::ops::{OpName, Output};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this harness speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The first line a child writes: `{"hello": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HelloLine {
    pub hello: Hello,
}

/// The handshake: protocol version, who is speaking and what it supports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    pub implementation: String,
    #[serde(default)]
    pub version: String,
    /// Wire names of the supported operations; names this harness does not know are never
    /// sent, and a run warns about them.
    pub operations: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The inputs of claimed operations it declares it cannot take (docs/PROTOCOL.md,
    /// "Capabilities"); absent, it claims every input.
    #[serde(default, skip_serializing_if = "Capabilities::is_everything")]
    pub capabilities: Capabilities,
}

impl Hello {
    /// The claimed operations this harness knows.
    pub fn known_operations(&self) -> Vec<OpName> {
        self.operations
            .iter()
            .filter_map(|name| OpName::from_name(name))
            .collect()
    }

    /// The claimed operation names this harness does not know.
    pub fn unknown_operations(&self) -> Vec<String> {
        self.operations
            .iter()
            .filter(|name| OpName::from_name(name).is_none())
            .cloned()
            .collect()
    }
}

/// A request line: `{"id": 7, "op": "murmur3", "input": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestLine {
    pub id: u64,
    pub op: String,
    pub input: Value,
}

/// An answer line: an id and one of three statuses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerLine {
    pub id: u64,
    #[serde(flatten)]
    pub body: AnswerBody,
}

/// What an answer says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum AnswerBody {
    /// A result, shaped like a vector's `expected`.
    Ok { output: Value },
    /// The implementation rejects the input.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stage: Option<Stage>,
        #[serde(default)]
        message: String,
    },
    /// The operation, or this shape of input, is not supported.
    Unsupported {
        #[serde(default)]
        message: String,
    },
}

impl AnswerBody {
    /// The answer line for an [`Answer`] (a fault is reported as an error in its own words).
    pub fn from_answer(answer: &Answer<Output>) -> Self {
        match answer {
            Answer::Ok(output) => AnswerBody::Ok {
                output: output.to_json(),
            },
            Answer::Rejected(r) => AnswerBody::Error {
                stage: r.stage,
                message: r.message.clone(),
            },
            Answer::Unsupported => AnswerBody::Unsupported {
                message: String::new(),
            },
            Answer::Wide(wide) => AnswerBody::Ok {
                output: wide.output.clone(),
            },
            Answer::Fault(fault) => AnswerBody::Error {
                stage: None,
                message: fault.to_string(),
            },
        }
    }

    /// The typed answer to a request for `op`; an output of the wrong shape is a protocol error,
    /// but one that is right once its integers wider than 32 bits are wrapped is a wrong value
    /// ([`WideAnswer`]: a seed never wrapped is a classic mistake, not a broken line).
    pub fn into_answer(self, op: OpName) -> Answer<Output> {
        match self {
            AnswerBody::Ok { output } => match Output::from_json(op, &output) {
                Ok(output) => Answer::Ok(output),
                Err(e) => match WideAnswer::from_json(op, &output) {
                    Some(wide) => Answer::Wide(wide),
                    None => Answer::Fault(Fault::Protocol(format!("`output` of {op}: {e}"))),
                },
            },
            AnswerBody::Error { stage, message } => Answer::Rejected(Rejection { stage, message }),
            AnswerBody::Unsupported { .. } => Answer::Unsupported,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_parse_as_documented() {
        let ok: AnswerLine =
            serde_json::from_value(json!({"id": 7, "status": "ok", "output": {"hash": 1}}))
                .unwrap();
        assert_eq!(ok.id, 7);
        assert!(matches!(
            ok.body.into_answer(OpName::Murmur3),
            Answer::Ok(Output::Murmur3(_))
        ));
        let err: AnswerLine = serde_json::from_value(
            json!({"id": 8, "status": "error", "stage": "decode", "message": "truncated"}),
        )
        .unwrap();
        assert_eq!(
            err.body.into_answer(OpName::FilteraddDecode),
            Answer::reject(Stage::Decode, "truncated")
        );
        let unsupported: AnswerLine =
            serde_json::from_value(json!({"id": 9, "status": "unsupported"})).unwrap();
        assert_eq!(
            unsupported.body.into_answer(OpName::Sizing),
            Answer::Unsupported
        );
    }

    #[test]
    fn a_wrong_output_shape_is_a_protocol_error() {
        let body = AnswerBody::Ok {
            output: json!({"hash": "x"}),
        };
        assert!(matches!(
            body.into_answer(OpName::Murmur3),
            Answer::Fault(Fault::Protocol(m)) if m.contains("hash")
        ));
    }
}
