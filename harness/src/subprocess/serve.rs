//! The child side of the subprocess protocol: any [`Implementation`] answering requests read
//! from a stream (`bip37-conform serve` puts the reference on stdio this way).

use super::pipes::{next_line, Line};
use super::protocol::{AnswerBody, Hello, HelloLine, RequestLine, PROTOCOL_VERSION};
use crate::implementation::{Answer, Fault, Implementation};
use crate::ops::{OpName, Request};
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, Write};

/// The longest request line read, in bytes: twice the largest vector file, so any test's
/// input fits; a longer line is answered with an error and skipped.
pub const MAX_REQUEST_LINE: usize = 64 << 20;

/// An answer line whose id may be unknown (`null`): for a line with no id that parses.
#[derive(Serialize)]
struct Reply<'a> {
    id: Option<u64>,
    #[serde(flatten)]
    body: &'a AnswerBody,
}

/// Just the id of a request line, for answering a line whose other fields do not parse. serde
/// skips the other fields without recursion and without converting numbers, so a deeply nested
/// or out-of-range `input` does not hide the id.
#[derive(Deserialize)]
struct IdOnly {
    id: u64,
}

/// Says hello, then answers every line of `input` on `output` until `input` ends: a request
/// with its answer; any other non-blank line (not JSON, not UTF-8, a body that does not parse,
/// longer than [`MAX_REQUEST_LINE`]) with an `error` under its id, or under `id: null` when no
/// id can be read from it. Nothing read ends the server; `errors` gets a note per bad line.
pub fn serve(
    implementation: &mut dyn Implementation,
    mut input: impl BufRead,
    mut output: impl Write,
    mut errors: impl Write,
) -> io::Result<()> {
    let operations = implementation.operations();
    let hello = HelloLine {
        hello: Hello {
            protocol: PROTOCOL_VERSION,
            implementation: implementation.name(),
            version: implementation.version(),
            operations: operations
                .iter()
                .map(|op| op.as_str().to_string())
                .collect(),
            notes: implementation.notes(),
            capabilities: implementation.capabilities(),
        },
    };
    write_line(&mut output, &hello)?;
    loop {
        let (id, body) = match next_line(&mut input, MAX_REQUEST_LINE) {
            Line::End => return Ok(()),
            Line::Failed(why) => return Err(io::Error::other(why)),
            Line::TimedOut => continue,
            Line::Oversized { limit } => {
                (None, refusal(format!("a line longer than {limit} bytes")))
            }
            Line::Text(line) if line.trim_ascii().is_empty() => continue,
            Line::Text(line) => match serde_json::from_slice::<RequestLine>(&line) {
                Ok(request) => (
                    Some(request.id),
                    answer(implementation, &operations, &request)?,
                ),
                Err(e) => {
                    let id = serde_json::from_slice::<IdOnly>(&line).ok().map(|r| r.id);
                    (id, refusal(format!("not a request line: {e}")))
                }
            },
        };
        if let AnswerBody::Error { message, .. } = &body {
            if id.is_none() {
                writeln!(errors, "bip37-conform serve: {message}")?;
            }
        }
        write_line(&mut output, &Reply { id, body: &body })?;
    }
}

fn refusal(message: String) -> AnswerBody {
    AnswerBody::Error {
        stage: None,
        message,
    }
}

/// The answer to one request line (`operations`: the implementation's, asked once); a crash the implementation models (a mutant's) ends the
/// server, so the client sees the process die as it would with a real implementation.
fn answer(
    implementation: &mut dyn Implementation,
    operations: &[OpName],
    request: &RequestLine,
) -> io::Result<AnswerBody> {
    let Some(op) = OpName::from_name(&request.op) else {
        return Ok(AnswerBody::Unsupported {
            message: format!("unknown operation {:?}", request.op),
        });
    };
    if !operations.contains(&op) {
        return Ok(AnswerBody::Unsupported {
            message: format!("{op} is not supported"),
        });
    }
    match Request::from_json(op, &request.input) {
        Ok(typed) => match implementation.execute(&typed) {
            Answer::Fault(Fault::Crash(why)) => Err(io::Error::other(format!(
                "{} crashed on request {}: {why}",
                implementation.name(),
                request.id
            ))),
            answered => Ok(AnswerBody::from_answer(&answered)),
        },
        Err(e) => Ok(AnswerBody::Error {
            stage: None,
            message: format!("the input does not fit {op}: {e}"),
        }),
    }
}

fn write_line(output: &mut impl Write, message: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *output, message)?;
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference_impl::Reference;
    use serde_json::{json, Value};

    fn answers(input: &[u8]) -> Vec<Value> {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        serve(&mut Reference, input, &mut out, &mut err).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn hello_then_one_answer_per_line() {
        let input = concat!(
            r#"{"id": 7, "op": "murmur3", "input": {"seed": 0, "data": "00"}}"#,
            "\nnot json\n\n",
            r#"{"id": 8, "op": "frobnicate", "input": {}}"#,
            "\n",
            r#"{"id": 9, "op": "murmur3", "input": {"seed": 0}}"#,
            "\n"
        );
        let lines = answers(input.as_bytes());
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0]["hello"]["protocol"], 1);
        assert_eq!(
            lines[1],
            json!({"id": 7, "status": "ok", "output": {"hash": 1364076727u32}})
        );
        assert_eq!(lines[2]["id"], Value::Null);
        assert_eq!(lines[2]["status"], "error");
        assert_eq!(lines[3]["status"], "unsupported");
        assert_eq!(lines[4]["status"], "error");
    }

    #[test]
    fn a_line_whose_body_does_not_parse_is_answered_under_its_id_and_serving_goes_on() {
        let deep = format!(
            r#"{{"id": 3, "op": "murmur3", "input": {}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let mut input = Vec::new();
        for line in [
            r#"{"id": 1, "op": "sizing", "input": {"nElements": 3, "fpRate": 1e999}}"#,
            r#"{"id": 2, "op": "murmur3"}"#,
            &deep,
        ] {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        input.extend_from_slice(
            b"{\"id\": 4, \"op\": \"murmur3\", \"input\": {\"data\": \"\xff\xfe\"}}\n",
        );
        input.extend_from_slice(b"\xff\xfe not utf-8 and no id\n");
        input.extend_from_slice(
            br#"{"id": 6, "op": "murmur3", "input": {"seed": 0, "data": "00"}}"#,
        );
        let lines = answers(&input);
        let ids: Vec<Value> = lines[1..].iter().map(|l| l["id"].clone()).collect();
        assert_eq!(
            ids,
            [
                json!(1),
                json!(2),
                json!(3),
                json!(4),
                Value::Null,
                json!(6)
            ]
        );
        for line in &lines[1..6] {
            assert_eq!(line["status"], "error", "{line}");
        }
        assert_eq!(lines[6]["status"], "ok");
    }
}
