//! `bip37-conform findings`: write the findings page from the committed matrices, manifests and
//! expectations files (run from the repository root, where their paths start), or with
//! `--check` say whether the committed page is the one they make. Nothing is run against an
//! implementation: after new columns are added, regenerate the matrices first.

use super::{page, Sources};
use crate::exit;
use bip37_harness::atomic_file::refuse_overwriting;
use bip37_harness::input_file::read_text;
use clap::Args;
use std::path::{Path, PathBuf};

/// The largest page `--check` reads: the committed one is about 40 KB.
const MAX_PAGE_BYTES: u64 = 16 * 1024 * 1024;

/// The arguments of `bip37-conform findings`.
#[derive(Debug, Args)]
pub struct FindingsArgs {
    /// The page to write (or, with --check, to compare).
    #[arg(long, value_name = "FILE", default_value = "docs/FINDINGS.md")]
    pub output: PathBuf,
    /// Write nothing; exit 1 if FILE is not what the sources make.
    #[arg(long)]
    pub check: bool,
    /// Write the page as one self-contained HTML page to this file instead of the Markdown
    /// page (which is left as it is).
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub html: Option<PathBuf>,
    /// The library matrix, JSON.
    #[arg(long, value_name = "FILE", default_value = "adapters/matrix.json")]
    pub matrix: PathBuf,
    /// The matrix holding the node section, JSON.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "adapters/nodes/matrix.json"
    )]
    pub node_matrix: PathBuf,
    /// Leave the nodes out.
    #[arg(long, conflicts_with = "node_matrix")]
    pub no_nodes: bool,
    /// The directory of the library adapters' manifests.
    #[arg(long, value_name = "DIR", default_value = "adapters")]
    pub adapters: PathBuf,
    /// The directory of the nodes' manifests.
    #[arg(long, value_name = "DIR", default_value = "adapters/nodes")]
    pub node_adapters: PathBuf,
}

/// Runs `bip37-conform findings`: 0 once written (or fresh with --check), 1 stale, 2 an error.
pub fn run(args: &FindingsArgs) -> u8 {
    let sources = Sources {
        matrix: args.matrix.clone(),
        node_matrix: (!args.no_nodes).then(|| args.node_matrix.clone()),
        adapters: args.adapters.clone(),
        node_adapters: args.node_adapters.clone(),
    };
    let inputs = [Some(&sources.matrix), sources.node_matrix.as_ref()];
    if let Some(html) = &args.html {
        return write_html(html, &sources, inputs.into_iter().flatten());
    }
    if let Err(e) = refuse_overwriting(&args.output, inputs.into_iter().flatten()) {
        return fail(exit::HARNESS_ERROR, &e.to_string());
    }
    let text = match page(Path::new("."), &sources) {
        Ok(text) => text,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    if args.check {
        return match read_text(&args.output, MAX_PAGE_BYTES) {
            Ok(committed) if committed == text => exit::CONFORMANT,
            Ok(_) => fail(
                exit::FAILURES,
                &format!(
                    "{} is stale: regenerate it with `{}`",
                    args.output.display(),
                    super::markdown::COMMAND
                ),
            ),
            Err(e) => fail(
                exit::HARNESS_ERROR,
                &format!("{}: {e}", args.output.display()),
            ),
        };
    }
    if let Err(e) = bip37_harness::atomic_file::write(&args.output, text.as_bytes()) {
        return fail(
            exit::HARNESS_ERROR,
            &format!("cannot write {}: {e}", args.output.display()),
        );
    }
    bip37_harness::say!("bip37-conform findings: wrote {}", args.output.display());
    exit::CONFORMANT
}

/// `findings --html FILE`: the HTML page, the Markdown page left alone.
fn write_html<'a>(
    path: &Path,
    sources: &Sources,
    inputs: impl IntoIterator<Item = &'a PathBuf>,
) -> u8 {
    if let Err(e) = refuse_overwriting(path, inputs) {
        return fail(exit::HARNESS_ERROR, &e.to_string());
    }
    let findings = match super::collect(Path::new("."), sources) {
        Ok(findings) => findings,
        Err(e) => return fail(exit::HARNESS_ERROR, &e),
    };
    let text = super::html::render(&findings, sources);
    if let Err(e) = bip37_harness::atomic_file::write(path, text.as_bytes()) {
        return fail(
            exit::HARNESS_ERROR,
            &format!("cannot write {}: {e}", path.display()),
        );
    }
    bip37_harness::say!("bip37-conform findings: wrote {}", path.display());
    exit::CONFORMANT
}

fn fail(code: u8, message: &str) -> u8 {
    bip37_harness::say!("bip37-conform findings: {message}");
    code
}
