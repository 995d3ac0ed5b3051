//! Text from outside the harness is inert in every report: a bidirectional override or isolate
//! (U+202A–U+202E, U+2066–U+2069) or another format character in an adapter's name, in its
//! messages or in a vector's comment comes out escaped, as control characters do, in the human,
//! Markdown, JUnit, TAP and JSON reports and in the matrix.

mod common;

use common::{code, conform, text};
use std::path::{Path, PathBuf};

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-text-{name}"))
}

/// The fixture vectors with a bidirectional override in the comment of a murmur3 test.
fn vectors_with_a_trojan_comment(dir: &Path) -> PathBuf {
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    let original = std::fs::read_to_string(common::fixture("vectors/mini_test.json")).unwrap();
    let hostile = original.replace("empty input, seed 0", "empty input\u{202e}, seed 0");
    assert_ne!(hostile, original);
    std::fs::write(vectors.join("mini_test.json"), hostile).unwrap();
    vectors
}

/// The characters of `report` that a viewer would not show, with their positions.
fn hidden(report: &str) -> Vec<(usize, char)> {
    report
        .char_indices()
        .filter(|&(_, c)| {
            let format = matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            format || c.is_control() && !matches!(c, '\n' | '\t' | '\r')
        })
        .collect()
}

#[test]
fn bidirectional_controls_from_outside_are_escaped_in_every_report() {
    let dir = tempdir("bidi");
    let vectors = vectors_with_a_trojan_comment(&dir);
    let vectors = vectors.to_str().unwrap();
    let adapter = common::adapter("bidi_name").join(" ");
    for format in ["human", "markdown", "junit", "tap", "json", "html"] {
        let out = conform(&[
            "run",
            "--impl",
            &adapter,
            "--vectors",
            vectors,
            "--id",
            "mini/murmur3-*",
            "--format",
            format,
            "--color",
            "never",
        ]);
        assert_eq!(code(&out), 1, "{format}: {}", text(&out.stderr));
        let report = text(&out.stdout);
        // The override reached the report, as a visible escape.
        assert!(report.to_lowercase().contains("202e"), "{format}: {report}");
        assert_eq!(hidden(&report), [], "{format}: {report}");
    }
    let (markdown, json, html) = (
        dir.join("matrix.md"),
        dir.join("matrix.json"),
        dir.join("matrix.html"),
    );
    let out = conform(&[
        "matrix",
        "--impl",
        &format!("bidi={adapter}"),
        "--vectors",
        vectors,
        "--id",
        "mini/murmur3-*",
        "--markdown",
        markdown.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--report-only",
    ]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    for file in [markdown, json, html] {
        let report = std::fs::read_to_string(&file).unwrap();
        assert!(report.contains("202e"), "{}: {report}", file.display());
        assert_eq!(hidden(&report), [], "{}: {report}", file.display());
    }
}
