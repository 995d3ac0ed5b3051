//! The notes of the flags that are not bug classes: the DIVERGENCE notes that explain
//! `acceptable` tests (Core's answer is `expected`, and the suite tolerates a rejection too).
//! Every other flag is a bug class, defined once in the registry [`crate::mutants::Bug`].
//! Files carry only the notes of the flags their tests use; a divergence no file uses is an
//! error of the generator.

use crate::mutants::Bug;
use crate::vectors::model::{BugType, Note};

/// One divergence.
pub struct FlagDef {
    pub name: &'static str,
    pub description: &'static str,
    pub effect: &'static str,
}

const fn flag(name: &'static str, description: &'static str, effect: &'static str) -> FlagDef {
    FlagDef {
        name,
        description,
        effect,
    }
}

/// The policy of every DIVERGENCE note: Core's answer is `expected`, a rejection is tolerated.
const TOLERATED_REJECTION: &str = "Core answers `expected`; tolerating a rejection as well is the suite's policy, not Core's behaviour.";

/// The divergences.
pub const CATALOG: &[FlagDef] = &[
    flag("RawFlagsByte",
        "Core accepts any nFlags byte and uses only flags & 3 (3 acts like NONE); rust-bitcoin's decoder refuses values above 2.",
        "Both behaviours are tolerated: an implementation may reject the byte, but if it accepts it must keep it."),
    flag("TrailingBytesIgnoredByCore",
        "Core's node ignores bytes after a complete filterload or filteradd payload; strict decoders (this reference, rust-bitcoin) reject them.",
        "Both behaviours are tolerated; an implementation that accepts must return the decoded prefix."),
    flag("LimitsEnforcedAtDecode",
        "Core decodes an oversize filterload and only then applies the limits; some decoders refuse oversize filters while decoding.",
        "Both are tolerated for the decode-only operation; the accept operation must reject."),
];

/// The note of a flag, as a file carries it: a bug class's from the registry
/// ([`crate::mutants::Bug`]), a divergence's from this catalog.
pub fn note(name: &str) -> Option<Note> {
    if let Some(bug) = Bug::ALL.iter().find(|b| b.flag() == name) {
        return Some(bug.note());
    }
    CATALOG.iter().find(|f| f.name == name).map(|f| Note {
        bug_type: BugType::Divergence,
        description: f.description.into(),
        effect: f.effect.into(),
        links: Vec::new(),
        cves: Vec::new(),
        policy: Some(TOLERATED_REJECTION.into()),
    })
}
