//! Splitting TOML text at its top-level table headers, so that a large file is parsed one table
//! at a time. The `toml` crate builds a tree of the whole document first, at about 35 bytes
//! per byte of an expectations file (550 MB for a 16 MiB file of ordinary entries, 3 GB for one
//! of nested table headers); parsed table by table, the peak is the result plus one table.
//!
//! A header is a line whose first non-blank character is `[`, outside a multi-line string: the
//! scan follows basic and literal strings (one-line and multi-line, with escapes) and comments,
//! so that a `[` line inside a multi-line string stays inside its table. Every piece is then
//! parsed as TOML on its own, so a mistake in the scan can only make a piece fail to parse.

/// The largest table (a header and its keys) accepted: an expectations entry is a few hundred
/// bytes, and a table is parsed whole.
pub const MAX_TABLE_BYTES: usize = 1 << 20;

/// A top-level piece of a TOML document: the keys before the first header, or a header with
/// its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece<'a> {
    /// The line (from 1) the piece starts on.
    pub line: usize,
    pub text: &'a str,
}

/// The pieces of `text`, in order; an error names the line of a table larger than
/// [`MAX_TABLE_BYTES`].
pub fn split(text: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut pieces = Vec::new();
    let mut state = State::Outside;
    let (mut start, mut start_line) = (0, 1);
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if state == State::Outside && line.trim_start().starts_with('[') && offset > start {
            pieces.push(piece(text, start, offset, start_line)?);
            (start, start_line) = (offset, n + 1);
        }
        state = state.after(line);
        offset += line.len();
    }
    if offset > start {
        pieces.push(piece(text, start, offset, start_line)?);
    }
    Ok(pieces)
}

fn piece(text: &str, start: usize, end: usize, line: usize) -> Result<Piece<'_>, String> {
    if end - start > MAX_TABLE_BYTES {
        return Err(format!(
            "the table at line {line} is {} bytes, more than the {MAX_TABLE_BYTES}-byte ceiling",
            end - start
        ));
    }
    Ok(Piece {
        line,
        text: &text[start..end],
    })
}

/// Where the scan is at the end of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Outside,
    /// Inside a `"""` string.
    MultiBasic,
    /// Inside a `'''` string.
    MultiLiteral,
}

impl State {
    /// The state after `line`, starting in `self`.
    fn after(self, line: &str) -> State {
        let bytes = line.as_bytes();
        let mut state = self;
        let mut i = 0;
        while i < bytes.len() {
            match state {
                State::MultiBasic => match bytes[i] {
                    b'\\' => i += 2,
                    b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                        // Up to two more quotes may belong to the string (`""""" `).
                        i += 3;
                        while i < bytes.len() && bytes[i] == b'"' {
                            i += 1;
                        }
                        state = State::Outside;
                    }
                    _ => i += 1,
                },
                State::MultiLiteral => {
                    if bytes[i..].starts_with(b"'''") {
                        i += 3;
                        while i < bytes.len() && bytes[i] == b'\'' {
                            i += 1;
                        }
                        state = State::Outside;
                    } else {
                        i += 1;
                    }
                }
                State::Outside => match bytes[i] {
                    b'#' => return State::Outside,
                    b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                        state = State::MultiBasic;
                        i += 3;
                    }
                    b'\'' if bytes[i..].starts_with(b"'''") => {
                        state = State::MultiLiteral;
                        i += 3;
                    }
                    b'"' => i = end_of_basic(bytes, i + 1),
                    b'\'' => {
                        i += 1;
                        while i < bytes.len() && bytes[i] != b'\'' && bytes[i] != b'\n' {
                            i += 1;
                        }
                        i += 1;
                    }
                    _ => i += 1,
                },
            }
        }
        state
    }
}

/// The index after the `"` that ends the one-line basic string whose text starts at `i`.
fn end_of_basic(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' | b'\n' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<usize> {
        split(text).unwrap().iter().map(|p| p.line).collect()
    }

    #[test]
    fn splits_at_headers_outside_strings_only() {
        let text = "operations = [\"murmur3\"]\n\
                    [failures.\"a\"]\nstate = \"wrongValue\"\nreason = \"\"\"\n[not.a.header]\n\"\"\"\n\
                    [failures.\"b\"] # [x]\nstate = 'crash'\nreason = '''\n[nor.this]'''\n\
                    [failures.\"c\"]\nreason = \"a \\\"\"\"\" quote\"\n  [failures.\"d\"]\n";
        assert_eq!(starts(text), [1, 2, 7, 11, 13]);
        let joined: String = split(text).unwrap().iter().map(|p| p.text).collect();
        assert_eq!(joined, text);
        assert_eq!(starts(""), Vec::<usize>::new());
    }

    #[test]
    fn a_table_beyond_the_ceiling_is_refused() {
        let text = format!("[a]\nx = \"{}\"\n[b]\n", "y".repeat(MAX_TABLE_BYTES));
        let err = split(&text).unwrap_err();
        assert!(err.contains("line 1"), "{err}");
    }
}
