//! Escaping text the harness did not write (an adapter's name, its messages and answers, its
//! stderr; test ids and comments from vector files) for each report format, so it cannot steer
//! the terminal or rewrite the report: a name with a newline and `**conformant**` must not turn a
//! failed run's Markdown summary green. JUnit escapes as XML, TAP's YAML values as JSON strings.

use std::borrow::Cow;

/// `text` with every control character (escape sequences, newlines, carriage returns) written
/// as a visible escape such as `\u{1b}` or `\n`: for the human report.
pub fn control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as literal Markdown text inside a line: control characters escaped (so no line of its
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

/// `text` for a Markdown code span on one line: control characters escaped and backticks,
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
}
