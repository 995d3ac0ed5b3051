//! How long each of an adapter's commands may take: `deadlines = { install = "2h" }` in its
//! manifest, a default for each command left out. `adapters install` and `adapters check` end a
//! command that outlives its deadline as they end one on a signal ([`super::child`]), so a hung
//! `install` or a node's `start` that never returns cannot hold CI until it is killed from
//! outside.

use serde::Deserialize;
use std::time::Duration;

/// The deadline of a command its manifest gives none: `install`, `build` and `test`.
pub const SETUP_DEFAULT: Duration = Duration::from_secs(60 * 60);

/// The default deadline of a check: `run` (a whole `bip37-conform run`, whose own waits are
/// bounded too) and a node's `start` with its `run` appended (which may build the node first).
pub const CHECK_DEFAULT: Duration = Duration::from_secs(2 * 60 * 60);

/// The deadlines a manifest sets, each in the units `--timeout` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deadlines {
    #[serde(default, with = "super::manifest::duration_text")]
    pub install: Option<Duration>,
    #[serde(default, with = "super::manifest::duration_text")]
    pub build: Option<Duration>,
    #[serde(default, with = "super::manifest::duration_text")]
    pub test: Option<Duration>,
    /// A node's `start`, which wraps `run`: the whole check.
    #[serde(default, with = "super::manifest::duration_text")]
    pub start: Option<Duration>,
    /// A protocol or Rust adapter's check, `bip37-conform run` of its `run` line.
    #[serde(default, with = "super::manifest::duration_text")]
    pub run: Option<Duration>,
}

impl Deadlines {
    /// The deadline of the manifest's command `field` (`start+run` is a node's check).
    pub fn of(&self, field: &str) -> Duration {
        let (set, default) = match field {
            "install" => (self.install, SETUP_DEFAULT),
            "build" => (self.build, SETUP_DEFAULT),
            "test" => (self.test, SETUP_DEFAULT),
            "start" | "start+run" => (self.start, CHECK_DEFAULT),
            _ => (self.run, CHECK_DEFAULT),
        };
        set.unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_without_a_deadline_gets_the_default() {
        let set = Deadlines {
            install: Some(Duration::from_secs(5)),
            ..Deadlines::default()
        };
        assert_eq!(set.of("install"), Duration::from_secs(5));
        assert_eq!(set.of("build"), SETUP_DEFAULT);
        assert_eq!(set.of("start+run"), CHECK_DEFAULT);
        assert_eq!(set.of("run"), CHECK_DEFAULT);
    }
}
