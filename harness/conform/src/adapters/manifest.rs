//! One adapter described as data: `adapters/<name>/adapter.toml`, read by `bip37-conform
//! adapters` (install, build and check each one) and `bip37-conform matrix --adapters` (a
//! column each), so that adding an adapter is adding its directory, not editing `.ci/run` and
//! README (the format: adapters/README.md).
//!
//! Every path and command line in a manifest is relative to the directory `bip37-conform` runs
//! in, the repository root; command lines are split like a shell would, and run without one.

use super::deadlines::Deadlines;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file name of a manifest inside an adapter's directory.
pub const FILE_NAME: &str = "adapter.toml";

/// The largest manifest read: a manifest is a dozen lines.
const MAX_BYTES: u64 = 64 * 1024;

/// What a manifest describes, which says how it is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A program in any language that speaks the subprocess protocol (`run` is its command).
    Subprocess,
    /// A Rust crate checked through the `Implementation` trait, whose server binary speaks the
    /// subprocess protocol (`run` is that binary, made by `build`).
    Rust,
    /// A live node: `start` is a command that starts it, runs the command line appended to it
    /// (`run`, the node suite's whole command line, whose exit code is the verdict) and stops
    /// it. Not a matrix column.
    Node,
}

/// The library an adapter puts under test, pinned.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Library {
    /// Its name in its registry.
    pub name: String,
    /// The pinned version.
    pub version: String,
    /// Where it comes from: crates.io, PyPI, npm, Debian, or a release of its own.
    pub registry: String,
    /// Its page.
    pub link: Option<String>,
}

/// One `adapter.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The adapter's name: its directory's name.
    pub name: String,
    pub kind: Kind,
    /// The language of the adapter's code (Python, JavaScript, Rust, ...).
    pub language: String,
    pub library: Library,
    /// Installs the pinned library (a script of the adapter's, usually), if anything must be.
    pub install: Option<String>,
    /// Builds the adapter (a Rust crate's server binary).
    pub build: Option<String>,
    /// The adapter's own tests, run after `build` (a crate with a lockfile of its own, which
    /// `cargo test --workspace` does not reach).
    pub test: Option<String>,
    /// Wraps `run` (a node): starts the node, runs `run` appended to it, stops the node.
    pub start: Option<String>,
    /// The command line `bip37-conform run --impl` takes (for a node: the node suite's command).
    pub run: String,
    /// The expectations file the run is held to.
    pub expectations: PathBuf,
    /// The longest wait for one answer (`--timeout`), where the default 5s is too short.
    #[serde(default, with = "duration_text")]
    pub timeout: Option<Duration>,
    /// How long each command may run before it is ended (a default for each left out).
    #[serde(default)]
    pub deadlines: Deadlines,
    /// The matrix column's label, if not the name.
    pub column: Option<String>,
    /// What the adapter can and cannot do, for people.
    pub notes: Option<String>,
}

/// Why a manifest was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// The manifest, or the directory that was being read.
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ManifestError {}

impl Manifest {
    /// Parses `text`, the manifest at `path`, and checks that its name is its directory's and
    /// that each command line splits.
    pub fn parse(path: &Path, text: &str) -> Result<Self, ManifestError> {
        let error = |message: String| ManifestError {
            path: path.to_path_buf(),
            message,
        };
        let manifest: Manifest = toml::from_str(text).map_err(|e| error(e.to_string()))?;
        let directory = path.parent().and_then(Path::file_name);
        if directory.is_some_and(|d| d != manifest.name.as_str()) {
            return Err(error(format!(
                "name {:?} is not the name of its directory",
                manifest.name
            )));
        }
        if manifest.column().is_empty() || manifest.column().contains(char::is_whitespace) {
            return Err(error("the column label must be a non-empty word".into()));
        }
        for (field, command) in manifest.commands() {
            split(command).map_err(|e| error(format!("{field}: {e}")))?;
        }
        let misplaced = match manifest.kind {
            Kind::Node => None,
            _ => manifest.start.as_ref().map(|_| "start"),
        };
        if let Some(field) = misplaced {
            return Err(error(format!("{field} is for kind = \"node\" only")));
        }
        Ok(manifest)
    }

    /// Reads and parses the manifest at `path`.
    pub fn load(path: &Path) -> Result<Self, ManifestError> {
        let text =
            bip37_harness::input_file::read_text(path, MAX_BYTES).map_err(|e| ManifestError {
                path: path.to_path_buf(),
                message: match std::fs::read_link(path) {
                    Ok(target) if !bip37_harness::input_file::exists(path) => format!(
                        "a symbolic link to {}, which leads nowhere ({e})",
                        target.display()
                    ),
                    _ => e.to_string(),
                },
            })?;
        Self::parse(path, &text)
    }

    /// The matrix column's label.
    pub fn column(&self) -> &str {
        self.column.as_deref().unwrap_or(&self.name)
    }

    /// Every command line of the manifest with its field name, in the order they run.
    pub fn commands(&self) -> Vec<(&'static str, &str)> {
        let optional = [
            ("install", &self.install),
            ("build", &self.build),
            ("test", &self.test),
            ("start", &self.start),
        ];
        let mut commands: Vec<(&'static str, &str)> = optional
            .into_iter()
            .filter_map(|(field, command)| command.as_deref().map(|c| (field, c)))
            .collect();
        commands.push(("run", &self.run));
        commands
    }

    /// The setup commands (`install`, `build`, `test`), in the order they run.
    pub fn setup(&self) -> Vec<(&'static str, &str)> {
        let setup = ["install", "build", "test"];
        let commands = self.commands();
        commands
            .into_iter()
            .filter(|(field, _)| setup.contains(field))
            .collect()
    }
}

/// A command line split into program and arguments, like a shell would split it.
pub fn split(command: &str) -> Result<Vec<String>, String> {
    shlex::split(command)
        .filter(|argv| !argv.is_empty())
        .ok_or_else(|| format!("the command {command:?} is empty or has an unclosed quote"))
}

/// One adapter directory's manifest: read and parsed, or refused.
pub type Entry = Result<Manifest, ManifestError>;

/// The name of the adapter whose manifest `entry` is (its directory's name when the manifest
/// was refused).
pub fn entry_name(entry: &Entry) -> String {
    match entry {
        Ok(manifest) => manifest.name.clone(),
        Err(e) => e
            .path
            .parent()
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

/// The manifest of every directory directly under `dir`, in name order, each read or refused.
/// A directory without a manifest (shared code such as `js-protocol/`) is not an adapter and is
/// passed over; a manifest path that is there but is not a regular file (a link that leads
/// nowhere, a directory, a FIFO) or does not parse is an adapter whose manifest is refused, so
/// that no adapter that is there goes unchecked.
pub fn scan(dir: &Path) -> Result<Vec<Entry>, ManifestError> {
    let error = |message: String| ManifestError {
        path: dir.to_path_buf(),
        message,
    };
    let entries = std::fs::read_dir(dir).map_err(|e| error(e.to_string()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| error(e.to_string()))?.path();
        let manifest = path.join(FILE_NAME);
        // symlink_metadata: a dangling link is there, though nothing is behind it.
        if path.is_dir() && manifest.symlink_metadata().is_ok() {
            paths.push(manifest);
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(error(format!("no */{FILE_NAME} in this directory")));
    }
    Ok(paths.iter().map(|p| Manifest::load(p)).collect())
}

/// Every manifest of the directories directly under `dir` ([`scan`]), or the first refused.
pub fn load_all(dir: &Path) -> Result<Vec<Manifest>, ManifestError> {
    scan(dir)?.into_iter().collect()
}

/// `timeout = "60s"`, in the units `--timeout` takes.
pub(super) mod duration_text {
    use serde::{Deserialize, Deserializer};
    use std::time::Duration;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let text = String::deserialize(d)?;
        crate::options::parse_duration(&text)
            .map(Some)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SV: &str = r#"
        name = "sv"
        kind = "rust"
        language = "Rust"
        library = { name = "sv", version = "0.2.2", registry = "crates.io" }
        build = "cargo build --manifest-path adapters/sv/Cargo.toml"
        test = "cargo test --manifest-path adapters/sv/Cargo.toml"
        run = "adapters/sv/target/debug/bip37-sv"
        expectations = "adapters/sv/expectations.toml"
        timeout = "60s"
    "#;

    fn parse(text: &str) -> Result<Manifest, ManifestError> {
        Manifest::parse(Path::new("adapters/sv/adapter.toml"), text)
    }

    #[test]
    fn reads_a_rust_adapter() {
        let sv = parse(SV).unwrap();
        assert_eq!(sv.kind, Kind::Rust);
        assert_eq!(sv.timeout, Some(Duration::from_secs(60)));
        assert_eq!(sv.column(), "sv");
        let fields: Vec<&str> = sv.setup().iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["build", "test"]);
    }

    #[test]
    fn refuses_what_would_run_the_wrong_thing() {
        let cases = [
            (SV.replace("name = \"sv\"", "name = \"nour\""), "directory"),
            (SV.replace("kind = \"rust\"", "kind = \"java\""), "kind"),
            (SV.replace("\"60s\"", "\"60\""), "unit"),
            (SV.replace("bip37-sv\"", "bip37-sv '\""), "quote"),
            (SV.replace("language", "lang"), "unknown field"),
            (SV.replace("test = ", "start = "), "node"),
            (format!("{SV}\ncolumn = \"s v\""), "column"),
            (SV.replace("expectations = ", "# "), "expectations"),
        ];
        for (text, why) in cases {
            let err = parse(&text).unwrap_err().to_string();
            assert!(err.contains(why), "{why}: {err}");
        }
    }

    #[test]
    fn a_node_has_a_start_command() {
        let node = r#"
            name = "sv"
            kind = "node"
            language = "C++"
            library = { name = "Bitcoin Core", version = "28.1", registry = "Debian" }
            start = "scripts/live-node.sh --serve --"
            run = "target/debug/bip37-conform node --rpc 127.0.0.1:18443"
            expectations = "adapters/nodes/sv/expectations.toml"
        "#;
        let node = parse(node).unwrap();
        let fields: Vec<&str> = node.commands().iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["start", "run"]);
    }
}
