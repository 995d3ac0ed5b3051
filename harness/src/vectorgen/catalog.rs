//! Every flag a vector may carry, defined once: the bug class it names, what the flagged tests
//! check and what goes wrong in an implementation that fails them. Files carry only the notes
//! of the flags their tests use; a flag that no file uses is an error of the generator.
//!
//! Flags are named after the MISTAKE (one mutant implementation per flag can reproduce it),
//! except the DIVERGENCE and UNDEFINED notes, which explain `acceptable` and `invalid` tests.

use crate::vectors::model::{BugType, Note};

/// One catalog entry.
pub struct FlagDef {
    pub name: &'static str,
    pub bug_type: BugType,
    pub description: &'static str,
    pub effect: &'static str,
    pub cves: &'static [&'static str],
}

const fn flag(
    name: &'static str,
    bug_type: BugType,
    description: &'static str,
    effect: &'static str,
) -> FlagDef {
    FlagDef {
        name,
        bug_type,
        description,
        effect,
        cves: &[],
    }
}

impl FlagDef {
    const fn with_cves(mut self, cves: &'static [&'static str]) -> Self {
        self.cves = cves;
        self
    }
}

use BugType::*;

/// The catalog, in no particular order.
pub const CATALOG: &[FlagDef] = &[
    // MurmurHash3
    flag("BigEndianBlocks", Endianness,
        "MurmurHash3 reads each 4-byte block as a little-endian word.",
        "Every element of 4 bytes or more selects other bits than Core: filters do not match."),
    flag("MurmurTail", WrongArithmetic,
        "The 1 to 3 bytes after the last block enter the hash little-endian (tail[0] lowest), with Core's fall-through.",
        "Elements whose length is not a multiple of 4 hash differently from Core."),
    flag("SignExtendedTail", WrongArithmetic,
        "Tail bytes are unsigned: a byte of 0x80 or more must not be sign-extended before it is shifted into place.",
        "Elements ending in a high byte hash differently from Core (a classic bug of ports that read bytes as signed char)."),
    // Seeds
    flag("SeedNotWrapped", WrongArithmetic,
        "The seed i * 0xFBA4C795 + tweak is reduced modulo 2^32; from hash function 2 on it always exceeds 32 bits.",
        "With the high bits left in, hash functions 2 and up select other bits than Core."),
    flag("SignedTweak", WrongArithmetic,
        "A tweak of 2^31 or more is an unsigned 32-bit number, not a negative one.",
        "A tweak with the top bit set, sign-extended into a wider seed, selects other bits than Core."),
    // Sizing
    flag("FloatHashCount", WrongArithmetic,
        "The hash function count divides the filter's bit count by n in INTEGERS before multiplying by ln 2.",
        "Floating-point division gives a larger count for some (n, p), e.g. 6 instead of 5 for n = 9, p = 0.01: a different filter."),
    flag("SizeRoundedUp", WrongArithmetic,
        "The filter size truncates: the bit count is truncated to an integer and divided by 8 rounding down.",
        "Rounding up gives one byte more than Core for most (n, p)."),
    flag("HashCountFromRawBits", WrongArithmetic,
        "The hash function count uses the filter's whole bytes times 8, not the bit count before it was truncated to bytes.",
        "The count is one too high when the truncated bits would have given another quotient."),
    flag("HashCountRounded", WrongArithmetic,
        "The hash function count truncates towards zero; it does not round.",
        "Rounding gives one hash function more than Core for about half of all (n, p)."),
    flag("ForcedMinimumOneHash", WrongArithmetic,
        "Zero hash functions are possible and legal: Core's sizing yields 0 for tiny or huge filters, and such a filter contains everything.",
        "An implementation that forces at least one function sets bits Core never sets and answers no where Core answers yes."),
    flag("NoHashFuncCap", MissingCheck,
        "The sizing caps the hash function count at 50.",
        "Very low false-positive rates give more than 50 functions: a filter every node rejects."),
    flag("NoFilterSizeCap", MissingCheck,
        "The sizing caps the filter at 36,000 bytes (288,000 bits) before dividing into bytes.",
        "Large n gives a filter over the limit, which every node rejects."),
    flag("ByteCapAgainstBitLimit", WrongArithmetic,
        "The 36,000 limit counts BYTES; the sizing applies it as 288,000 bits.",
        "Comparing bytes with 288,000 or bits with 36,000 accepts oversize filters or shrinks legal ones eightfold."),
    flag("UndefinedSizing", Undefined,
        "Core's constructor has no defined result for n = 0, a rate that is not strictly between 0 and 1 (or NaN) or a bit count beyond 32 bits: it divides by zero or casts a meaningless double.",
        "An implementation must refuse these inputs; any answer it gives is made up."),
    // Filter bits and serialization
    flag("MsbFirstBits", BitOrder,
        "Bit x of the filter is bit (x mod 8) of byte x / 8 counted from the LEAST significant bit.",
        "Most-significant-first order sets mirrored bits: every filterload differs from Core's."),
    flag("ModulusByBytes", WrongArithmetic,
        "A hash selects bit murmur3 mod (bytes * 8), the number of BITS.",
        "Reducing modulo the byte count only ever uses the first eighth of the filter."),
    flag("HexTextHashed", Encoding,
        "Elements are hashed as bytes, never as their hex text.",
        "Hashing the ASCII hex selects unrelated bits: nothing matches."),
    flag("BigEndianHashFuncs", Endianness,
        "nHashFuncs is a little-endian uint32 on the wire.",
        "A big-endian count is read as a huge number: the filter is rejected or misread."),
    flag("BigEndianTweak", Endianness,
        "nTweak is a little-endian uint32 on the wire.",
        "A byte-swapped tweak selects other bits: the node's filter matches other elements."),
    flag("BigEndianLength", Endianness,
        "The 2-, 4- and 8-byte forms of a CompactSize are little-endian.",
        "Filters of 253 bytes or more get a wrong length prefix: the payload does not decode."),
    flag("CompactSizeBoundary", Encoding,
        "A CompactSize takes one byte up to 252, the 0xfd form from 253 to 65,535 and the 0xfe form from 65,536.",
        "An off-by-one at a boundary writes a length Core refuses as non-canonical or misreads."),
    flag("NoEmptyFilterGuard", KnownBug,
        "A filter with no bytes matches everything and ignores inserts (Core's guard against the division by zero of CVE-2013-5700).",
        "Without the guard an implementation divides by zero (a remote crash) or answers no-match.")
        .with_cves(&["CVE-2013-5700"]),
    flag("EmptyElementSkipped", EdgeCase,
        "The empty element is hashed and inserted like any other (MurmurHash3 of no bytes depends on the seed).",
        "Skipping it leaves bits clear that Core sets."),
    flag("LongElementTruncated", EdgeCase,
        "Elements longer than 520 bytes are hashed whole: only filteradd limits the size, not the filter.",
        "Truncating or refusing long elements selects other bits than Core (scriptPubKey pushes can exceed 520 bytes)."),
    // Wire decoding and limits
    flag("NonCanonicalCompactSize", MissingCheck,
        "A CompactSize must use its shortest form; Core's deserializer throws on a longer one.",
        "A lenient decoder accepts payloads Core drops, so the two disagree on which filter is loaded."),
    flag("TruncationNotDetected", MissingCheck,
        "A payload that ends before its last field is complete does not decode.",
        "Reading past the end (or zero-filling) invents filter fields."),
    flag("UntrustedLengthAllocation", MissingCheck,
        "A length prefix is checked against the bytes present (and against Core's 0x02000000 maximum) before anything is allocated.",
        "Allocating what a few-byte payload claims lets any peer exhaust memory."),
    flag("NoFilterSizeLimit", MissingCheck,
        "A node rejects a filterload of more than 36,000 bytes (Core: misbehaving, too-large bloom filter).",
        "The node accepts oversize filters Core refuses."),
    flag("NoHashFuncLimit", MissingCheck,
        "A node rejects a filterload with more than 50 hash functions.",
        "The node accepts filters Core refuses, and spends unbounded time per element."),
    flag("NoElementSizeLimit", MissingCheck,
        "A node rejects a filteradd element of more than 520 bytes (Core: misbehaving, bad filteradd message).",
        "The node accepts elements Core refuses."),
    flag("LimitOffByOne", EdgeCase,
        "The limits are inclusive: 36,000 bytes, 50 hash functions and 520-byte elements are allowed.",
        "An exclusive comparison rejects legal messages and punishes honest peers."),
    flag("RawFlagsByte", Divergence,
        "Core accepts any nFlags byte and uses only flags & 3 (3 acts like NONE); rust-bitcoin's decoder refuses values above 2.",
        "Both behaviours are tolerated: an implementation may reject the byte, but if it accepts it must keep it."),
    flag("TrailingBytesIgnoredByCore", Divergence,
        "Core's node ignores bytes after a complete filterload or filteradd payload; strict decoders (this reference, rust-bitcoin) reject them.",
        "Both behaviours are tolerated; an implementation that accepts must return the decoded prefix."),
    flag("LimitsEnforcedAtDecode", Divergence,
        "Core decodes an oversize filterload and only then applies the limits; some decoders refuse oversize filters while decoding.",
        "Both are tolerated for the decode-only operation; the accept operation must reject."),
];

/// The note of a catalog flag, as a file carries it.
pub fn note(name: &str) -> Option<Note> {
    CATALOG.iter().find(|f| f.name == name).map(|f| Note {
        bug_type: f.bug_type,
        description: f.description.into(),
        effect: f.effect.into(),
        links: Vec::new(),
        cves: f.cves.iter().map(|s| s.to_string()).collect(),
    })
}
