//! The end of a crashed adapter's stderr as a report shows it: the lines that name the error,
//! then the tail, and an exact count of the lines left out between them.
//!
//! Where the error is named depends on the language, and is often far from the end:
//! - Go: the `panic:` (or `fatal error:`) line, above the goroutine's stack; the adapter's own
//!   frame is the first one under `goroutine N [running]:`;
//! - Python: the last line of the last traceback (`ZeroDivisionError: ...`), after its frames;
//! - Java: the last `Caused by:` line, else the `Exception in thread` line, each with its first
//!   `at` frame;
//! - Node: the first line of a stack (`TypeError: ...`, the line above the first `at` frame),
//!   with that frame.
//!
//! Those lines are shown first, then as many of the last lines as fit in the characters left.
//! Blank lines are never shown nor counted; every other line is shown or counted in a
//! `(N lines left out)` line where it was. The JSON report carries the stderr whole.

/// The stderr `text` in at most about `max` characters (`None`: all of it), as described above.
pub fn excerpt(text: &str, max: Option<usize>) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return String::new();
    }
    let max = max.unwrap_or(usize::MAX);
    let head = naming_lines(&lines);
    let head_cost: usize = head
        .clone()
        .map_or(0, |h| lines[h].iter().map(|l| width(l) + 1).sum());
    let budget = max.saturating_sub(head_cost);
    let mut start = tail_start(&lines, budget);
    // Without the head, the tail could have been longer; with it, never shorter than a line.
    let head = match head {
        Some(h) if h.end >= start => {
            // The head is inside (or next to) the tail: one run of lines from the earlier start.
            start = start.min(h.start).min(tail_start(&lines, max));
            None
        }
        other => other,
    };
    let mut shown = Vec::new();
    let mut next = 0;
    if let Some(h) = head {
        left_out(h.start, &mut shown);
        shown.extend(lines[h.clone()].iter().map(|l| start_of(l, max)));
        next = h.end;
    }
    left_out(start - next, &mut shown);
    let last = lines.len() - 1;
    for (i, line) in lines.iter().enumerate().skip(start) {
        shown.push(match i == last && start == last {
            true => end_of(line, max),
            false => line.to_string(),
        });
    }
    shown.join("\n")
}

/// Says that `count` lines were left out here, when some were.
fn left_out(count: usize, shown: &mut Vec<String>) {
    if count > 0 {
        let noun = if count == 1 { "line" } else { "lines" };
        shown.push(format!("({count} {noun} left out)"));
    }
}

/// The lines that name the error, by the rules of the module's doc, if any.
fn naming_lines(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let with = |at: usize, more: usize| at..(at + 1 + more).min(lines.len());
    // Go: the panic line, the goroutine line and the first frame (function and file).
    if let Some(at) =
        (lines.iter()).rposition(|l| l.starts_with("panic: ") || l.starts_with("fatal error: "))
    {
        return Some(with(at, 3));
    }
    // Python: the first unindented line after the last `Traceback` line.
    if let Some(tb) =
        (lines.iter()).rposition(|l| l.starts_with("Traceback (most recent call last)"))
    {
        let at = (tb + 1..lines.len()).find(|&i| !lines[i].starts_with([' ', '\t']))?;
        return Some(with(at, 0));
    }
    // Java: the deepest cause, else the thread's exception, with its first frame.
    let java = (lines.iter().rposition(|l| l.starts_with("Caused by: "))).or_else(|| {
        lines
            .iter()
            .rposition(|l| l.contains("Exception in thread "))
    });
    if let Some(at) = java {
        return Some(with(at, 1));
    }
    // Node (and any other stack of `at` frames): the line above the first frame, and the frame.
    let frame = |l: &&str| l.starts_with([' ', '\t']) && l.trim_start().starts_with("at ");
    let first = lines.iter().position(frame)?;
    (first > 0 && !lines[first - 1].starts_with([' ', '\t'])).then(|| with(first - 1, 1))
}

/// The first line of the tail: whole lines from the last one back while they fit in `max`
/// characters, and at least the last line.
fn tail_start(lines: &[&str], max: usize) -> usize {
    let mut size = 0;
    let mut start = lines.len();
    while start > 0 {
        size += width(lines[start - 1]) + 1;
        if size > max && start < lines.len() {
            break;
        }
        start -= 1;
    }
    start
}

fn width(line: &str) -> usize {
    line.chars().count()
}

/// A line in at most `max` characters: its start (where an error line names the error).
fn start_of(line: &str, max: usize) -> String {
    match width(line) > max {
        true => format!("{}...", line.chars().take(max).collect::<String>()),
        false => line.to_string(),
    }
}

/// A line in at most `max` characters: its end.
fn end_of(line: &str, max: usize) -> String {
    let total = width(line);
    match total > max {
        true => format!("...{}", line.chars().skip(total - max).collect::<String>()),
        false => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of lines an excerpt shows or counts: every non-blank line of the stderr.
    fn accounted(excerpt: &str) -> usize {
        excerpt
            .lines()
            .map(|l| {
                l.strip_prefix('(')
                    .and_then(|l| l.split_once(' '))
                    .filter(|(_, rest)| rest.ends_with("left out)"))
                    .and_then(|(n, _)| n.parse().ok())
                    .unwrap_or(1)
            })
            .sum()
    }

    fn non_blank(text: &str) -> usize {
        text.lines().filter(|l| !l.trim().is_empty()).count()
    }

    const GO: &str = "\
starting template-go
panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.opBitIndexes({0xc000012345, 0x10, 0x20})
\t/tmp/copy/template-go/main.go:45 +0x1d5
bip37.invalid/protocol.(*Server).answer(0xc0000a2000, {0xc000014000, 0x9})
\t/tmp/copy/go-protocol/protocol.go:212 +0x2b1
bip37.invalid/protocol.(*Server).serveLine(0xc0000a2000, {0xc000016000, 0x40, 0x1000})
\t/tmp/copy/go-protocol/protocol.go:180 +0x1c8
bip37.invalid/protocol.Serve({0x4f0a2b, 0xb}, {0x4f0c11, 0x5}, 0xc000010030)
\t/tmp/copy/go-protocol/protocol.go:140 +0x325
main.main()
\t/tmp/copy/template-go/main.go:120 +0x1a5
exit status 2
";

    const PYTHON: &str = "\
Traceback (most recent call last):
  File \"/tmp/copy/template.py\", line 90, in <module>
    serve(IMPLEMENTATION, VERSION, OPERATIONS)
  File \"/tmp/copy/py-protocol/bip37_protocol.py\", line 140, in serve
    output = operations[op](request[\"input\"])
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File \"/tmp/copy/template.py\", line 66, in op_murmur3
    return {\"hash\": murmur3(request_input[\"seed\"], 1 // 0)}
                                                    ~~^~~
ZeroDivisionError: integer division or modulo by zero
";

    const JAVA: &str = "\
Exception in thread \"main\" java.lang.IllegalStateException: the adapter failed
\tat bip37.protocol.Server.answer(Server.java:120)
\tat bip37.protocol.Server.serve(Server.java:80)
\tat bip37.template.Main.main(Main.java:30)
Caused by: java.lang.ArithmeticException: / by zero
\tat bip37.template.Main.murmur3(Main.java:52)
\tat bip37.protocol.Library.call(Library.java:40)
\tat bip37.protocol.Server.answer(Server.java:115)
\t... 2 more
";

    const NODE: &str = "\
/tmp/copy/adapter.js:41
    throw new TypeError(\"planted: the error the report must name\");
    ^

TypeError: planted: the error the report must name
    at opMurmur3 (/tmp/copy/adapter.js:41:11)
    at answer (/tmp/copy/js-protocol/protocol.js:88:20)
    at Interface.<anonymous> (/tmp/copy/js-protocol/protocol.js:120:7)
    at Interface.emit (node:events:519:28)
    at [_onLine] [as _onLine] (node:internal/readline/interface:416:12)
    at [_normalWrite] [as _normalWrite] (node:internal/readline/interface:610:22)
    at Socket.ondata (node:internal/readline/interface:243:23)
    at Socket.emit (node:events:519:28)
    at addChunk (node:internal/streams/readable:559:12)

Node.js v20.19.2
";

    #[test]
    fn a_go_panic_keeps_its_line_and_the_adapters_frame() {
        let shown = excerpt(GO, Some(400));
        assert!(
            shown.contains("panic: runtime error: index out of range"),
            "{shown}"
        );
        assert!(shown.contains("main.opBitIndexes("), "{shown}");
        assert!(shown.contains("main.go:45"), "{shown}");
        assert!(shown.ends_with("exit status 2"), "{shown}");
        assert_eq!(accounted(&shown), non_blank(GO), "{shown}");
        // Short of room, the panic comes first and the count says what is between.
        let short = excerpt(GO, Some(200));
        assert!(short.starts_with("(1 line left out)\npanic: "), "{short}");
        assert!(short.contains("lines left out)"), "{short}");
        assert_eq!(accounted(&short), non_blank(GO), "{short}");
    }

    #[test]
    fn a_python_traceback_keeps_its_last_line() {
        let shown = excerpt(PYTHON, Some(200));
        assert!(
            shown.ends_with("ZeroDivisionError: integer division or modulo by zero"),
            "{shown}"
        );
        assert_eq!(accounted(&shown), non_blank(PYTHON), "{shown}");
        // A line printed after the traceback does not hide it.
        let after = format!("{PYTHON}{}", "cleanup: closing the library\n".repeat(20));
        let shown = excerpt(&after, Some(200));
        assert!(
            shown.contains("\nZeroDivisionError: integer division"),
            "{shown}"
        );
        assert_eq!(accounted(&shown), non_blank(&after), "{shown}");
    }

    #[test]
    fn a_java_exception_keeps_its_cause() {
        let shown = excerpt(JAVA, Some(120));
        assert!(
            shown.contains("Caused by: java.lang.ArithmeticException: / by zero"),
            "{shown}"
        );
        assert!(shown.contains("Main.murmur3(Main.java:52)"), "{shown}");
        assert_eq!(accounted(&shown), non_blank(JAVA), "{shown}");
        let uncaused = JAVA.split("Caused by").next().unwrap().to_string()
            + &"\tat bip37.protocol.Deep.frame(Deep.java:1)\n".repeat(30);
        let shown = excerpt(&uncaused, Some(200));
        assert!(
            shown.starts_with("Exception in thread \"main\" java.lang.IllegalStateException"),
            "{shown}"
        );
        assert_eq!(accounted(&shown), non_blank(&uncaused), "{shown}");
    }

    #[test]
    fn a_node_stack_keeps_its_first_line() {
        let shown = excerpt(NODE, Some(200));
        assert!(
            shown.contains("TypeError: planted: the error the report must name\n    at opMurmur3"),
            "{shown}"
        );
        assert!(shown.ends_with("Node.js v20.19.2"), "{shown}");
        assert_eq!(accounted(&shown), non_blank(NODE), "{shown}");
    }

    #[test]
    fn everything_fits_or_nothing_names_the_error() {
        assert_eq!(excerpt(GO, None).lines().count(), non_blank(GO));
        assert!(!excerpt(GO, None).contains("left out"));
        let plain = "one\ntwo\nthree\nfour\n";
        assert_eq!(excerpt(plain, Some(11)), "(2 lines left out)\nthree\nfour");
        assert_eq!(
            excerpt("x".repeat(50).as_str(), Some(10)),
            format!("...{}", "x".repeat(10))
        );
        assert_eq!(excerpt("\n\n", Some(10)), "");
    }
}
