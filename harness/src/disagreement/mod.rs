//! An implementation's answer against the reference's: whether they agree ([`compare`]), and a
//! disagreement written as a ready-to-commit vector ([`vector`]). The fuzz campaign of
//! `bip37-conform` and the cargo-fuzz targets in `fuzz/` both use them, so they live in the
//! library both depend on.

pub mod compare;
pub mod policy;
pub mod vector;
