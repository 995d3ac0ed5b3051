//! The questions `regen` asks the node, one file per kind:
//!
//! - [`bits`]: bit positions of the vectors' elements (exact bits match, each bit cleared does
//!   not);
//! - [`places`]: which parts of a transaction are tested and which are not;
//! - [`update`]: the update modes on real blocks (UPDATE_ALL parent and child, P2PUBKEY_ONLY,
//!   NONE);
//! - [`limits`]: the size limits and misbehaviour rules, with the behaviour nodes
//!   legitimately differ on kept apart.
//!
//! Every filtered-block answer is compared byte for byte with the reference ([`scenario`]
//! and [`crate::regen::oracle`]).

pub mod bits;
pub mod limits;
pub mod places;
pub mod scenario;
pub mod update;

/// What a run found besides the records: disagreements with the reference (each fails the
/// run) and notes worth printing.
#[derive(Debug, Default)]
pub struct Findings {
    pub disagreements: Vec<String>,
    pub notes: Vec<String>,
}

impl Findings {
    /// The node's bytes differ from the reference's for probe `id`.
    pub fn disagree(&mut self, id: &str, detail: String) {
        self.disagreements.push(format!("{id}: {detail}"));
    }

    /// The probe a line of `disagreements` is about: one probe may disagree in several
    /// messages (its `merkleblock` and its `tx`), each a line.
    pub fn probe_of(disagreement: &str) -> &str {
        disagreement
            .split_once(": ")
            .map_or(disagreement, |(id, _)| id)
    }

    /// Something to report that is not a failure.
    pub fn note(&mut self, text: String) {
        self.notes.push(text);
    }
}
