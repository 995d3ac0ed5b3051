//! The JUnit XML report, for CI systems that show test results: one `<testsuite>` per vector
//! file, one `<testcase>` per test. Wrong answers are `<failure>`s, crashes, timeouts and
//! protocol errors `<error>`s, tests outside the claim and expected failures `<skipped>`.

use super::details;
use crate::runner::{Run, State, TestResult};
use std::fmt::Write;

/// Renders `run` as JUnit XML.
pub fn render(run: &Run) -> String {
    let mut files: Vec<&str> = Vec::new();
    for r in &run.results {
        if !files.contains(&r.test.file.as_str()) {
            files.push(&r.test.file);
        }
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let count = |results: &[&TestResult], kind: Kind| {
        results.iter().filter(|r| kind_of(r.state) == kind).count()
    };
    let all: Vec<&TestResult> = run.results.iter().collect();
    let _ = writeln!(
        out,
        "<testsuites name=\"bip37-conform: {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6}\">",
        escape(&run.implementation),
        all.len(),
        count(&all, Kind::Failure),
        count(&all, Kind::Error),
        count(&all, Kind::Skipped),
        run.elapsed.as_secs_f64()
    );
    for file in files {
        let results: Vec<&TestResult> =
            run.results.iter().filter(|r| r.test.file == file).collect();
        let time: f64 = results.iter().map(|r| r.duration.as_secs_f64()).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{time:.6}\">",
            escape(file),
            results.len(),
            count(&results, Kind::Failure),
            count(&results, Kind::Error),
            count(&results, Kind::Skipped)
        );
        for r in results {
            write_case(&mut out, r);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pass,
    Failure,
    Error,
    Skipped,
}

fn kind_of(state: State) -> Kind {
    match state {
        State::Pass => Kind::Pass,
        State::NotClaimed | State::ExpectedFailure => Kind::Skipped,
        State::Crash | State::Timeout | State::ProtocolError | State::NotRun => Kind::Error,
        State::WrongValue
        | State::RejectedValid
        | State::AcceptedInvalid
        | State::Unsupported
        | State::UnexpectedPass => Kind::Failure,
    }
}

fn write_case(out: &mut String, r: &TestResult) {
    let stem = r.test.file.trim_end_matches(".json");
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"bip37.{}\" time=\"{:.6}\"",
        escape(&r.test.case.id),
        escape(stem),
        r.duration.as_secs_f64()
    );
    let element = match kind_of(r.state) {
        Kind::Pass => {
            out.push_str("/>\n");
            return;
        }
        Kind::Failure => "failure",
        Kind::Error => "error",
        Kind::Skipped => {
            let _ = writeln!(
                out,
                ">\n      <skipped message=\"{}: {}\"/>\n    </testcase>",
                r.state,
                escape(&r.message)
            );
            return;
        }
    };
    let lines = details(r, None);
    let body: String = lines
        .iter()
        .map(|(label, value)| format!("{label}: {value}\n"))
        .collect();
    // The short why (a crash's status, not its stderr again, which the body shows).
    let why =
        (lines.iter().find(|(label, _)| *label == "why")).map_or(r.message.as_str(), |(_, v)| v);
    let _ = writeln!(
        out,
        ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
        r.state,
        escape(why),
        escape_text(&body)
    );
}

/// Escapes element content: only `&`, `<` and `>` need it, so quoted JSON stays readable; a
/// newline and a tab stay as they are, a carriage return (which an XML reader would turn into a
/// newline) is a character reference.
fn escape_text(text: &str) -> String {
    escape_with(text, false)
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
}

/// Escapes an attribute's value: as [`escape_text`], and also a newline, a carriage return and
/// a tab as character references, which an XML reader would otherwise turn into spaces (the
/// attribute-value normalization of XML 1.0, section 3.3.3).
fn escape(text: &str) -> String {
    escape_with(text, true)
}

/// Escapes text for XML, dropping characters XML 1.0 cannot carry and writing format characters
/// (bidirectional overrides, zero-width characters, the line and paragraph separators) as
/// character references, which keep the value and show nothing out of order in the raw file.
fn escape_with(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' if !attribute => out.push(c),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#x{:X};", u32::from(c));
            }
            c if (c as u32) < 0x20 => {}
            c if super::escape::is_hidden(c) => {
                let _ = write!(out, "&#x{:X};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_text};

    #[test]
    fn escapes_markup_and_drops_control_characters() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(escape_text("{\"a\":\"<&>\"}"), "{\"a\":\"&lt;&amp;&gt;\"}");
        assert_eq!(escape("a\u{202e}b"), "a&#x202E;b");
    }

    /// Issue 32: raw CR/LF in an attribute reached a JUnit reader as spaces.
    #[test]
    fn line_breaks_in_attributes_are_character_references() {
        assert_eq!(escape("a\r\nb\tc"), "a&#xD;&#xA;b&#x9;c");
        assert_eq!(escape_text("a\r\nb\tc"), "a&#xD;\nb\tc");
        assert_eq!(escape("a\u{2028}b\u{2029}"), "a&#x2028;b&#x2029;");
    }
}
