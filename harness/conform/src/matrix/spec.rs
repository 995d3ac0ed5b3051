//! The columns of `bip37-conform matrix`: an `--impl name="<command>"` argument (a column name
//! and the command line of a protocol v1 child, split into argv without a shell) or an adapter's
//! manifest (`--adapters DIR`), which may also set a longer answer timeout and names the
//! expectations file the column is held to.

use crate::adapters::{Kind, Manifest};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// One implementation to put in the matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImplSpec {
    /// The column's name.
    pub name: String,
    /// The command line as given.
    pub command: String,
    /// The command split into program and arguments.
    pub argv: Vec<String>,
    /// The longest wait for one answer, if not the command line's `--timeout`.
    pub timeout: Option<Duration>,
    /// The expectations file the column's run is held to for the exit code (an adapter's
    /// manifest names one; an `--impl` column has none, so any failure counts).
    pub expectations: Option<PathBuf>,
}

/// Why an `--impl` argument was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl ImplSpec {
    /// Parses `name=command`; the name is everything before the first `=`.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let Some((name, command)) = text.split_once('=') else {
            return Err(SpecError(format!(
                "--impl {text:?}: expected name=\"<command>\" (a column name, `=`, a command line)"
            )));
        };
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(SpecError(format!(
                "--impl {text:?}: the column name must be a non-empty word"
            )));
        }
        let argv = shlex::split(command)
            .filter(|argv| !argv.is_empty())
            .ok_or_else(|| {
                SpecError(format!(
                    "--impl {text:?}: the command is empty or has an unclosed quote"
                ))
            })?;
        Ok(ImplSpec {
            name: name.to_string(),
            command: command.trim().to_string(),
            argv,
            timeout: None,
            expectations: None,
        })
    }

    /// The column of an adapter's manifest; none for a node, which is not a protocol child.
    pub fn from_manifest(manifest: &Manifest) -> Option<Result<Self, SpecError>> {
        if manifest.kind == Kind::Node {
            return None;
        }
        let argv = crate::adapters::manifest::split(&manifest.run)
            .map_err(|e| SpecError(format!("{}: run: {e}", manifest.name)));
        Some(argv.map(|argv| ImplSpec {
            name: manifest.column().to_string(),
            command: manifest.run.clone(),
            argv,
            timeout: manifest.timeout,
            expectations: Some(manifest.expectations.clone()),
        }))
    }
}

/// Refuses two columns with the same name.
pub fn check_unique(specs: &[ImplSpec]) -> Result<(), SpecError> {
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].iter().any(|s| s.name == spec.name) {
            return Err(SpecError(format!(
                "the column name {:?} is used twice",
                spec.name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_name_and_quoted_command() {
        let spec = ImplSpec::parse("bfilter=node 'adapters/b filter/adapter.js' --x=1").unwrap();
        assert_eq!(spec.name, "bfilter");
        assert_eq!(spec.argv, ["node", "adapters/b filter/adapter.js", "--x=1"]);
    }

    #[test]
    fn refuses_bad_arguments() {
        for bad in [
            "no-equals",
            "=node a.js",
            "two words=node",
            "x=",
            "x=node 'open",
        ] {
            assert!(ImplSpec::parse(bad).is_err(), "{bad}");
        }
        let specs = [
            ImplSpec::parse("a=x").unwrap(),
            ImplSpec::parse("a=y").unwrap(),
        ];
        assert!(check_unique(&specs).unwrap_err().0.contains("twice"));
    }
}
