//! Choosing which tests run: by id glob, phase, flag, source kind and operation. Within one
//! criterion any listed value matches; a test must match every criterion that is given.

use crate::ops::OpName;
use crate::vectors::{LoadedTest, Phase, Source};

/// A test selection; the default selects everything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Glob patterns over test ids (`*` any run of characters, `?` one character).
    pub ids: Vec<String>,
    pub phases: Vec<Phase>,
    pub flags: Vec<String>,
    /// Source kinds: `core`, `bip`, `literature`, `generated`.
    pub sources: Vec<String>,
    pub operations: Vec<OpName>,
}

impl Selection {
    /// True when `test` meets every given criterion.
    pub fn matches(&self, test: &LoadedTest) -> bool {
        fn any<T>(wanted: &[T], hit: impl Fn(&T) -> bool) -> bool {
            wanted.is_empty() || wanted.iter().any(hit)
        }
        any(&self.ids, |p| glob_matches(p, &test.case.id))
            && any(&self.phases, |p| *p == test.case.phase)
            && any(&self.flags, |f| test.case.flags.contains(f))
            && any(&self.sources, |s| s == source_kind(&test.group.source))
            && any(&self.operations, |o| *o == test.request.op())
    }

    /// Warnings for the criteria that can never match: an id glob no test matches, a flag no
    /// test carries (usually a typo, which would otherwise select nothing silently).
    pub fn unmatched(&self, tests: &[LoadedTest]) -> Vec<String> {
        let globs = self
            .ids
            .iter()
            .filter(|g| !tests.iter().any(|t| glob_matches(g, &t.case.id)))
            .map(|g| format!("--id {g} matches no test"));
        let flags = self
            .flags
            .iter()
            .filter(|f| !tests.iter().any(|t| t.case.flags.contains(f)))
            .map(|f| format!("--flag {f} is carried by no test"));
        globs.chain(flags).collect()
    }

    /// The selected tests, in vector order.
    pub fn apply<'a>(&self, tests: &'a [LoadedTest]) -> Vec<&'a LoadedTest> {
        tests.iter().filter(|t| self.matches(t)).collect()
    }
}

/// The `kind` of a source as written in vector files.
pub fn source_kind(source: &Source) -> &'static str {
    match source {
        Source::Core { .. } => "core",
        Source::Bip { .. } => "bip",
        Source::Literature { .. } => "literature",
        Source::Generated { .. } => "generated",
    }
}

/// A vector enum (`Phase`, `Expectation`, ...) as vector files write it, e.g. `serialize`.
pub fn wire_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        other => format!("{other:?}"),
    }
}

/// Matches `text` against a glob where `*` is any run of characters and `?` one character.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Iterative matching with backtracking to the last `*`: linear in practice, never exponential.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn wire_names_are_the_vector_spelling() {
        use crate::vectors::{Expectation, Phase};
        assert_eq!(super::wire_name(&Phase::Serialize), "serialize");
        assert_eq!(super::wire_name(&Expectation::Acceptable), "acceptable");
    }

    #[test]
    fn globs() {
        assert!(glob_matches("murmur3_test/*", "murmur3_test/empty"));
        assert!(glob_matches("*tail?", "murmur3_test/tail3"));
        assert!(glob_matches("*", ""));
        assert!(glob_matches("a*b*c", "axxbyyc"));
        assert!(!glob_matches("a*b*c", "axxbyy"));
        assert!(!glob_matches("murmur3_test/*", "sizing_test/x"));
        assert!(glob_matches("exact", "exact"));
        assert!(!glob_matches("exact", "exactly"));
    }
}
