//! The registry of built-in implementations (`--builtin NAME`, `serve --builtin NAME`): one
//! line per entry. An entry whose name ends in `:` is a family: `family:member` hands `member`
//! to its constructor.

use bip37_harness::implementation::Implementation;
use bip37_harness::reference_impl::Reference;

/// One built-in implementation, or a family of them.
pub struct Builtin {
    /// The selector, or a family prefix ending in `:`.
    pub name: &'static str,
    /// One line for `--help` and error messages.
    pub about: &'static str,
    /// Builds the implementation; a family gets the member name and may not know it.
    pub make: fn(&str) -> Option<Box<dyn Implementation>>,
    /// A family's member names (none for a single implementation).
    pub members: fn() -> Vec<&'static str>,
}

/// Every built-in implementation.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "reference",
        about: "bip37-reference, the Bitcoin Core-exact oracle",
        make: |_| Some(Box::new(Reference)),
        members: Vec::new,
    },
    Builtin {
        name: "mutant:",
        about: "mutant:<name>, the reference with one classic mistake (`bip37-conform mutants` lists them)",
        make: |name| {
            bip37_harness::mutants::by_name(name).map(|m| Box::new(m) as Box<dyn Implementation>)
        },
        members: || bip37_harness::mutants::Bug::ALL.iter().map(|b| b.name()).collect(),
    },
];

/// The built-in implementation called `selector`, or an error listing the known names.
pub fn builtin(selector: &str) -> Result<Box<dyn Implementation>, String> {
    let found = BUILTINS
        .iter()
        .find_map(|b| match b.name.strip_suffix(':') {
            Some(family) => selector
                .strip_prefix(family)
                .and_then(|rest| rest.strip_prefix(':'))
                .and_then(b.make),
            None => (b.name == selector).then(|| (b.make)(selector)).flatten(),
        });
    found.ok_or_else(|| {
        let known: Vec<String> = BUILTINS
            .iter()
            .map(|b| {
                let members: Vec<String> = (b.members)()
                    .into_iter()
                    .map(|member| format!("{}{member}", b.name))
                    .collect();
                match members.is_empty() {
                    true => format!("{} ({})", b.name, b.about),
                    false => format!("{} ({}: {})", b.name, b.about, members.join(", ")),
                }
            })
            .collect();
        format!(
            "no built-in implementation {selector:?}; known: {}",
            known.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::builtin;

    #[test]
    fn finds_the_reference_and_names_the_known_ones_otherwise() {
        assert_eq!(builtin("reference").unwrap().name(), "reference");
        let err = builtin("nope").err().unwrap();
        assert!(err.contains("reference"), "{err}");
        let err = builtin("mutant:nope").err().unwrap();
        for bug in bip37_harness::mutants::Bug::ALL {
            assert!(err.contains(&format!("mutant:{}", bug.name())), "{err}");
        }
    }
}
