//! Escaping text the harness did not write (an adapter's name, its messages and answers, its
//! stderr; test ids and comments from vector files) for each report format, so it cannot steer
//! the terminal or rewrite the report: a name with a newline and `**conformant**` must not turn a
//! failed run's Markdown summary green. JUnit escapes as XML, TAP's YAML values as JSON strings.
//!
//! Hidden characters are escaped too: control characters (Unicode category Cc), format
//! characters (Cf), among them the bidirectional overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069) that make a terminal or a rendered page show text in another order than it
//! is ("Trojan Source"), and zero-width characters that hide text, and the line and paragraph
//! separators U+2028 and U+2029 (Zl, Zp), which break a line in editors, browsers and
//! JavaScript though not in a terminal.
//!
//! One rule per output kind, used by every command: [`control`] for the terminal (the human
//! report, every line of `adapters`), [`markdown_text`] and [`code_span`] for Markdown (the
//! Markdown report, the matrix, the findings page), [`json`] for JSON, [`html`] for HTML (the
//! HTML report, the matrix's and the findings' pages), and JUnit's own escaping, which calls
//! [`is_hidden`].

use std::borrow::Cow;

/// True for a character that acts on the text around it instead of being shown: a control
/// character (Cc), a format character (Cf, Unicode 15.1) or a line or paragraph separator.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            0xAD | 0x600..=0x605
                | 0x2028..=0x2029
                | 0x61C
                | 0x6DD
                | 0x70F
                | 0x890..=0x891
                | 0x8E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
        )
}

/// `text` with every hidden character (escape sequences, newlines, carriage returns,
/// bidirectional overrides) written as a visible escape such as `\u{1b}`, `\n` or `\u{202e}`:
/// for the human report.
pub fn control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as literal Markdown text, inside a line or at its start: hidden characters escaped (so
/// no line of its own can start a heading, list or block), the characters of inline markup
/// (emphasis, code, links and images, strikethrough, table cells, escapes) backslash-escaped,
/// `<`, `>`, `&` written as HTML entities, and what would be markup at the start of a line made
/// literal ([`line_start`]: `#`, `+`, `-`, `=`, `1.`, four spaces).
pub fn markdown_text(text: &str) -> String {
    line_start(inline_text(text))
}

/// `escaped` (inline Markdown text) with its start unable to open a block: leading spaces (an
/// indented code block at four) as `&#32;`; a backslash before a `#` (a heading), a `+` or `-`
/// followed by a space or nothing (a list item), a line of only `-` and `=` (a thematic break,
/// a setext underline), and before the `.` or `)` of leading digits followed by a space or
/// nothing (an ordered list item). Anything else is left as it is (`0.12.2`, `-5`), and `*`,
/// `_`, `>` and `|` are escaped inline already.
fn line_start(escaped: String) -> String {
    let body = escaped.trim_start_matches(' ');
    let mut out = "&#32;".repeat(escaped.len() - body.len());
    let ends_item = |rest: &str| rest.is_empty() || rest.starts_with(' ');
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (number, rest) = body.split_at(digits);
    let numbered = (1..=9).contains(&digits)
        && (rest.starts_with('.') || rest.starts_with(')'))
        && ends_item(&rest[1..]);
    let bulleted = (body.starts_with('+') || body.starts_with('-')) && ends_item(&body[1..]);
    let rule = !body.is_empty() && body.chars().all(|c| matches!(c, '-' | '=' | ' '));
    if numbered {
        out.push_str(&format!("{number}\\{rest}"));
    } else if body.starts_with('#') || bulleted || rule {
        out.push_str(&format!("\\{body}"));
    } else {
        out.push_str(body);
    }
    out
}

/// [`markdown_text`] without the line start's rule.
fn inline_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in control(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` for a Markdown code span on one line: hidden characters escaped and backticks,
/// which would end the span, written as `'`.
pub fn markdown_code(text: &str) -> String {
    control(text).replace('`', "'")
}

/// `text` as a whole Markdown code span on one line, backticks kept: control characters
/// escaped, the span fenced by one backtick more than the longest run inside it, and padded
/// with a space where CommonMark would otherwise take a backtick or space at an end as markup.
pub fn code_span(text: &str) -> String {
    let text = control(text);
    let longest = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty());
    let space = if pad { " " } else { "" };
    format!("{fence}{space}{text}{space}{fence}")
}

/// JSON text (a whole document) with every hidden character that is not already escaped written
/// as a `\uXXXX` escape (a surrogate pair beyond U+FFFF): the same value for a JSON reader,
/// inert for a person reading the file. Outside strings JSON text is ASCII, so only strings
/// change.
pub fn json(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) && c != '\n' {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as HTML text or a double- or single-quoted attribute value: hidden characters
/// escaped as in [`control`] (visible `\u{202e}`, `\n`), then `&`, `<`, `>`, `"` and `'`
/// written as entities, so no text can open a tag, end an attribute or start an entity.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in control(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_gets_through_unescaped() {
        assert_eq!(control("plain"), "plain");
        assert_eq!(control("a\x1b[2Jb\nc"), "a\\u{1b}[2Jb\\nc");
        let name = "x\n\n**conformant** <img src=x onerror=alert(1)> | `a`";
        let text = markdown_text(name);
        assert!(!text.contains('\n') && !text.contains('<'), "{text}");
        assert!(text.contains("\\*\\*conformant\\*\\*"), "{text}");
        assert!(text.contains("\\|"), "{text}");
        assert_eq!(markdown_code("a`b\nc"), "a'b\\nc");
    }

    #[test]
    fn a_code_span_keeps_backticks() {
        assert_eq!(code_span("plain"), "`plain`");
        assert_eq!(
            code_span("`hash`: expected 1, actual 2"),
            "`` `hash`: expected 1, actual 2 ``"
        );
        assert_eq!(code_span("a``b"), "```a``b```");
        assert_eq!(code_span("x\ny"), "`x\\ny`");
    }

    #[test]
    fn bidirectional_and_other_format_characters_are_escaped() {
        let trojan = "adapter\u{202e}dlrow\u{2066}x\u{2069}\u{200b}\u{feff}\u{e0041}";
        for escaped in [control(trojan).into_owned(), markdown_text(trojan)] {
            assert!(!escaped.chars().any(is_hidden), "{escaped:?}");
            assert!(escaped.contains("\\u{202e}"), "{escaped:?}");
        }
        let document = serde_json::to_string(&serde_json::json!({ "name": trojan })).unwrap();
        let inert = json(&document);
        assert!(!inert.chars().any(is_hidden), "{inert}");
        assert!(
            inert.contains("\\u202e") && inert.contains("\\udb40\\udc41"),
            "{inert}"
        );
        let back: serde_json::Value = serde_json::from_str(&inert).unwrap();
        assert_eq!(back["name"], trojan);
        assert!(!is_hidden('a') && !is_hidden('é') && !is_hidden('\u{5d0}'));
    }

    /// Issue 32: a manifest's link starting with markup became a heading, list, rule or code
    /// block on the findings page.
    #[test]
    fn nothing_opens_a_block_at_the_start_of_a_line() {
        for (text, inert) in [
            ("# h", "\\# h"),
            ("+ item", "\\+ item"),
            ("1. item", "1\\. item"),
            ("12) item", "12\\) item"),
            ("---", "\\---"),
            ("===", "\\==="),
            ("    code", "&#32;&#32;&#32;&#32;code"),
            ("2024 release", "2024 release"),
            ("0.12.2", "0.12.2"),
            ("-5", "-5"),
            ("- item", "\\- item"),
            ("= =", "\\= ="),
            ("https://x.org/a-b", "https://x.org/a-b"),
        ] {
            assert_eq!(markdown_text(text), inert, "{text}");
        }
    }

    #[test]
    fn html_text_opens_no_tag_and_ends_no_attribute() {
        let hostile = "\"><img src=x onerror=alert(1)>&amp;'\u{2028}\u{202e}";
        let text = html(hostile);
        for raw in ['<', '>', '"', '\'', '\u{2028}', '\u{202e}'] {
            assert!(!text.contains(raw), "{text}");
        }
        assert!(text.starts_with("&quot;&gt;&lt;img"), "{text}");
        assert!(
            text.contains("&amp;amp;") && text.contains("\\u{2028}"),
            "{text}"
        );
    }

    /// Issue 32: U+2028 and U+2029 reached every report format raw.
    #[test]
    fn line_and_paragraph_separators_are_escaped() {
        let text = "a\u{2028}b\u{2029}c";
        assert_eq!(control(text), "a\\u{2028}b\\u{2029}c");
        assert!(!markdown_text(text).contains('\u{2028}'));
        let document = serde_json::to_string(&serde_json::json!({ "m": text })).unwrap();
        assert!(
            json(&document).contains("\\u2028b\\u2029"),
            "{}",
            json(&document)
        );
    }
}
