//! The templates work where a newcomer puts them: each one (Python, JavaScript, Go, Java) is
//! copied out of the checkout into the system's temporary directory, built with only the steps
//! its own comments and README give, and run by `bip37-conform run`, conformant on what it
//! claims. Then the mission's mistakes are planted in the copy in the form they take in that
//! language (an unwrapped seed in Python's unbounded `int`, a JavaScript number and a Java
//! `long`, the hash function count divided in floating point, a block read big-endian, tail
//! bytes in reverse order, a Java `byte` shifted in with its sign), and each run must name the
//! class, hedged `likely`; a Java adapter that throws still builds and is reported as a
//! breakdown. Go's and Java's tests skip where their toolchain is absent (CI has both:
//! .ci/prerequisites).

mod common;

use common::{code, conform, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for `name` in the system's temporary directory: outside the checkout, so a
/// path into it (a `../java-protocol`, a `replace ../go-protocol`) cannot resolve by accident.
fn outside(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bip37-copied-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies the files of `from` (recursively, but no `target/`) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != "target" {
                copy_tree(&path, &to.join(entry.file_name()));
            }
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// Replaces `from` by `to` in `file`, which must hold `from` exactly once.
fn plant(file: &Path, from: &str, to: &str) {
    let source = std::fs::read_to_string(file).unwrap();
    assert_eq!(
        source.matches(from).count(),
        1,
        "{} no longer holds {from:?} once: update this test",
        file.display()
    );
    std::fs::write(file, source.replace(from, to)).unwrap();
}

/// `bip37-conform run` against `implementation`: its exit code and human report.
fn run(implementation: &str) -> (i32, String) {
    let out = conform(&["run", "--impl", implementation]);
    (
        code(&out),
        format!("{}{}", text(&out.stdout), text(&out.stderr)),
    )
}

/// Runs the copy and requires a conformant first report.
fn conformant(implementation: &str) {
    let (code, report) = run(implementation);
    assert_eq!(code, 0, "the unchanged copy is not conformant:\n{report}");
}

/// Runs the copy with a mistake planted and requires the class, named with `likely`.
fn names(implementation: &str, class: &str) {
    let (code, report) = run(implementation);
    assert_eq!(code, 1, "a planted {class} did not fail the run:\n{report}");
    assert!(
        report.contains(&format!("likely {class}")),
        "a planted {class} was not named:\n{report}"
    );
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A mistake planted in a copy: the class its run must name, the template's text and the text
/// that replaces it.
type Mistake = (&'static str, &'static str, &'static str);

/// The unchanged template, then each of `mistakes` planted in `file`, each in a fresh directory
/// outside the checkout: `copy` fills it, `build` builds it and gives the command that runs it
/// (None: the toolchain is absent, and the test is skipped). The unchanged copy must be
/// conformant; each planted one must fail with its class named.
fn each_copy(
    name: &str,
    file: &str,
    mistakes: &[Mistake],
    copy: impl Fn(&Path),
    build: impl Fn(&Path) -> Option<String>,
) {
    for (i, mistake) in std::iter::once(None)
        .chain(mistakes.iter().map(Some))
        .enumerate()
    {
        let dir = outside(&format!("{name}-{i}"));
        copy(&dir);
        if let Some((_, from, to)) = mistake {
            plant(&dir.join(file), from, to);
        }
        let Some(implementation) = build(&dir) else {
            return;
        };
        match mistake {
            None => conformant(&implementation),
            Some((class, ..)) => names(&implementation, class),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The Python template, as its docstring says: `template.py` and the protocol loop
/// `bip37_protocol.py` beside it, run with `python3`.
#[test]
fn the_python_template_copied_out_builds_and_names_the_planted_mistakes() {
    let adapters = common::adapters_dir();
    let mistakes: [Mistake; 4] = [
        (
            "SeedNotWrapped",
            "return {\"seed\": seed & 0xFFFFFFFF}",
            "return {\"seed\": seed}",
        ),
        (
            "BigEndianBlocks",
            "k = int.from_bytes(data[i : i + 4], \"little\")",
            "k = int.from_bytes(data[i : i + 4], \"big\")",
        ),
        (
            "MurmurTail",
            "k = int.from_bytes(tail, \"little\")",
            "k = int.from_bytes(tail, \"big\")",
        ),
        // `/` is true division in Python 3: Core's bits / n is `//`.
        (
            "FloatHashCount",
            "filter_bytes * 8 // n * LN2",
            "filter_bytes * 8 / n * LN2",
        ),
    ];
    each_copy(
        "python",
        "template.py",
        &mistakes,
        |dir| {
            std::fs::copy(adapters.join("template.py"), dir.join("template.py")).unwrap();
            let protocol = adapters.join("py-protocol/bip37_protocol.py");
            std::fs::copy(protocol, dir.join("bip37_protocol.py")).unwrap();
        },
        |dir| Some(format!("python3 {}", dir.join("template.py").display())),
    );
}

/// The JavaScript template, as its comment says: `template.js` and the protocol loop
/// `protocol.js` beside it, run with `node`. A JavaScript number past 2^32 is the seed not
/// wrapped (`*` and `+` on doubles), `readUInt32BE` the wrong block order.
#[test]
fn the_javascript_template_copied_out_builds_and_names_the_planted_mistakes() {
    let adapters = common::adapters_dir();
    let mistakes: [Mistake; 4] = [
        (
            "SeedNotWrapped",
            "(Math.imul(input.hashIndex, 0xfba4c795) + input.tweak) >>> 0",
            "input.hashIndex * 0xfba4c795 + input.tweak",
        ),
        (
            "BigEndianBlocks",
            "data.readUInt32LE(i)",
            "data.readUInt32BE(i)",
        ),
        (
            "MurmurTail",
            "for (let i = data.length - 1; i >= rounded; i--) {",
            "for (let i = rounded; i < data.length; i++) {",
        ),
        // Every JavaScript number is a double: without Math.floor, bits / n keeps its fraction.
        (
            "FloatHashCount",
            "Math.floor((filterBytes * 8) / n) * LN2",
            "((filterBytes * 8) / n) * LN2",
        ),
    ];
    each_copy(
        "js",
        "template.js",
        &mistakes,
        |dir| {
            std::fs::copy(adapters.join("template.js"), dir.join("template.js")).unwrap();
            let protocol = adapters.join("js-protocol/protocol.js");
            std::fs::copy(protocol, dir.join("protocol.js")).unwrap();
        },
        |dir| Some(format!("node {}", dir.join("template.js").display())),
    );
}

/// The Go template, as its doc comment says: go.mod's replace line pointed at
/// adapters/go-protocol, then `go build`. Go's types keep the seed in 32 bits (the protocol's
/// `uint32` fields), so its natural mistakes are the byte orders and a float64 division.
#[test]
fn the_go_template_copied_out_builds_and_names_the_planted_mistakes() {
    let protocol = common::adapters_dir().join("go-protocol");
    let protocol = protocol.canonicalize().unwrap();
    let block = "k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24";
    let mistakes: [Mistake; 3] = [
        (
            "BigEndianBlocks",
            block,
            "k := uint32(data[i])<<24 | uint32(data[i+1])<<16 | uint32(data[i+2])<<8 | uint32(data[i+3])",
        ),
        (
            "MurmurTail",
            "for i := len(data) - 1; i >= rounded; i-- {",
            "for i := rounded; i < len(data); i++ {",
        ),
        (
            "FloatHashCount",
            "float64(filterBytes*8/n)*ln2",
            "float64(filterBytes*8)/float64(n)*ln2",
        ),
    ];
    let replace = format!("-replace=bip37.invalid/protocol={}", protocol.display());
    each_copy(
        "go",
        "main.go",
        &mistakes,
        |dir| copy_tree(&common::adapters_dir().join("template-go"), dir),
        |dir| {
            common::assert_success(
                "go mod edit -replace",
                &common::go(dir, &["mod", "edit", &replace])?,
            );
            let binary = dir.join("template-go");
            let build = common::go(dir, &["build", "-o", binary.to_str().unwrap(), "."])?;
            common::assert_success("go build of the copied template", &build);
            Some(binary.display().to_string())
        },
    );
}

/// Whether `java` and `mvn` run here; if not, says that the test is skipped.
fn jvm_tools() -> bool {
    ["java", "mvn"].iter().all(|tool| {
        let runs = Command::new(tool)
            .arg(if *tool == "java" { "-version" } else { "-v" })
            .output()
            .is_ok_and(|o| o.status.success());
        if !runs {
            eprintln!("skipped: `{tool}` is not installed (README, Prerequisites)");
        }
        runs
    })
}

/// The Java template, as its README says: `adapters/java-protocol/build.sh COPY MAIN` from the
/// checkout (it installs the loop and the shared build settings into the local Maven
/// repository, which the copy's POM names by coordinates), then `java @COPY/target/...`.
#[test]
fn the_java_template_copied_out_builds_and_names_the_planted_mistakes() {
    if !jvm_tools() {
        return;
    }
    let source = "src/main/java/template/Template.java";
    let mistakes: [Mistake; 4] = [
        // A `long` seed sent without `& 0xffffffffL`.
        (
            "SeedNotWrapped",
            "in.u32(\"tweak\")) & 0xffffffffL);",
            "in.u32(\"tweak\")));",
        ),
        // A Java `byte` is signed: shifted in without `& 0xff`, a high tail byte brings its sign.
        (
            "SignExtendedTail",
            "k = k << 8 | (data[i] & 0xff);",
            "k = k << 8 | data[i];",
        ),
        (
            "BigEndianBlocks",
            "int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;",
            "int k = data[i] << 24 | (data[i + 1] & 0xff) << 16 | (data[i + 2] & 0xff) << 8 | (data[i + 3] & 0xff);",
        ),
        // A cast to double before the division.
        (
            "FloatHashCount",
            "filterBytes * 8 / n * LN2",
            "(double) filterBytes * 8 / n * LN2",
        ),
    ];
    let build = repository().join("adapters/java-protocol/build.sh");
    each_copy(
        "java",
        source,
        &mistakes,
        |dir| copy_tree(&common::adapters_dir().join("template-java"), dir),
        |dir| {
            // With MAIN: the class-data training run must not stop a build whose adapter fails.
            let out = Command::new(&build)
                .arg(dir)
                .arg("template.Template")
                .output()
                .unwrap();
            common::assert_success("build.sh of the copied Java template", &out);
            Some(format!(
                "java @{} template.Template",
                dir.join("target/classpath.args").display()
            ))
        },
    );
    // An adapter that throws on some requests still builds (the training run stops early), and
    // the run reports the stop as a breakdown (exit 3), naming the exception.
    let dir = outside("java-crash");
    copy_tree(&common::adapters_dir().join("template-java"), &dir);
    plant(
        &dir.join(source),
        "        int h = seed;",
        "        if (data.length == 3) throw new IllegalStateException(\"planted\");\n        int h = seed;",
    );
    let out = Command::new(&build)
        .arg(&dir)
        .arg("template.Template")
        .output()
        .unwrap();
    common::assert_success("build.sh of a Java adapter that throws", &out);
    let (code, report) = run(&format!(
        "java @{} template.Template",
        dir.join("target/classpath.args").display()
    ));
    assert_eq!(code, 3, "{report}");
    assert!(
        report.contains("IllegalStateException: planted"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
