//! Where a run's reports go and the exit code its verdict earns, shared by the subcommands
//! that run tests (`run`, `node`): the report options (`--format`, `--output`, `--report`,
//! `--color`), loading the expectations file, writing every report atomically, and the exit code.

use crate::exit;
use bip37_harness::expectations::Expectations;
use bip37_harness::report::{self, Format};
use bip37_harness::runner::{Conformance, Run};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;
use std::io::IsTerminal;
use std::path::PathBuf;

/// When to colour the human report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    /// Only when writing to a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

/// `--format` by name: the library's [`Format`] knows no clap, so the names are listed here.
pub fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::ALL.map(Format::name))
        .map(|name: String| Format::from_name(&name).expect("a listed format name"))
}

/// `FORMAT:FILE`, e.g. `junit:reports/bip37.xml`.
pub fn parse_report(text: &str) -> Result<(Format, PathBuf), String> {
    let (format, file) = text
        .split_once(':')
        .filter(|(_, file)| !file.is_empty())
        .ok_or_else(|| format!("{text:?} is not FORMAT:FILE, e.g. markdown:summary.md"))?;
    let format = Format::from_name(format).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format {format:?}; one of: {}", names.join(", "))
    })?;
    Ok((format, PathBuf::from(file)))
}

/// The expectations file at `path` (none: no expectations); a missing file is empty when
/// `update` will create it, and otherwise gets the hint that `--update-expectations` does. The
/// exit code of a file that cannot be read. Shared by `run` and `node`.
pub fn load_expectations(path: Option<&std::path::Path>, update: bool) -> Result<Expectations, u8> {
    match path {
        Some(path) if update && !bip37_harness::input_file::exists(path) => {
            Ok(Expectations::default())
        }
        Some(path) => Expectations::load(path).map_err(|e| {
            let hint = match bip37_harness::input_file::exists(path) {
                true => "",
                false => "\nhint: --update-expectations creates it from this run's failures",
            };
            harness_error(&format!("expectations file {e}{hint}"))
        }),
        None => Ok(Expectations::default()),
    }
}

/// The lock `--update-expectations` holds on the expectations file from reading it to writing
/// it back, so that a second run at once waits and adds to what the first wrote (none without
/// the update). Shared by `run` and `node`.
pub fn lock_expectations(
    path: Option<&std::path::Path>,
    update: bool,
) -> Result<Option<bip37_harness::file_lock::RewriteLock>, u8> {
    match path {
        Some(path) if update => {
            bip37_harness::file_lock::lock(&[path], bip37_harness::file_lock::WAIT)
                .map(Some)
                .map_err(|e| harness_error(&format!("the expectations were NOT updated: {e}")))
        }
        _ => Ok(None),
    }
}

/// Where a run's reports go: the main report (`--format`, `--output`), the extra ones
/// (`--report`) and the colour of a human one. Flattened into `run` and `node`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The report format.
    #[arg(long, value_parser = format_parser(), default_value = "human")]
    pub format: Format,
    /// Write the report to this file instead of stdout (a one-line verdict goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the report in FORMAT to FILE, from the same run (e.g. `markdown:summary.md`
    /// next to `--format junit --output junit.xml`); repeatable.
    #[arg(long = "report", value_name = "FORMAT:FILE", value_parser = parse_report)]
    pub reports: Vec<(Format, PathBuf)>,
    /// Colour in the human report.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    pub color: Colour,
}

impl ReportArgs {
    /// Every file a report is written to (`--output`, then each `--report`).
    pub fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.output
            .iter()
            .chain(self.reports.iter().map(|(_, path)| path))
    }
}

/// Writes `run`'s reports; the exit code of a report that cannot be written.
pub fn deliver(run: &Run, to: &ReportArgs) -> Result<(), u8> {
    let colour = match to.color {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => {
            to.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let text = report::render(run, to.format, colour);
    match &to.output {
        Some(path) => {
            if let Err(e) = bip37_harness::atomic_file::write(path, text.as_bytes()) {
                return Err(harness_error(&format!(
                    "cannot write {}: {e}",
                    path.display()
                )));
            }
            for notice in report::notices(run) {
                bip37_harness::say!("bip37-conform: {notice}");
            }
            bip37_harness::say!(
                "bip37-conform: {}; {} report written to {}",
                report::verdict_text(run),
                format_name(to.format),
                path.display()
            );
        }
        None => {
            crate::output::print(&text);
            if crate::output::failed() {
                return Err(exit::HARNESS_ERROR);
            }
            if to.format != Format::Human {
                for notice in report::notices(run) {
                    bip37_harness::say!("bip37-conform: {notice}");
                }
                bip37_harness::say!("bip37-conform: {}", report::verdict_text(run));
            }
        }
    }
    for (format, path) in &to.reports {
        let text = report::render(run, *format, false);
        if let Err(e) = bip37_harness::atomic_file::write(path, text.as_bytes()) {
            return Err(harness_error(&format!(
                "cannot write {}: {e}",
                path.display()
            )));
        }
        bip37_harness::say!(
            "bip37-conform: {} report written to {}",
            format_name(*format),
            path.display()
        );
    }
    Ok(())
}

/// The exit code of `run`'s verdict.
pub fn exit_code(run: &Run) -> u8 {
    match run.conformance() {
        Conformance::Conformant => exit::CONFORMANT,
        Conformance::Failures => exit::FAILURES,
        Conformance::Breakdown => exit::BREAKDOWN,
        Conformance::NothingExercised => exit::NOTHING_EXERCISED,
    }
}

fn harness_error(message: &str) -> u8 {
    bip37_harness::say!("bip37-conform: {message}");
    exit::HARNESS_ERROR
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Human => "human",
        Format::Json => "JSON",
        Format::Junit => "JUnit",
        Format::Tap => "TAP",
        Format::Markdown => "Markdown",
        Format::Html => "HTML",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports() {
        let (format, file) = parse_report("markdown:out/summary.md").unwrap();
        assert_eq!(
            (format, file),
            (Format::Markdown, PathBuf::from("out/summary.md"))
        );
        assert!(parse_report("markdown").is_err());
        assert!(parse_report("markdown:").is_err());
        let (format, _) = parse_report("html:x.html").unwrap();
        assert_eq!(format, Format::Html);
        let unknown = parse_report("pdf:x.pdf").unwrap_err();
        assert!(
            unknown.contains("pdf") && unknown.contains("html"),
            "{unknown}"
        );
    }
}
