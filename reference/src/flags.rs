//! The `nFlags` byte. The wire keeps it raw (any of the 256 values is accepted); behaviour
//! looks only at `flags & 3`, and 3 acts like NONE because it equals neither ALL nor
//! P2PUBKEY_ONLY.

/// `BLOOM_UPDATE_NONE`.
pub const BLOOM_UPDATE_NONE: u8 = 0;
/// `BLOOM_UPDATE_ALL`.
pub const BLOOM_UPDATE_ALL: u8 = 1;
/// `BLOOM_UPDATE_P2PUBKEY_ONLY`.
pub const BLOOM_UPDATE_P2PUBKEY_ONLY: u8 = 2;
/// `BLOOM_UPDATE_MASK`: the bits of `nFlags` that mean anything.
pub const BLOOM_UPDATE_MASK: u8 = 3;

/// What a matching output does to the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateMode {
    /// Never insert outpoints (flags & 3 is 0 or 3).
    None,
    /// Insert the outpoint of every output with a matching push.
    All,
    /// Insert the outpoint only for pay-to-pubkey and bare multisig outputs.
    P2PubkeyOnly,
}

impl UpdateMode {
    /// The mode a raw flags byte selects.
    pub fn from_flags(flags: u8) -> Self {
        match flags & BLOOM_UPDATE_MASK {
            BLOOM_UPDATE_ALL => UpdateMode::All,
            BLOOM_UPDATE_P2PUBKEY_ONLY => UpdateMode::P2PubkeyOnly,
            _ => UpdateMode::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_low_two_bits_count() {
        assert_eq!(UpdateMode::from_flags(0), UpdateMode::None);
        assert_eq!(UpdateMode::from_flags(3), UpdateMode::None);
        assert_eq!(UpdateMode::from_flags(0xfd), UpdateMode::All);
        assert_eq!(UpdateMode::from_flags(0xfe), UpdateMode::P2PubkeyOnly);
        assert_eq!(UpdateMode::from_flags(0xff), UpdateMode::None);
    }
}
