//! The classic BIP 37 mistakes, one per bug class: the single table that names each mutant,
//! ties it to the vector flag (the bug class in the vectors' `notes`) it embodies, and says in
//! plain words what an implementation that behaves like it got wrong.

macro_rules! bugs {
    ($( $variant:ident = $name:literal, $flag:literal: $explanation:literal; )*) => {
        /// One classic mistake. A mutant is the reference with exactly one of these made.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Bug {
            $( #[doc = $explanation] $variant, )*
        }

        impl Bug {
            /// Every mistake, in table order.
            pub const ALL: &'static [Bug] = &[$(Bug::$variant),*];

            /// The mutant's name (`mutant:<name>` on the command line).
            pub fn name(self) -> &'static str {
                match self { $(Bug::$variant => $name,)* }
            }

            /// The vector flag naming this bug class.
            pub fn flag(self) -> &'static str {
                match self { $(Bug::$variant => $flag,)* }
            }

            /// What an implementation that answers like this mutant does wrong.
            pub fn explanation(self) -> &'static str {
                match self { $(Bug::$variant => $explanation,)* }
            }
        }
    };
}

bugs! {
    // MurmurHash3 and the seeds.
    BigEndianBlocks = "big-endian-blocks", "BigEndianBlocks":
        "MurmurHash3 looks like it reads its 4-byte blocks big-endian (Core reads them little-endian)";
    MurmurTail = "murmur-tail", "MurmurTail":
        "MurmurHash3's 1 to 3 tail bytes look combined in reverse order (tail[0] must be the lowest byte)";
    SignExtendedTail = "sign-extended-tail", "SignExtendedTail":
        "MurmurHash3's tail bytes look sign-extended (read as signed char) before they are shifted in";
    SeedNotWrapped = "seed-not-wrapped", "SeedNotWrapped":
        "the hash seed i*0xFBA4C795+tweak looks computed in 64 bits and never reduced modulo 2^32";
    SeedReducedMod2To31 = "seed-reduced-mod-2-to-31", "SeedReducedMod2To31":
        "the hash seed i*0xFBA4C795+tweak looks reduced modulo 2^31 (a signed 32-bit maximum) instead of 2^32";
    SignedTweak = "signed-tweak", "SignedTweak":
        "a tweak of 2^31 or more looks treated as a negative number in the seed arithmetic";
    // The constructor's sizing.
    FloatHashCount = "float-hash-count", "FloatHashCount":
        "the hash function count looks computed with floating-point division (bytes*8/n) instead of Core's integer division";
    SizeRoundedUp = "size-rounded-up", "SizeRoundedUp":
        "the filter size looks rounded up to whole bytes instead of truncated (Core floors bits/8)";
    HashCountFromRawBits = "hash-count-from-raw-bits", "HashCountFromRawBits":
        "the hash function count looks derived from the bit count before it was truncated to whole bytes";
    HashCountRounded = "hash-count-rounded", "HashCountRounded":
        "the hash function count looks rounded to nearest instead of truncated";
    ForcedMinimumOneHash = "forced-minimum-one-hash", "ForcedMinimumOneHash":
        "a computed hash function count of 0 looks raised to 1 (Core keeps 0: that filter matches everything)";
    NoHashFuncCap = "no-hash-func-cap", "NoHashFuncCap":
        "the computed hash function count is not capped at 50";
    NoFilterSizeCap = "no-filter-size-cap", "NoFilterSizeCap":
        "the computed filter size is not capped at 36,000 bytes";
    ByteCapAgainstBitLimit = "byte-cap-against-bit-limit", "ByteCapAgainstBitLimit":
        "the 288,000 bit limit looks applied to bytes: sizing caps the byte count at 288,000 and a node accepts filters up to 288,000 bytes";
    BitCapAgainstByteLimit = "bit-cap-against-byte-limit", "BitCapAgainstByteLimit":
        "the 36,000 byte limit looks applied to bits: sizing caps the bit count at 36,000 (4,500 bytes) and a node refuses filters over 4,500 bytes";
    UndefinedSizing = "undefined-sizing", "UndefinedSizing":
        "sizing answers for inputs Core leaves undefined (n = 0, a rate of 0 or less, NaN or infinite, most rates above 1, a bit count beyond 32 bits) where the suite requires a refusal";
    // The filter's bits.
    MsbFirstBits = "msb-first-bits", "MsbFirstBits":
        "bits look numbered most-significant first within a byte (Core: bit x is 1 << (x % 8) of byte x / 8)";
    ModulusByBytes = "modulus-by-bytes", "ModulusByBytes":
        "the bit index looks reduced modulo the byte count instead of the bit count (bytes*8)";
    HexTextHashed = "hex-text-hashed", "HexTextHashed":
        "elements look hashed as their hex text instead of their raw bytes";
    NoEmptyFilterGuard = "no-empty-filter-guard", "NoEmptyFilterGuard":
        "the empty filter is hashed into (the division by zero of CVE-2013-5700) instead of matching everything";
    EmptyElementSkipped = "empty-element-skipped", "EmptyElementSkipped":
        "the empty element looks skipped instead of hashed and inserted like any other";
    LongElementTruncated = "long-element-truncated", "LongElementTruncated":
        "elements longer than 520 bytes look truncated to 520 before they are hashed";
    // Message layout.
    BigEndianHashFuncs = "big-endian-hash-funcs", "BigEndianHashFuncs":
        "nHashFuncs looks serialized big-endian (it is a little-endian u32)";
    BigEndianTweak = "big-endian-tweak", "BigEndianTweak":
        "nTweak looks serialized big-endian (it is a little-endian u32)";
    BigEndianLength = "big-endian-length", "BigEndianLength":
        "multi-byte CompactSize lengths look serialized big-endian (they are little-endian)";
    CompactSizeBoundaryLate = "compact-size-boundary-late", "CompactSizeBoundaryLate":
        "the CompactSize one-byte form looks used for 253 too (written as the byte 0xfd, and a 0xfd marker read as the value 253): the boundary is one late";
    CompactSizeBoundaryEarly = "compact-size-boundary-early", "CompactSizeBoundaryEarly":
        "the CompactSize 0xfd form looks used for 252 already (written fd fc 00, and fd fc 00 accepted as canonical): the boundary is one early";
    NonCanonicalCompactSize = "non-canonical-compact-size", "NonCanonicalCompactSize":
        "a CompactSize in a longer form than its value needs is accepted (Core refuses it)";
    TruncationNotDetected = "truncation-not-detected", "TruncationNotDetected":
        "a payload that ends early looks read as if the missing bytes were there (short data, zero fields)";
    UntrustedLengthAllocation = "untrusted-length-allocation", "UntrustedLengthAllocation":
        "a length prefix looks trusted (no check against Core's 0x02000000 maximum before allocating it)";
    // Limits a node applies.
    NoFilterSizeLimit = "no-filter-size-limit", "NoFilterSizeLimit":
        "a filterload of more than 36,000 bytes is accepted";
    NoHashFuncLimit = "no-hash-func-limit", "NoHashFuncLimit":
        "a filterload with more than 50 hash functions is accepted";
    NoElementSizeLimit = "no-element-size-limit", "NoElementSizeLimit":
        "a filteradd element of more than 520 bytes is accepted";
    LimitOffByOne = "limit-off-by-one", "LimitOffByOne":
        "the limits look exclusive: 36,000 bytes, 50 hash functions or 520-byte elements are refused";
    // Transaction matching.
    TxidDisplayOrder = "txid-display-order", "TxidDisplayOrder":
        "the txid looks tested in display (RPC) byte order instead of internal order";
    BigEndianOutpointIndex = "big-endian-outpoint-index", "BigEndianOutpointIndex":
        "the outpoint's output index looks serialized big-endian (it is a little-endian u32)";
    AbortAfterTxidMatch = "abort-after-txid-match", "AbortAfterTxidMatch":
        "matching looks stopped at a txid match, skipping the outputs' outpoint updates (Core scans every output)";
    AbortAfterOutputMatch = "abort-after-output-match", "AbortAfterOutputMatch":
        "matching looks stopped at the first matching output, skipping the later outputs' updates";
    OutpointPerPush = "outpoint-per-push", "OutpointPerPush":
        "an outpoint looks inserted for every matching push, numbered by push instead of by output";
    P2PubkeyOnlyAnyOutput = "p2pubkey-only-any-output", "P2PubkeyOnlyAnyOutput":
        "under P2PUBKEY_ONLY the outpoint looks inserted for any matching output, not only pay-to-pubkey and bare multisig";
    FlagsNotMasked = "flags-not-masked", "FlagsNotMasked":
        "the update mode looks read from the whole flags byte instead of flags & 3";
    FlagsThreeAsAll = "flags-three-as-all", "FlagsThreeAsAll":
        "flags & 3 == 3 looks treated as UPDATE_ALL (Core: it equals neither ALL nor P2PUBKEY_ONLY, so nothing is inserted)";
    EmptyPushTested = "empty-push-tested", "EmptyPushTested":
        "empty pushes (OP_0, PUSHDATA of zero bytes) look tested as elements";
    SmallIntegerTested = "small-integer-tested", "SmallIntegerTested":
        "OP_1..OP_16 look tested as one-byte elements (they push no data)";
    MalformedPushNotStopping = "malformed-push-not-stopping", "MalformedPushNotStopping":
        "the bytes of a truncated push look tested (Core stops parsing the script there)";
    WitnessMatched = "witness-matched", "WitnessMatched":
        "witness items look tested against the filter (Core never tests witness data)";
    CoinbasePrevoutSkipped = "coinbase-prevout-skipped", "CoinbasePrevoutSkipped":
        "the coinbase input looks skipped (Core tests its null prevout and scriptSig pushes)";
    WholeScriptTested = "whole-script-tested", "WholeScriptTested":
        "whole scripts look tested as elements besides their pushes";
    // Merkle blocks and partial merkle trees.
    BlockUsesFilterSnapshot = "block-uses-filter-snapshot", "BlockUsesFilterSnapshot":
        "a block's transactions look evaluated against the filter as it was before the block (Core's updates apply to the later transactions)";
    PmtBitOrder = "pmt-bit-order", "PmtBitOrder":
        "the partial merkle tree's flag bits look packed most-significant first (Core packs least-significant first)";
    PmtPaddingNotChecked = "pmt-padding-not-checked", "PmtPaddingNotChecked":
        "a partial merkle tree with whole unused flag bytes is accepted (only the last byte may hold padding)";
    PmtUnusedHashesAccepted = "pmt-unused-hashes-accepted", "PmtUnusedHashesAccepted":
        "a partial merkle tree with unused hashes is accepted";
    PmtTransactionCountUnbounded = "pmt-transaction-count-unbounded", "PmtTransactionCountUnbounded":
        "a partial merkle tree claiming more than 16,666 transactions is accepted";
    PmtIdenticalSiblingsAccepted = "pmt-identical-siblings-accepted", "PmtIdenticalSiblingsAccepted":
        "a partial merkle tree with identical sibling hashes is accepted (CVE-2012-2459)";
    // A node's session.
    UpdatesNotPersisted = "updates-not-persisted", "UpdatesNotPersisted":
        "outpoints inserted while evaluating a transaction or block look lost afterwards (the filter is updated on a copy)";
    FilterclearIgnored = "filterclear-ignored", "FilterclearIgnored":
        "filterclear looks ignored: the old filter stays in place";
    RejectedFilterloadReplaces = "rejected-filterload-replaces", "RejectedFilterloadReplaces":
        "a filterload over the limits looks installed although it is refused (Core keeps the previous filter)";
    FilteraddWithoutFilterAccepted = "filteradd-without-filter-accepted", "FilteraddWithoutFilterAccepted":
        "filteradd with no filter loaded looks accepted (Core: misbehaving)";
    MalformedMessagePunished = "malformed-message-punished", "MalformedMessagePunished":
        "an undecodable filterload or filteradd looks punished as misbehaviour (Core drops it without penalty)";
}

#[cfg(test)]
mod tests {
    use super::Bug;
    use std::collections::BTreeSet;

    #[test]
    fn names_and_flags_are_unique() {
        let names: BTreeSet<_> = Bug::ALL.iter().map(|b| b.name()).collect();
        let flags: BTreeSet<_> = Bug::ALL.iter().map(|b| b.flag()).collect();
        assert_eq!(names.len(), Bug::ALL.len());
        assert_eq!(flags.len(), Bug::ALL.len());
    }
}
