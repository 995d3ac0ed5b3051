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
    /// Set when the verdict of the tests this flag explains is the suite's policy rather than
    /// Core's behaviour: what the policy is and why.
    pub policy: Option<&'static str>,
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
        policy: None,
    }
}

impl FlagDef {
    const fn with_cves(mut self, cves: &'static [&'static str]) -> Self {
        self.cves = cves;
        self
    }

    const fn with_policy(mut self, policy: &'static str) -> Self {
        self.policy = Some(policy);
        self
    }
}

/// The policy of every DIVERGENCE note: Core's answer is `expected`, a rejection is tolerated.
const TOLERATED_REJECTION: &str = "Core answers `expected`; tolerating a rejection as well is the suite's policy, not Core's behaviour.";

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
    flag("SeedReducedMod2To31", WrongArithmetic,
        "The seed i * 0xFBA4C795 + tweak is reduced modulo 2^32, keeping bit 31.",
        "Reducing modulo 2^31 (a signed 32-bit bound) changes every seed with bit 31 set: those hash functions select other bits than Core."),
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
        "The size limit is 36,000 BYTES (288,000 bits): sizing caps the bits at 288,000, a node refuses more than 36,000 bytes.",
        "Applying 288,000 to bytes sizes filters up to eight times too large and accepts oversize filterloads."),
    flag("BitCapAgainstByteLimit", WrongArithmetic,
        "The size limit is 36,000 BYTES, not 36,000 bits: sizing caps the bits at 288,000, a node accepts up to 36,000 bytes.",
        "Applying 36,000 to bits shrinks large filters eightfold (4,500 bytes) and refuses legal filterloads over 4,500 bytes."),
    flag("UndefinedSizing", Undefined,
        "Core's constructor has undefined behaviour for n = 0 (an integer division by zero) and wherever the bit count -n ln p / ln2^2 is NaN, -1 or less, or 2^32 or more (a double cast to unsigned int out of range): p <= 0, NaN, infinite rates, most rates above 1, a bit count beyond 32 bits. (p = 1 is defined: the bit count is -0.0, which converts to 0.)",
        "Core gives no answer and no rejection here; any answer is made up.")
        .with_policy("undefined in Core; the suite requires a rejection"),
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
    flag("CompactSizeBoundaryLate", Encoding,
        "A CompactSize takes one byte up to 252 only: 253 is fd fd 00, and a 0xfd marker is never a value.",
        "Writing 253 as one byte gives a payload Core misreads; reading 0xfd as 253 accepts payloads Core refuses."),
    flag("CompactSizeBoundaryEarly", Encoding,
        "A CompactSize takes one byte up to and including 252: 252 is the byte fc, and fd fc 00 is non-canonical.",
        "Writing 252 as fd fc 00 gives a payload Core refuses as non-canonical; accepting it accepts what Core refuses."),
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
        "Both behaviours are tolerated: an implementation may reject the byte, but if it accepts it must keep it.")
        .with_policy(TOLERATED_REJECTION),
    flag("TrailingBytesIgnoredByCore", Divergence,
        "Core's node ignores bytes after a complete filterload or filteradd payload; strict decoders (this reference, rust-bitcoin) reject them.",
        "Both behaviours are tolerated; an implementation that accepts must return the decoded prefix.")
        .with_policy(TOLERATED_REJECTION),
    flag("LimitsEnforcedAtDecode", Divergence,
        "Core decodes an oversize filterload and only then applies the limits; some decoders refuse oversize filters while decoding.",
        "Both are tolerated for the decode-only operation; the accept operation must reject.")
        .with_policy(TOLERATED_REJECTION),
    // Transaction matching and updates (matching engineer)
    flag("TxidDisplayOrder", Endianness,
        "The txid is tested in internal byte order (the double-SHA-256 output as is), the reverse of RPC and explorer hex.",
        "Filters holding a txid from an RPC never match it, and a display-order txid matches where Core does not."),
    flag("BigEndianOutpointIndex", Endianness,
        "An outpoint element is the txid followed by the output index as a LITTLE-endian uint32.",
        "Prevouts and inserted outpoints are other elements than Core's: spends of watched outputs are missed."),
    flag("AbortAfterTxidMatch", MissingStep,
        "After the txid matches, Core still scans every output and inserts the outpoints of matching ones (the BIP's 'aborts' is not what Core does).",
        "Stopping at the txid match inserts nothing: later spends of the transaction's outputs are missed."),
    flag("AbortAfterOutputMatch", MissingStep,
        "After an output matches, Core goes on with the NEXT output: every matching output gets its outpoint inserted.",
        "Stopping at the first matching output leaves later outputs' outpoints out: their spends are missed."),
    flag("OutpointPerPush", MissingStep,
        "One outpoint (txid, OUTPUT index) per matching output, inserted once; the scan of that output stops at its first matching push.",
        "Numbering by push or inserting per push puts outpoints of outputs that never matched in the filter: unrelated spends match."),
    flag("P2PubkeyOnlyAnyOutput", MissingCheck,
        "BLOOM_UPDATE_P2PUBKEY_ONLY inserts the outpoint only for pay-to-pubkey and bare multisig outputs (Core's Solver, by size and prefix only).",
        "Inserting for P2PKH, P2SH or witness outputs makes their spends match where Core's do not."),
    flag("FlagsNotMasked", MissingStep,
        "Only nFlags & 3 selects the update mode; the upper six bits are accepted and ignored.",
        "Comparing the whole byte turns 0x81 (ALL) into NONE: outpoints Core inserts are missing."),
    flag("FlagsThreeAsAll", WrongArithmetic,
        "nFlags & 3 == 3 equals neither ALL nor P2PUBKEY_ONLY, so it inserts nothing (like NONE).",
        "Testing the low bit alone makes 3 act like ALL: outpoints Core never inserts appear."),
    flag("EmptyPushTested", EdgeCase,
        "Pushes of no bytes (OP_0, PUSHDATA of length 0) are never tested.",
        "A filter holding the empty element matches every transaction with an OP_0."),
    flag("SmallIntegerTested", EdgeCase,
        "OP_1NEGATE and OP_1..OP_16 carry no data and are not tested.",
        "Treating OP_n as a push of n matches transactions Core does not."),
    flag("MalformedPushNotStopping", EdgeCase,
        "A push that runs past the end of the script is malformed: Core stops parsing that script and tests none of its bytes (earlier pushes were tested).",
        "Testing the bytes of a truncated push matches transactions Core does not."),
    flag("WitnessMatched", MissingCheck,
        "Witness data is never tested, only scriptSig pushes.",
        "Matching witness items makes segwit spends relevant where Core says no."),
    flag("CoinbasePrevoutSkipped", MissingStep,
        "The coinbase input is tested like any input: its null prevout (32 zero bytes, ffffffff) and its scriptSig pushes.",
        "Skipping coinbase inputs misses coinbases Core matches."),
    flag("WholeScriptTested", Encoding,
        "Only the individual pushes of a scriptPubKey are elements, never the whole script.",
        "Testing the whole script matches transactions Core does not (and a filter of whole scripts matches nothing in Core)."),
    // Merkle blocks and partial merkle trees (matching engineer)
    flag("BlockUsesFilterSnapshot", MissingStep,
        "The transactions of a block are evaluated in block order against a filter that changes as they match: an outpoint inserted by one makes a later spend in the same block match.",
        "Evaluating every transaction against the filter as it was before the block misses in-block spends of watched outputs."),
    flag("PmtBitOrder", BitOrder,
        "Partial merkle tree flag bits are packed least significant bit first within each byte.",
        "Most-significant-first packing builds and reads other trees: merkleblocks do not verify or prove other transactions."),
    flag("PmtPaddingNotChecked", MissingCheck,
        "All flag bits must be used except the padding of the LAST byte: a whole unused flag byte makes the tree invalid.",
        "A lenient reader accepts trees Core refuses."),
    flag("PmtUnusedHashesAccepted", MissingCheck,
        "Every hash of a partial merkle tree must be used by the traversal.",
        "A lenient reader accepts trees Core refuses, with data it never checked."),
    flag("PmtIdenticalSiblingsAccepted", KnownBug,
        "A node whose two children hash the same is invalid: duplicating the last transactions gives the same root (CVE-2012-2459).",
        "Accepting it lets a peer prove transactions at positions that do not exist.")
        .with_cves(&["CVE-2012-2459"]),
    flag("PmtTransactionCountUnbounded", MissingCheck,
        "A tree may claim at most 16,666 transactions (MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT).",
        "A lenient reader accepts trees no block can have."),
    // Node state across messages (matching engineer)
    flag("UpdatesNotPersisted", MissingStep,
        "Outpoints inserted while a transaction or block is evaluated stay in the peer's filter for later messages.",
        "Evaluating on a copy forgets the updates: a later spend of a matched output is missed."),
    flag("FilterclearIgnored", MissingStep,
        "filterclear removes the filter: afterwards every transaction is relayed unfiltered and no merkleblock is served.",
        "Keeping the old filter keeps filtering a peer that asked for everything."),
    flag("RejectedFilterloadReplaces", MissingCheck,
        "A filterload over the limits is refused and the previous filter (or none) stays in place.",
        "Installing or clearing on a refused filterload changes what the peer is served."),
    flag("FilteraddWithoutFilterAccepted", MissingCheck,
        "filteradd with no filter loaded is misbehaviour (Core: bad filteradd message); nothing is created.",
        "Accepting it silently, or creating a filter, hides a protocol violation."),
    flag("MalformedMessagePunished", EdgeCase,
        "A filterload or filteradd payload that does not decode is dropped without penalty (Core logs the exception and moves on).",
        "Treating it as misbehaviour disconnects peers Core keeps."),
];

/// The note of a catalog flag, as a file carries it.
pub fn note(name: &str) -> Option<Note> {
    CATALOG.iter().find(|f| f.name == name).map(|f| Note {
        bug_type: f.bug_type,
        description: f.description.into(),
        effect: f.effect.into(),
        links: Vec::new(),
        cves: f.cves.iter().map(|s| s.to_string()).collect(),
        policy: f.policy.map(String::from),
    })
}
