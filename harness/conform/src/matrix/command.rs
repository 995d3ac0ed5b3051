//! `bip37-conform matrix`: run several protocol v1 implementations over the same selected
//! vectors, one after the other, and write the matrix as Markdown and/or JSON. The columns are
//! the `--impl` arguments, then the adapters of `--adapters DIR` in name order; `--name` runs
//! only some of them, and `--keep FILE` takes the others from an earlier JSON matrix
//! ([`super::keep`]); `--node-report` adds the section of full nodes (node checks by nodes,
//! from their node suite reports).
//!
//! The exit code holds each column run here to its expectations file, as `run --expectations`
//! would ([`MATRIX_EXIT_CODES`]); `--report-only` writes the matrix without judging it.

use super::{build, html, json, markdown, ColumnRun, ImplSpec, Participant, RowMode};
use crate::options::{SelectArgs, TimeoutArgs, VectorArgs};
use crate::progress::Progress;
use crate::{exit, output, vector_set};
use bip37_harness::atomic_file::refuse_overwriting;
use bip37_harness::expectations::Expectations;
use bip37_harness::implementation::Implementation;
use bip37_harness::report::escape;
use bip37_harness::runner::{run_tests_observed, Conformance, Run};
use bip37_harness::subprocess::Subprocess;
use bip37_harness::vectors::LoadedTest;
use clap::Args;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The exit codes of `bip37-conform matrix` (its `--help`, docs/MATRIX.md and README).
pub const MATRIX_EXIT_CODES: &str = "\
Exit codes (the worst over the columns run here; columns taken over by --keep are not judged):
  0  the matrix was written, and every column run here passed, or failed only as its
     expectations file says (an adapter's manifest names it; an --impl column has none), or
     --report-only was given
  1  a column run here failed: a test failed that its expectations file does not list (any
     failure, for a column without one), a listed failure passed, or an entry is stale
  2  usage or harness error (bad arguments, an unreadable expectations file or manifest,
     unwritable outputs, an implementation that cannot start); --report-only does not change it
  3  a column run here crashed or timed out on a test its expectations file does not list, or
     hit the overall time bound
  4  invalid vectors
The matrix is written whatever the tests' results; it is not written when a harness error, invalid
vectors or an implementation that cannot start (2, or 3 if it crashed on the way) stops the run.";

/// The arguments of `bip37-conform matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// A column: its name, `=`, and the command line of a protocol v1 implementation
    /// (split like a shell would, run without one); repeatable, in column order.
    #[arg(long = "impl", value_name = "NAME=COMMAND", required_unless_present_any = ["adapters", "node_reports"], value_parser = parse_spec)]
    pub impls: Vec<ImplSpec>,
    /// Also a column for every adapter with a manifest in DIR (`<name>/adapter.toml`; not
    /// nodes), after the --impl columns, in name order, each with its own timeout if it sets one.
    #[arg(long, value_name = "DIR")]
    pub adapters: Option<PathBuf>,
    /// Run only this column (an --impl name, or an adapter's column: its name unless its
    /// manifest sets `column`); repeatable. Without --keep the matrix has only these columns.
    #[arg(long = "name", value_name = "COLUMN")]
    pub names: Vec<String>,
    /// Take every column not named by --name from this JSON matrix (same vectors and
    /// selection), keeping the column order of a whole run: after adding an adapter,
    /// `--keep adapters/matrix.json --name <its column>` runs only the new one. Its node
    /// columns that no --node-report gives are kept too.
    #[arg(long, value_name = "FILE")]
    pub keep: Option<PathBuf>,
    /// A column of the node section: its name, `=`, a JSON report of `bip37-conform node`
    /// (`--report json:FILE`); repeatable, several reports of one column merge (NODE_BLOOM on
    /// and off); `NAME=` alone is a node not run here.
    #[arg(long = "node-report", value_name = "COLUMN=FILE", value_parser = super::nodes::parse_node_report)]
    pub node_reports: Vec<(String, Option<PathBuf>)>,
    #[command(flatten)]
    pub vectors: VectorArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// One row per vector, or per group of vectors every implementation treats alike.
    #[arg(long, value_enum, default_value_t = RowMode::Groups)]
    pub rows: RowMode,
    /// Write the Markdown matrix here (without --markdown or --json it goes to stdout).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the JSON matrix here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the matrix as one self-contained HTML page here (a grid with filters).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Exit 0 whatever the columns' results (harness errors still exit 2): for regenerating
    /// the committed matrix, whose libraries fail.
    #[arg(long)]
    pub report_only: bool,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

fn parse_spec(text: &str) -> Result<ImplSpec, String> {
    ImplSpec::parse(text).map_err(|e| e.to_string())
}

/// Runs `bip37-conform matrix` and returns its exit code ([`MATRIX_EXIT_CODES`]).
pub fn run(args: &MatrixArgs) -> u8 {
    let specs = match columns(args) {
        Ok(specs) => specs,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    if let Err(e) = refuse_outputs_over_inputs(args) {
        return fail(exit::HARNESS_ERROR, &e);
    }
    let tests = match vector_set::load_or_exit(args.vectors.vectors.as_deref()) {
        Ok(tests) => tests,
        Err(code) => return code,
    };
    let selected = args.select.selection().apply(&tests);
    let kept = match kept(args) {
        Ok(kept) => kept,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    let order: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let specs = match chosen(specs, &args.names) {
        Ok(specs) => specs,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    let expectations = match load_expectations(&specs) {
        Ok(expectations) => expectations,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    let known: HashSet<&str> = tests.iter().map(|t| t.case.id.as_str()).collect();
    let mut columns = Vec::new();
    let mut verdicts = Vec::new();
    for (spec, expectations) in specs.iter().zip(&expectations) {
        match run_one(spec, &selected, args) {
            Ok((column, raw)) => {
                bip37_harness::say!(
                    "bip37-conform matrix: {} ({}): {}",
                    spec.name,
                    escape::control(&column.participant.implementation),
                    column.summary
                );
                verdicts.push((spec, judge(&raw, expectations.as_ref(), &known)));
                columns.push(column);
            }
            Err((code, message)) => return fail(code, &message),
        }
    }
    let code = verdict(&verdicts, args.report_only);
    let mut matrix = match build(columns, args.rows) {
        Ok(matrix) => matrix,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    if let Some(kept) = &kept {
        for dropped in kept.columns.iter().filter(|c| !order.contains(&c.name)) {
            bip37_harness::say!(
                "bip37-conform matrix: the kept column {} is no longer a column: left out",
                dropped.name
            );
        }
        matrix = match super::keep::merge(matrix, kept, &order, &selected) {
            Ok(matrix) => matrix,
            Err(e) => return fail(exit::HARNESS_ERROR, &e),
        };
    }
    if !args.node_reports.is_empty() || kept.as_ref().is_some_and(|k| k.nodes.is_some()) {
        match node_section(&args.node_reports, kept.as_ref()) {
            Ok(section) => matrix.nodes = section,
            Err(e) => return fail(exit::HARNESS_ERROR, &e),
        }
    }
    let outputs = [
        (args.markdown.as_deref(), markdown::render(&matrix)),
        (args.json.as_deref(), json::render(&matrix)),
        (
            args.html.as_deref(),
            match args.html {
                Some(_) => html::render(&matrix),
                None => String::new(),
            },
        ),
    ];
    if args.markdown.is_none() && args.json.is_none() && args.html.is_none() {
        output::print(&outputs[0].1);
        return code;
    }
    // The pair is written under one lock: two matrix runs at once cannot leave the Markdown
    // of one beside the JSON of the other.
    let files: Vec<&Path> = outputs.iter().filter_map(|(path, _)| *path).collect();
    let _lock = match bip37_harness::file_lock::lock(&files, bip37_harness::file_lock::WAIT) {
        Ok(lock) => lock,
        Err(e) => return fail(exit::HARNESS_ERROR, &e.to_string()),
    };
    // And written together: both files or neither (a full disk keeps the old pair).
    let pair: Vec<(&Path, &[u8])> = outputs
        .iter()
        .filter_map(|(path, text)| path.map(|path| (path, text.as_bytes())))
        .collect();
    if let Err(e) = bip37_harness::atomic_file::write_together(&pair) {
        let names: Vec<String> = pair.iter().map(|(p, _)| p.display().to_string()).collect();
        return fail(
            exit::HARNESS_ERROR,
            &format!(
                "cannot write {}: {e}; none of them changed",
                names.join(" and ")
            ),
        );
    }
    for (path, _) in pair {
        bip37_harness::say!("bip37-conform matrix: wrote {}", path.display());
    }
    code
}

/// Each column's expectations file, read before anything runs.
fn load_expectations(specs: &[ImplSpec]) -> Result<Vec<Option<Expectations>>, String> {
    specs
        .iter()
        .map(|spec| match &spec.expectations {
            Some(path) => Expectations::load(path)
                .map(Some)
                .map_err(|e| format!("{}: expectations file {e}", spec.name)),
            None => Ok(None),
        })
        .collect()
}

/// The exit code `run --expectations` would give the column's raw run: 3 for a crash, a
/// timeout or an aborted run the file does not excuse, 1 for any other failure, 0 otherwise
/// (a column that exercised nothing is shown, not judged).
fn judge(raw: &Run, expectations: Option<&Expectations>, known: &HashSet<&str>) -> u8 {
    let mut judged = raw.clone();
    if let Some(expectations) = expectations {
        expectations.apply(&mut judged, known);
    }
    match judged.conformance() {
        Conformance::Breakdown => exit::BREAKDOWN,
        Conformance::Failures => exit::FAILURES,
        Conformance::Conformant | Conformance::NothingExercised => exit::CONFORMANT,
    }
}

/// The worst of the columns' codes (3 over 1 over 0), each failing column said on stderr; 0
/// with `--report-only`.
fn verdict(verdicts: &[(&ImplSpec, u8)], report_only: bool) -> u8 {
    for (spec, code) in verdicts
        .iter()
        .filter(|(_, code)| *code != exit::CONFORMANT)
    {
        let what = match *code {
            exit::BREAKDOWN => "crashed or timed out",
            _ => "failed",
        };
        let against = match &spec.expectations {
            Some(path) => format!("against its expectations file {}", path.display()),
            None => "with no expectations file".into(),
        };
        bip37_harness::say!(
            "bip37-conform matrix: {} {what} {}{}",
            spec.name,
            escape::control(&against),
            match report_only {
                true => " (--report-only: not judged)".to_string(),
                false => format!(" (exit {code})"),
            }
        );
    }
    let worst = verdicts
        .iter()
        .map(|(_, code)| *code)
        .max_by_key(|code| match *code {
            exit::BREAKDOWN => 2,
            exit::FAILURES => 1,
            _ => 0,
        })
        .unwrap_or(exit::CONFORMANT);
    match report_only {
        true => exit::CONFORMANT,
        false => worst,
    }
}

/// The columns: the `--impl` arguments, then the adapters of `--adapters`; names unique.
fn columns(args: &MatrixArgs) -> Result<Vec<ImplSpec>, String> {
    let mut specs = args.impls.clone();
    if let Some(dir) = &args.adapters {
        let manifests = crate::adapters::manifest::load_all(dir).map_err(|e| e.to_string())?;
        for spec in manifests.iter().filter_map(ImplSpec::from_manifest) {
            specs.push(spec.map_err(|e| e.to_string())?);
        }
    }
    super::spec::check_unique(&specs).map_err(|e| e.to_string())?;
    if specs.is_empty() && args.node_reports.is_empty() {
        return Err(
            "no columns: --adapters names no protocol adapter (nodes are not columns; \
             --node-report makes the node section)"
                .into(),
        );
    }
    Ok(specs)
}

/// The matrix of `--keep`, read before anything runs.
fn kept(args: &MatrixArgs) -> Result<Option<super::Matrix>, String> {
    let Some(path) = &args.keep else {
        return Ok(None);
    };
    if args.names.is_empty() && args.node_reports.is_empty() {
        return Err("--keep needs --name or --node-report: otherwise nothing is run again".into());
    }
    let text = bip37_harness::input_file::read_text(path, MAX_KEPT_BYTES)
        .map_err(|e| format!("--keep {}: {e}", path.display()))?;
    super::json::parse(&text)
        .map(Some)
        .map_err(|e| format!("--keep {}: {e}", path.display()))
}

/// The largest matrix `--keep` reads: the committed one is about 100 KB.
const MAX_KEPT_BYTES: u64 = 64 * 1024 * 1024;

/// The columns to run: those `--name` names (each must be a column), or all.
fn chosen(specs: Vec<ImplSpec>, names: &[String]) -> Result<Vec<ImplSpec>, String> {
    if names.is_empty() {
        return Ok(specs);
    }
    if let Some(unknown) = names.iter().find(|n| !specs.iter().any(|s| &s.name == *n)) {
        let known: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        return Err(format!(
            "--name {unknown}: no such column (the columns: {})",
            known.join(", ")
        ));
    }
    Ok(specs
        .into_iter()
        .filter(|s| names.contains(&s.name))
        .collect())
}

/// The node section of the `--node-report` files, its rows the node suite's checks, with the
/// node columns of the `--keep` matrix they do not give.
fn node_section(
    given: &[(String, Option<PathBuf>)],
    kept: Option<&super::Matrix>,
) -> Result<Option<super::nodes::NodeSection>, String> {
    let file = crate::node::checks::checks()?;
    let ids: Vec<String> = file.checks.into_iter().map(|c| c.id).collect();
    let fresh = match given.is_empty() {
        true => None,
        false => Some(super::nodes::build(given, &ids)?),
    };
    let kept = kept.and_then(|k| k.nodes.as_ref());
    Ok(super::keep::merge_nodes(fresh, kept, &ids))
}

/// Starts one implementation, runs the selected tests against it, stops it and diagnoses it;
/// also the raw run, for [`judge`].
fn run_one(
    spec: &ImplSpec,
    selected: &[&LoadedTest],
    args: &MatrixArgs,
) -> Result<(ColumnRun, Run), (u8, String)> {
    let mut config = args.timeouts.client_config(spec.argv.clone());
    config.request_timeout = spec.timeout.unwrap_or(config.request_timeout);
    let mut child = Subprocess::start(config)
        .map_err(|e| (exit::of_start_error(&e), format!("{}: {e}", spec.name)))?;
    let mut progress = Progress::new(&spec.name, selected.len() as u64, "tests");
    let run = run_tests_observed(
        selected,
        &mut child,
        &args.timeouts.run_options(),
        &mut |done| progress.set(done as u64),
    );
    progress.finish();
    let participant = Participant {
        name: spec.name.clone(),
        command: spec.command.clone(),
        implementation: child.name(),
        notes: child.hello().notes.clone(),
        operations: child.operations(),
    };
    drop(child);
    Ok((ColumnRun::diagnosed(participant, run.clone()), run))
}

/// Refuses two of `--markdown`, `--json` and `--html` naming the same file, or a vector file the run reads.
fn refuse_outputs_over_inputs(args: &MatrixArgs) -> Result<(), String> {
    let vector_files = vector_set::input_paths(args.vectors.vectors.as_deref());
    let outputs: Vec<&PathBuf> = args
        .markdown
        .iter()
        .chain(&args.json)
        .chain(&args.html)
        .collect();
    for (i, output) in outputs.iter().enumerate() {
        refuse_overwriting(output, outputs[i + 1..].iter().copied()).map_err(|e| e.to_string())?;
    }
    let reports = args
        .node_reports
        .iter()
        .filter_map(|(_, file)| file.clone());
    let inputs: Vec<PathBuf> = vector_files.into_iter().chain(reports).collect();
    for output in outputs {
        refuse_overwriting(output, &inputs).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn fail(code: u8, message: &str) -> u8 {
    bip37_harness::say!("bip37-conform matrix: {message}");
    code
}
