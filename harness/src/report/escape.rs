//! Escaping text the harness did not write (an adapter's name, its messages and answers, its
//! stderr; test ids and comments from vector files) for each report format, so it cannot steer
//! the terminal or rewrite the report: a name with a newline and `**conformant**` must not turn a
//! failed run's Markdown summary green. JUnit escapes as XML, TAP's YAML values as JSON strings.
//!
//! Hidden characters are escaped too: control characters (Unicode category Cc) and format
//! characters (Cf), among them the bidirectional overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069) that make a terminal or a rendered page show text in another order than it
//! is ("Trojan Source"), and zero-width characters that hide text.

use std::borrow::Cow;

/// True for a character that acts on the text around it instead of being shown: a control
/// character (Cc) or a format character (Cf, Unicode 15.1).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            0xAD | 0x600..=0x605
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

/// `text` as literal Markdown text inside a line: hidden characters escaped (so no line of its
/// own can start a heading, list or block), the characters of inline markup (emphasis, code,
/// links and images, strikethrough, table cells, escapes) backslash-escaped, and `<`, `>`, `&`
/// written as HTML entities.
pub fn markdown_text(text: &str) -> String {
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
}
