//! The child side of the subprocess protocol: any [`Implementation`] answering requests read
//! from a stream (`bip37-conform serve` puts the reference on stdio this way).

use super::protocol::{AnswerBody, AnswerLine, Hello, HelloLine, RequestLine, PROTOCOL_VERSION};
use crate::implementation::{Answer, Fault, Implementation};
use crate::ops::{OpName, Request};
use std::io::{self, BufRead, Write};

/// Says hello, then answers every request line of `input` on `output` until `input` ends.
/// A line that is not a request is reported on `errors` and skipped: it has no id to answer.
pub fn serve(
    implementation: &mut dyn Implementation,
    input: impl BufRead,
    mut output: impl Write,
    mut errors: impl Write,
) -> io::Result<()> {
    let operations = implementation.operations();
    let hello = HelloLine {
        hello: Hello {
            protocol: PROTOCOL_VERSION,
            implementation: implementation.name(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            operations: operations
                .iter()
                .map(|op| op.as_str().to_string())
                .collect(),
            notes: None,
        },
    };
    write_line(&mut output, &hello)?;
    for line in input.lines() {
        let line = line?;
        let request: RequestLine = match serde_json::from_str(&line) {
            Ok(request) => request,
            Err(e) => {
                writeln!(
                    errors,
                    "bip37-conform serve: skipped a line that is not a request: {e}"
                )?;
                continue;
            }
        };
        let body = answer(implementation, &operations, &request)?;
        write_line(
            &mut output,
            &AnswerLine {
                id: request.id,
                body,
            },
        )?;
    }
    Ok(())
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

    #[test]
    fn hello_then_one_answer_per_request() {
        let input = concat!(
            r#"{"id": 7, "op": "murmur3", "input": {"seed": 0, "data": "00"}}"#,
            "\nnot json\n",
            r#"{"id": 8, "op": "frobnicate", "input": {}}"#,
            "\n",
            r#"{"id": 9, "op": "murmur3", "input": {"seed": 0}}"#,
            "\n"
        );
        let (mut out, mut err) = (Vec::new(), Vec::new());
        serve(&mut Reference, input.as_bytes(), &mut out, &mut err).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0]["hello"]["protocol"], 1);
        assert_eq!(
            lines[1],
            json!({"id": 7, "status": "ok", "output": {"hash": 1364076727u32}})
        );
        assert_eq!(lines[2]["status"], "unsupported");
        assert_eq!(lines[3]["status"], "error");
        assert!(String::from_utf8(err).unwrap().contains("not a request"));
    }
}
