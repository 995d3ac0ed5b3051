//! The upstream status of a deviation, from the columns of the same library at other versions:
//! "fixed in X" when the newest checked version passes every test of the deviation (X is the
//! lowest version from which every newer one passes, so a fix undone later is no fix), otherwise
//! "present in the newest checked" (this version, or the newest one, still fails). The newest
//! version is the highest among the library's columns, so a library checked at one version
//! only is reported present in that version: the page says "the newest checked", never more.
//!
//! A library is its registry and its name, with a Go major-version suffix (`/v2`) removed:
//! Go's semantic import versioning makes `btcutil` and `btcutil/v2` two module paths of one
//! library, and a fix in v2 is a fix of that library.

use std::cmp::Ordering;
use std::fmt;

/// The library a column checks, for finding its other versions.
pub fn family(registry: &str, name: &str) -> String {
    let base = match name.rsplit_once("/v") {
        Some((base, major))
            if !base.is_empty()
                && major.len() <= 3
                && major.parse::<u32>().is_ok_and(|m| m >= 2) =>
        {
            base
        }
        _ => name,
    };
    format!("{registry}:{base}")
}

/// Compares two version strings: a leading `v` is ignored, dot-separated parts compare as
/// numbers where both are numbers and as text otherwise, and a pre-release (`1.0.0-rc1`)
/// comes before its release.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let (a_release, a_pre) = split_pre(a);
    let (b_release, b_pre) = split_pre(b);
    let mut a_parts = a_release.split('.');
    let mut b_parts = b_release.split('.');
    loop {
        match (a_parts.next(), b_parts.next()) {
            (None, None) => break,
            (x, y) => {
                let order = compare_part(x.unwrap_or("0"), y.unwrap_or("0"));
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
    match (a_pre, b_pre) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => compare_versions(x, y),
    }
}

fn split_pre(version: &str) -> (&str, Option<&str>) {
    let version = version.strip_prefix('v').unwrap_or(version);
    let version = version.split_once('+').map_or(version, |(v, _)| v);
    match version.split_once('-') {
        Some((release, pre)) => (release, Some(pre)),
        None => (version, None),
    }
}

fn compare_part(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// How one other column of the same library did on a deviation's tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every test passed.
    Passes,
    /// At least one test failed.
    Fails,
    /// Neither: some test was not answered (unsupported, not run) and none failed.
    NotAnswered,
}

/// The upstream status of a deviation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The lowest newer version from which every checked version passes every test.
    FixedIn(String),
    /// Still failing in the newest checked version (this one, or a newer one).
    PresentInNewest(String),
    /// The newest checked version does not answer these tests, and no newer one passes them.
    NotAnsweredInNewest(String),
}

impl Status {
    /// True for a deviation no checked newer version fixes.
    pub fn unfixed(&self) -> bool {
        !matches!(self, Status::FixedIn(_))
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::FixedIn(v) => write!(f, "fixed in {v}"),
            Status::PresentInNewest(v) => write!(f, "present in the newest checked, {v}"),
            Status::NotAnsweredInNewest(v) => {
                write!(f, "not answered by the newest checked, {v}")
            }
        }
    }
}

/// The status of a deviation of version `version`, given every other checked version of the
/// same library with its outcome on the deviation's tests.
pub fn status(version: &str, others: &[(String, Outcome)]) -> Status {
    let mut newer: Vec<&(String, Outcome)> = others
        .iter()
        .filter(|(v, _)| compare_versions(v, version) == Ordering::Greater)
        .collect();
    newer.sort_by(|a, b| compare_versions(&a.0, &b.0));
    let passing = newer
        .iter()
        .rev()
        .take_while(|(_, o)| *o == Outcome::Passes)
        .count();
    if passing > 0 {
        return Status::FixedIn(newer[newer.len() - passing].0.clone());
    }
    match newer.last() {
        None => Status::PresentInNewest(version.to_string()),
        Some((newest, Outcome::NotAnswered)) => Status::NotAnsweredInNewest(newest.clone()),
        Some((newest, _)) => Status::PresentInNewest(newest.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_numerically_with_prereleases_first() {
        assert_eq!(compare_versions("0.16.10", "0.16.9"), Ordering::Greater);
        assert_eq!(compare_versions("v0.24.2", "0.24.2"), Ordering::Equal);
        assert_eq!(compare_versions("1.0.0-rc1", "1.0.0"), Ordering::Less);
        assert_eq!(compare_versions("1.0", "1.0.0"), Ordering::Equal);
        assert_eq!(compare_versions("0.17.0", "0.16.99"), Ordering::Greater);
        assert_eq!(
            compare_versions("2.0.0-beta.2", "2.0.0-beta.10"),
            Ordering::Less
        );
    }

    #[test]
    fn a_go_major_version_suffix_is_the_same_library() {
        let v1 = family("Go", "github.com/btcsuite/btcd/btcutil");
        assert_eq!(v1, family("Go", "github.com/btcsuite/btcd/btcutil/v2"));
        assert_ne!(v1, family("Go", "github.com/gcash/bchutil"));
        assert_ne!(family("npm", "a/v1"), family("npm", "a"));
        assert_ne!(family("PyPI", "x"), family("npm", "x"));
    }

    #[test]
    fn fixed_in_the_lowest_newer_version_that_passes() {
        let others = [
            ("0.17.1".to_string(), Outcome::Passes),
            ("0.17.0".to_string(), Outcome::Passes),
            ("0.15.0".to_string(), Outcome::Passes),
        ];
        assert_eq!(status("0.16.2", &others), Status::FixedIn("0.17.0".into()));
        let failing = [("0.17.1".to_string(), Outcome::Fails)];
        assert_eq!(
            status("0.16.2", &failing),
            Status::PresentInNewest("0.17.1".into())
        );
        // An older version passing says nothing about a fix.
        let older = [("0.15.0".to_string(), Outcome::Passes)];
        assert_eq!(
            status("0.16.2", &older),
            Status::PresentInNewest("0.16.2".into())
        );
        // Fixed, then broken again: present.
        let regressed = [
            ("0.17.0".to_string(), Outcome::Passes),
            ("0.17.1".to_string(), Outcome::Fails),
        ];
        assert_eq!(
            status("0.16.2", &regressed),
            Status::PresentInNewest("0.17.1".into())
        );
        let silent = [("0.17.1".to_string(), Outcome::NotAnswered)];
        assert_eq!(
            status("0.16.2", &silent),
            Status::NotAnsweredInNewest("0.17.1".into())
        );
        assert!(!Status::FixedIn("1".into()).unfixed());
    }
}
