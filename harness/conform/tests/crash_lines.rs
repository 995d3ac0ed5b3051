//! A crash's human report names its cause: the Go template, copied out of the checkout with a
//! planted index out of range, panics on every murmur3 request, and each crash shows the
//! `panic:` line and the adapter's own frame above the tail of its stack, with the lines left
//! out between them counted (the rule of `bip37_harness::report::stderr`, whose unit tests hold
//! the Python, Java and Node shapes).

mod common;

use common::{code, conform, text};

#[test]
fn a_go_panic_shows_its_line_and_the_adapters_frame() {
    let dir = common::tempdir("crash-lines-go");
    let adapters = common::adapters_dir();
    for module in ["template-go", "go-protocol"] {
        std::fs::create_dir_all(dir.join(module)).unwrap();
        for entry in std::fs::read_dir(adapters.join(module)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.join(module).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    let main = dir.join("template-go/main.go");
    let source = std::fs::read_to_string(&main).unwrap();
    let planted = source.replacen(
        "\th := seed\n",
        "\tvar table []uint32\n\t_ = table[len(data)+5]\n\th := seed\n",
        1,
    );
    assert_ne!(planted, source, "the template's murmur3 changed");
    std::fs::write(&main, planted).unwrap();
    let Some(build) = common::go(&dir.join("template-go"), &["build", "-o", "adapter", "."]) else {
        return;
    };
    common::assert_success("go build of the copied template", &build);
    let adapter = dir.join("template-go/adapter");
    let out = conform(&[
        "run",
        "--impl",
        &adapter.to_string_lossy(),
        "--op",
        "murmur3",
    ]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 3, "{report}");
    let block = report
        .split("\ncrash murmur3/")
        .nth(1)
        .expect("a crash block");
    let stderr: Vec<&str> = block
        .lines()
        .skip_while(|l| !l.starts_with("  stderr "))
        .take_while(|l| !l.starts_with("  diagnosis "))
        .collect();
    let shown = stderr.join("\n");
    assert!(
        stderr[0].ends_with("panic: runtime error: index out of range [5] with length 0"),
        "{shown}"
    );
    assert!(shown.contains("main.murmur3("), "{shown}");
    assert!(shown.contains("template-go/main.go:"), "{shown}");
    assert!(shown.contains("main.main()"), "{shown}");
    // The lines shown and counted add up to the panic's non-blank lines (the JSON report has
    // them all): here the count is checked against the stack's shape, not a fixed number.
    let counted: usize = stderr
        .iter()
        .filter_map(|l| l.trim().strip_prefix('('))
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, rest)| rest.ends_with("left out)"))
        .map(|(n, _)| n.parse::<usize>().unwrap())
        .sum();
    let out = conform(&[
        "run",
        "--impl",
        &adapter.to_string_lossy(),
        "--op",
        "murmur3",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["state"] == "crash")
        .and_then(|r| r["answer"]["message"].as_str())
        .unwrap()
        .to_string();
    let whole = message.split("; stderr ends: ").nth(1).unwrap();
    let non_blank = whole.lines().filter(|l| !l.trim().is_empty()).count();
    let shown_lines = stderr.iter().filter(|l| !l.trim().starts_with('(')).count();
    assert_eq!(counted + shown_lines, non_blank, "{shown}\n---\n{whole}");
}
