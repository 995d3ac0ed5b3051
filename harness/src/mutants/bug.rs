//! The registry of bug classes: one entry per classic BIP 37 mistake, holding everything the
//! suite says about it. The mutant's name (`mutant:<name>`), the flag the vectors carry (the
//! variant's own name), the note a vector file defines the flag with (bug type, what the
//! flagged tests check, what goes wrong, CVEs, and the suite's policy where the verdict is the
//! suite's choice rather than Core's), and the diagnosis's explanation of an implementation that
//! behaves like the mutant. The vector generator, the notes and the diagnosis all read it here,
//! so a class cannot mean one thing in one place and another elsewhere.

use crate::vectors::model::{BugType, Note};

macro_rules! bugs {
    ($(
        $variant:ident = $name:literal, $bug_type:ident, cves [$($cve:literal),*] $(, policy $policy:literal)?,
        explains $explanation:literal,
        checks $description:literal,
        effect $effect:literal;
    )*) => {
        /// One classic mistake. A mutant is the reference with exactly one of these made.
        // The variants' docs are the explanations that reports print, so the `tail[0]` in one
        // stays plain text rather than becoming a link.
        #[allow(rustdoc::broken_intra_doc_links)]
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
                match self { $(Bug::$variant => stringify!($variant),)* }
            }

            /// What an implementation that answers like this mutant does wrong.
            pub fn explanation(self) -> &'static str {
                match self { $(Bug::$variant => $explanation,)* }
            }

            /// The note a vector file defines this class's flag with.
            pub fn note(self) -> Note {
                match self {
                    $(Bug::$variant => Note {
                        bug_type: BugType::$bug_type,
                        description: $description.into(),
                        effect: $effect.into(),
                        links: Vec::new(),
                        cves: vec![$($cve.to_string()),*],
                        policy: None$(.or(Some($policy.to_string())))?,
                    },)*
                }
            }
        }
    };
}

bugs! {
    // MurmurHash3 and the seeds.
    BigEndianBlocks = "big-endian-blocks", Endianness, cves [],
        explains "MurmurHash3 looks like it reads its 4-byte blocks big-endian (Core reads them little-endian)",
        checks "MurmurHash3 reads each 4-byte block as a little-endian word.",
        effect "Every element of 4 bytes or more selects other bits than Core: filters do not match.";
    MurmurTail = "murmur-tail", WrongArithmetic, cves [],
        explains "MurmurHash3's 1 to 3 tail bytes look combined in reverse order (tail[0] must be the lowest byte)",
        checks "The 1 to 3 bytes after the last block enter the hash little-endian (tail[0] lowest), with Core's fall-through.",
        effect "Elements whose length is not a multiple of 4 hash differently from Core.";
    SignExtendedTail = "sign-extended-tail", WrongArithmetic, cves [],
        explains "MurmurHash3's tail bytes look sign-extended (read as signed char) before they are shifted in",
        checks "Tail bytes are unsigned: a byte of 0x80 or more must not be sign-extended before it is shifted into place.",
        effect "Elements ending in a high byte hash differently from Core (a classic bug of ports that read bytes as signed char).";
    SeedNotWrapped = "seed-not-wrapped", WrongArithmetic, cves [],
        explains "the hash seed i*0xFBA4C795+tweak looks computed in 64 bits and never reduced modulo 2^32",
        checks "The seed i * 0xFBA4C795 + tweak is reduced modulo 2^32; from hash function 2 on it always exceeds 32 bits.",
        effect "With the high bits left in, hash functions 2 and up select other bits than Core.";
    SeedReducedMod2To31 = "seed-reduced-mod-2-to-31", WrongArithmetic, cves [],
        explains "the hash seed i*0xFBA4C795+tweak looks reduced modulo 2^31 (a signed 32-bit maximum) instead of 2^32",
        checks "The seed i * 0xFBA4C795 + tweak is reduced modulo 2^32, keeping bit 31.",
        effect "Reducing modulo 2^31 (a signed 32-bit bound) changes every seed with bit 31 set: those hash functions select other bits than Core.";
    SignedTweak = "signed-tweak", WrongArithmetic, cves [],
        explains "a tweak of 2^31 or more looks treated as a negative number in the seed arithmetic",
        checks "A tweak of 2^31 or more is an unsigned 32-bit number, not a negative one.",
        effect "A tweak with the top bit set, sign-extended into a wider seed, selects other bits than Core.";
    MurmurLengthAsBlocks = "murmur-length-as-blocks", WrongArithmetic, cves [],
        explains "MurmurHash3's finalisation looks to mix in the number of 4-byte blocks instead of the length in bytes",
        checks "MurmurHash3's finalisation XORs the data's length in BYTES into the state before the final mix.",
        effect "Mixing in the block count changes the hash of every non-empty element: filters do not match.";
    TweakIgnored = "tweak-ignored", MissingStep, cves [],
        explains "the tweak looks left out of the hash seed (seed i*0xFBA4C795 instead of i*0xFBA4C795+tweak)",
        checks "The seed of hash function i is i * 0xFBA4C795 + nTweak: the tweak is added to every seed.",
        effect "Without the tweak every filter with a non-zero tweak selects other bits than Core.";
    // The constructor's sizing.
    FloatHashCount = "float-hash-count", WrongArithmetic, cves [],
        explains "the hash function count looks computed with floating-point division (bytes*8/n) instead of Core's integer division",
        checks "The hash function count divides the filter's bit count by n in INTEGERS before multiplying by ln 2.",
        effect "Floating-point division gives a larger count for some (n, p), e.g. 6 instead of 5 for n = 9, p = 0.01: a different filter.";
    SizeRoundedUp = "size-rounded-up", WrongArithmetic, cves [],
        explains "the filter size looks rounded up to whole bytes instead of truncated (Core floors bits/8)",
        checks "The filter size truncates: the bit count is truncated to an integer and divided by 8 rounding down.",
        effect "Rounding up gives one byte more than Core for most (n, p).";
    HashCountFromRawBits = "hash-count-from-raw-bits", WrongArithmetic, cves [],
        explains "the hash function count looks derived from the bit count before it was truncated to whole bytes",
        checks "The hash function count uses the filter's whole bytes times 8, not the bit count before it was truncated to bytes.",
        effect "The count is one too high when the truncated bits would have given another quotient.";
    HashCountRounded = "hash-count-rounded", WrongArithmetic, cves [],
        explains "the hash function count looks rounded to nearest instead of truncated",
        checks "The hash function count truncates towards zero; it does not round.",
        effect "Rounding gives one hash function more than Core for about half of all (n, p).";
    ForcedMinimumOneHash = "forced-minimum-one-hash", WrongArithmetic, cves [],
        explains "a computed hash function count of 0 looks raised to 1 (Core keeps 0: that filter matches everything)",
        checks "Zero hash functions are possible and legal: Core's sizing yields 0 for tiny or huge filters, and such a filter contains everything.",
        effect "An implementation that forces at least one function sets bits Core never sets and answers no where Core answers yes.";
    NoHashFuncCap = "no-hash-func-cap", MissingCheck, cves [],
        explains "the computed hash function count is not capped at 50",
        checks "The sizing caps the hash function count at 50.",
        effect "Very low false-positive rates give more than 50 functions: a filter every node rejects.";
    NoFilterSizeCap = "no-filter-size-cap", MissingCheck, cves [],
        explains "the computed filter size is not capped at 36,000 bytes",
        checks "The sizing caps the filter at 36,000 bytes (288,000 bits) before dividing into bytes.",
        effect "Large n gives a filter over the limit, which every node rejects.";
    ByteCapAgainstBitLimit = "byte-cap-against-bit-limit", WrongArithmetic, cves [],
        explains "the 288,000 bit limit looks applied to bytes: sizing caps the byte count at 288,000 and a node accepts filters up to 288,000 bytes",
        checks "The size limit is 36,000 BYTES (288,000 bits): sizing caps the bits at 288,000, a node refuses more than 36,000 bytes.",
        effect "Applying 288,000 to bytes sizes filters up to eight times too large and accepts oversize filterloads.";
    BitCapAgainstByteLimit = "bit-cap-against-byte-limit", WrongArithmetic, cves [],
        explains "the 36,000 byte limit looks applied to bits: sizing caps the bit count at 36,000 (4,500 bytes) and a node refuses filters over 4,500 bytes",
        checks "The size limit is 36,000 BYTES, not 36,000 bits: sizing caps the bits at 288,000, a node accepts up to 36,000 bytes.",
        effect "Applying 36,000 to bits shrinks large filters eightfold (4,500 bytes) and refuses legal filterloads over 4,500 bytes.";
    UndefinedSizing = "undefined-sizing", Undefined, cves [], policy "undefined in Core; the suite requires a rejection",
        explains "sizing answers for inputs Core leaves undefined (n = 0, a rate of 0 or less, NaN or infinite, most rates above 1, a bit count beyond 32 bits) where the suite requires a refusal",
        checks "Core's constructor has undefined behaviour for n = 0 (an integer division by zero) and wherever the bit count -n ln p / ln2^2 is NaN, -1 or less, or 2^32 or more (a double cast to unsigned int out of range): p <= 0, NaN, infinite rates, most rates above 1, a bit count beyond 32 bits. (p = 1 is defined: the bit count is -0.0, which converts to 0.)",
        effect "Core gives no answer and no rejection here; any answer is made up.";
    // The filter's bits.
    MsbFirstBits = "msb-first-bits", BitOrder, cves [],
        explains "bits look numbered most-significant first within a byte (Core: bit x is 1 << (x % 8) of byte x / 8)",
        checks "Bit x of the filter is bit (x mod 8) of byte x / 8 counted from the LEAST significant bit.",
        effect "Most-significant-first order sets mirrored bits: every filterload differs from Core's.";
    ModulusByBytes = "modulus-by-bytes", WrongArithmetic, cves [],
        explains "the bit index looks reduced modulo the byte count instead of the bit count (bytes*8)",
        checks "A hash selects bit murmur3 mod (bytes * 8), the number of BITS.",
        effect "Reducing modulo the byte count only ever uses the first eighth of the filter.";
    HexTextHashed = "hex-text-hashed", Encoding, cves [],
        explains "elements look hashed as their hex text instead of their raw bytes",
        checks "Elements are hashed as bytes, never as their hex text.",
        effect "Hashing the ASCII hex selects unrelated bits: nothing matches.";
    NoEmptyFilterGuard = "no-empty-filter-guard", KnownBug, cves ["CVE-2013-5700"],
        explains "the empty filter is hashed into (the division by zero of CVE-2013-5700) instead of matching everything",
        checks "A filter with no bytes matches everything and ignores inserts (Core's guard against the division by zero of CVE-2013-5700).",
        effect "Without the guard an implementation divides by zero (a remote crash) or answers no-match.";
    EmptyElementSkipped = "empty-element-skipped", EdgeCase, cves [],
        explains "the empty element looks skipped instead of hashed and inserted like any other",
        checks "The empty element is hashed and inserted like any other (MurmurHash3 of no bytes depends on the seed).",
        effect "Skipping it leaves bits clear that Core sets.";
    LongElementTruncated = "long-element-truncated", EdgeCase, cves [],
        explains "elements longer than 520 bytes look truncated to 520 before they are hashed",
        checks "Elements longer than 520 bytes are hashed whole: only filteradd limits the size, not the filter.",
        effect "Truncating or refusing long elements selects other bits than Core (scriptPubKey pushes can exceed 520 bytes).";
    ZeroHashFuncsRefused = "zero-hash-funcs-refused", MissingStep, cves [],
        explains "a filter with 0 hash functions looks refused (Core accepts it: it contains everything)",
        checks "nHashFuncs = 0 is legal in a filterload and a constructed filter: no bit is ever tested, so it contains everything.",
        effect "Refusing it rejects filters Core loads and serves (sizing produces them for tiny or huge n).";
    ContainsAnyBit = "contains-any-bit", WrongArithmetic, cves [],
        explains "contains looks true when ANY of the element's bits is set (Core requires all of them)",
        checks "contains is true only when every one of the element's bits is set; one clear bit means no.",
        effect "Testing any bit instead of all matches far more elements than Core: a false-positive flood.";
    // Message layout.
    BigEndianHashFuncs = "big-endian-hash-funcs", Endianness, cves [],
        explains "nHashFuncs looks serialized big-endian (it is a little-endian u32)",
        checks "nHashFuncs is a little-endian uint32 on the wire.",
        effect "A big-endian count is read as a huge number: the filter is rejected or misread.";
    BigEndianTweak = "big-endian-tweak", Endianness, cves [],
        explains "nTweak looks serialized big-endian (it is a little-endian u32)",
        checks "nTweak is a little-endian uint32 on the wire.",
        effect "A byte-swapped tweak selects other bits: the node's filter matches other elements.";
    BigEndianLength = "big-endian-length", Endianness, cves [],
        explains "multi-byte CompactSize lengths look serialized big-endian (they are little-endian)",
        checks "The 2-, 4- and 8-byte forms of a CompactSize are little-endian.",
        effect "Filters of 253 bytes or more get a wrong length prefix: the payload does not decode.";
    CompactSizeBoundaryLate = "compact-size-boundary-late", Encoding, cves [],
        explains "the CompactSize one-byte form looks used for 253 too (written as the byte 0xfd, and a 0xfd marker read as the value 253): the boundary is one late",
        checks "A CompactSize takes one byte up to 252 only: 253 is fd fd 00, and a 0xfd marker is never a value.",
        effect "Writing 253 as one byte gives a payload Core misreads; reading 0xfd as 253 accepts payloads Core refuses.";
    CompactSizeBoundaryEarly = "compact-size-boundary-early", Encoding, cves [],
        explains "the CompactSize 0xfd form looks used for 252 already (written fd fc 00, and fd fc 00 accepted as canonical): the boundary is one early",
        checks "A CompactSize takes one byte up to and including 252: 252 is the byte fc, and fd fc 00 is non-canonical.",
        effect "Writing 252 as fd fc 00 gives a payload Core refuses as non-canonical; accepting it accepts what Core refuses.";
    NonCanonicalCompactSize = "non-canonical-compact-size", MissingCheck, cves [],
        explains "a CompactSize in a longer form than its value needs is accepted (Core refuses it)",
        checks "A CompactSize must use its shortest form; Core's deserializer throws on a longer one.",
        effect "A lenient decoder accepts payloads Core drops, so the two disagree on which filter is loaded.";
    TruncationNotDetected = "truncation-not-detected", MissingCheck, cves [],
        explains "a payload that ends early looks read as if the missing bytes were there (short data, zero fields)",
        checks "A payload that ends before its last field is complete does not decode.",
        effect "Reading past the end (or zero-filling) invents filter fields.";
    UntrustedLengthAllocation = "untrusted-length-allocation", MissingCheck, cves [],
        explains "a length prefix looks trusted (no check against Core's 0x02000000 maximum before allocating it)",
        checks "A length prefix is checked against the bytes present (and against Core's 0x02000000 maximum) before anything is allocated.",
        effect "Allocating what a few-byte payload claims lets any peer exhaust memory.";
    // Limits a node applies.
    NoFilterSizeLimit = "no-filter-size-limit", MissingCheck, cves [],
        explains "a filterload of more than 36,000 bytes is accepted",
        checks "A node rejects a filterload of more than 36,000 bytes (Core: misbehaving, too-large bloom filter).",
        effect "The node accepts oversize filters Core refuses.";
    NoHashFuncLimit = "no-hash-func-limit", MissingCheck, cves [],
        explains "a filterload with more than 50 hash functions is accepted",
        checks "A node rejects a filterload with more than 50 hash functions.",
        effect "The node accepts filters Core refuses, and spends unbounded time per element.";
    NoElementSizeLimit = "no-element-size-limit", MissingCheck, cves [],
        explains "a filteradd element of more than 520 bytes is accepted",
        checks "A node rejects a filteradd element of more than 520 bytes (Core: misbehaving, bad filteradd message).",
        effect "The node accepts elements Core refuses.";
    LimitOffByOne = "limit-off-by-one", EdgeCase, cves [],
        explains "the limits look exclusive: 36,000 bytes, 50 hash functions or 520-byte elements are refused",
        checks "The limits are inclusive: 36,000 bytes, 50 hash functions and 520-byte elements are allowed.",
        effect "An exclusive comparison rejects legal messages and punishes honest peers.";
    // Transaction matching.
    TxidDisplayOrder = "txid-display-order", Endianness, cves [],
        explains "the txid looks tested in display (RPC) byte order instead of internal order",
        checks "The txid is tested in internal byte order (the double-SHA-256 output as is), the reverse of RPC and explorer hex.",
        effect "Filters holding a txid from an RPC never match it, and a display-order txid matches where Core does not.";
    BigEndianOutpointIndex = "big-endian-outpoint-index", Endianness, cves [],
        explains "the outpoint's output index looks serialized big-endian (it is a little-endian u32)",
        checks "An outpoint element is the txid followed by the output index as a LITTLE-endian uint32.",
        effect "Prevouts and inserted outpoints are other elements than Core's: spends of watched outputs are missed.";
    AbortAfterTxidMatch = "abort-after-txid-match", MissingStep, cves [],
        explains "matching looks stopped at a txid match, skipping the outputs' outpoint updates (Core scans every output)",
        checks "After the txid matches, Core still scans every output and inserts the outpoints of matching ones (the BIP's 'aborts' is not what Core does).",
        effect "Stopping at the txid match inserts nothing: later spends of the transaction's outputs are missed.";
    AbortAfterOutputMatch = "abort-after-output-match", MissingStep, cves [],
        explains "matching looks stopped at the first matching output, skipping the later outputs' updates",
        checks "After an output matches, Core goes on with the NEXT output: every matching output gets its outpoint inserted.",
        effect "Stopping at the first matching output leaves later outputs' outpoints out: their spends are missed.";
    OutpointPerPush = "outpoint-per-push", MissingStep, cves [],
        explains "an outpoint looks inserted for every matching push, numbered by push instead of by output",
        checks "One outpoint (txid, OUTPUT index) per matching output, inserted once; the scan of that output stops at its first matching push.",
        effect "Numbering by push or inserting per push puts outpoints of outputs that never matched in the filter: unrelated spends match.";
    P2PubkeyOnlyAnyOutput = "p2pubkey-only-any-output", MissingCheck, cves [],
        explains "under P2PUBKEY_ONLY the outpoint looks inserted for any matching output, not only pay-to-pubkey and bare multisig",
        checks "BLOOM_UPDATE_P2PUBKEY_ONLY inserts the outpoint only for pay-to-pubkey and bare multisig outputs (Core's Solver, by size and prefix only).",
        effect "Inserting for P2PKH, P2SH or witness outputs makes their spends match where Core's do not.";
    FlagsNotMasked = "flags-not-masked", MissingStep, cves [],
        explains "the update mode looks read from the whole flags byte instead of flags & 3",
        checks "Only nFlags & 3 selects the update mode; the upper six bits are accepted and ignored.",
        effect "Comparing the whole byte turns 0x81 (ALL) into NONE: outpoints Core inserts are missing.";
    FlagsThreeAsAll = "flags-three-as-all", WrongArithmetic, cves [],
        explains "flags & 3 == 3 looks treated as UPDATE_ALL (Core: it equals neither ALL nor P2PUBKEY_ONLY, so nothing is inserted)",
        checks "nFlags & 3 == 3 equals neither ALL nor P2PUBKEY_ONLY, so it inserts nothing (like NONE).",
        effect "Testing the low bit alone makes 3 act like ALL: outpoints Core never inserts appear.";
    EmptyPushTested = "empty-push-tested", EdgeCase, cves [],
        explains "empty pushes (OP_0, PUSHDATA of zero bytes) look tested as elements",
        checks "Pushes of no bytes (OP_0, PUSHDATA of length 0) are never tested.",
        effect "A filter holding the empty element matches every transaction with an OP_0.";
    SmallIntegerTested = "small-integer-tested", EdgeCase, cves [],
        explains "OP_1..OP_16 look tested as one-byte elements (they push no data)",
        checks "OP_1NEGATE and OP_1..OP_16 carry no data and are not tested.",
        effect "Treating OP_n as a push of n matches transactions Core does not.";
    MalformedPushNotStopping = "malformed-push-not-stopping", EdgeCase, cves [],
        explains "the bytes of a truncated push look tested (Core stops parsing the script there)",
        checks "A push that runs past the end of the script is malformed: Core stops parsing that script and tests none of its bytes (earlier pushes were tested).",
        effect "Testing the bytes of a truncated push matches transactions Core does not.";
    WitnessMatched = "witness-matched", MissingCheck, cves [],
        explains "witness items look tested against the filter (Core never tests witness data)",
        checks "Witness data is never tested, only scriptSig pushes.",
        effect "Matching witness items makes segwit spends relevant where Core says no.";
    CoinbasePrevoutSkipped = "coinbase-prevout-skipped", MissingStep, cves [],
        explains "the coinbase input looks skipped (Core tests its null prevout and scriptSig pushes)",
        checks "The coinbase input is tested like any input: its null prevout (32 zero bytes, ffffffff) and its scriptSig pushes.",
        effect "Skipping coinbase inputs misses coinbases Core matches.";
    WholeScriptTested = "whole-script-tested", Encoding, cves [],
        explains "whole scripts look tested as elements besides their pushes",
        checks "Only the individual pushes of a scriptPubKey are elements, never the whole script.",
        effect "Testing the whole script matches transactions Core does not (and a filter of whole scripts matches nothing in Core).";
    TxidNotTested = "txid-not-tested", MissingStep, cves [],
        explains "the transaction's own txid looks never tested against the filter",
        checks "Step 1 of matching: the txid (internal byte order) is tested first.",
        effect "Filters holding a txid never match that transaction.";
    OutputsNotTested = "outputs-not-tested", MissingStep, cves [],
        explains "the pushes of the outputs' scriptPubKeys look never tested against the filter",
        checks "Step 2 of matching: every push of every output's scriptPubKey is tested.",
        effect "Payments to a watched key or hash never match, and no outpoint is ever inserted.";
    PrevoutNotTested = "prevout-not-tested", MissingStep, cves [],
        explains "the inputs' prevouts (36-byte outpoints) look never tested against the filter",
        checks "Step 3 of matching: each input's prevout, txid || LE32 index, is tested.",
        effect "Spends of watched outpoints (those a match inserted) never match.";
    ScriptSigNotTested = "scriptsig-not-tested", MissingStep, cves [],
        explains "the pushes of the inputs' scriptSigs look never tested against the filter",
        checks "Step 4 of matching: every push of each input's scriptSig is tested.",
        effect "Spends revealing a watched key or signature in their scriptSig never match.";
    NonMinimalPushSkipped = "non-minimal-push-skipped", Encoding, cves [],
        explains "data pushed with OP_PUSHDATA1/2/4 looks skipped (only the direct pushes 0x01..0x4b are tested)",
        checks "Every push is an element whatever opcode pushed it: PUSHDATA1, PUSHDATA2 and PUSHDATA4 data too, minimal or not.",
        effect "Elements pushed with a PUSHDATA opcode (every push over 75 bytes) never match.";
    PushdataLengthBigEndian = "pushdata-length-big-endian", Endianness, cves [],
        explains "the length of an OP_PUSHDATA2/4 push looks read big-endian (it is little-endian)",
        checks "The 2- and 4-byte lengths after OP_PUSHDATA2 and OP_PUSHDATA4 are little-endian.",
        effect "A big-endian length misreads long pushes: they do not match, and parsing stops early.";
    LongPushSkipped = "long-push-skipped", EdgeCase, cves [],
        explains "script pushes of more than 520 bytes look skipped when matching (Core tests them)",
        checks "A scriptPubKey push over 520 bytes is still an element: only filteradd limits the size.",
        effect "Outputs carrying a long push never match on it.";
    UpdateAllInsertsNothing = "update-all-inserts-nothing", MissingStep, cves [],
        explains "under BLOOM_UPDATE_ALL no outpoint looks inserted (the update is never made)",
        checks "BLOOM_UPDATE_ALL inserts the outpoint (txid, index) of every output with a matching push.",
        effect "Spends of matched outputs are missed: a wallet never sees its coins leave.";
    P2PubkeyOnlyNoMultisig = "p2pubkey-only-no-multisig", MissingCheck, cves [],
        explains "under P2PUBKEY_ONLY a bare multisig output looks not to insert its outpoint (Core inserts for PUBKEY and MULTISIG)",
        checks "BLOOM_UPDATE_P2PUBKEY_ONLY inserts the outpoint of a bare multisig output as well as of pay-to-pubkey.",
        effect "Spends of matched bare multisig outputs are missed.";
    P2PubkeyOnlyStrictKeys = "p2pubkey-only-strict-keys", MissingCheck, cves [],
        explains "under P2PUBKEY_ONLY a 65-byte key with prefix 06 or 07 (hybrid) looks not recognised as pay-to-pubkey",
        checks "Core's Solver takes a 65-byte key starting 04, 06 or 07 (CPubKey::ValidSize), not only 04.",
        effect "Spends of matched pay-to-pubkey outputs with hybrid keys are missed.";
    TxidIncludesWitness = "txid-includes-witness", Encoding, cves [],
        explains "the txid looks computed over the serialization with the witness (that is the wtxid)",
        checks "The txid tested and inserted in outpoints hashes the serialization WITHOUT witness data.",
        effect "A segwit transaction's txid and outpoints are other elements than Core's: nothing about it matches.";
    // Merkle blocks and partial merkle trees.
    BlockUsesFilterSnapshot = "block-uses-filter-snapshot", MissingStep, cves [],
        explains "a block's transactions look evaluated against the filter as it was before the block (Core's updates apply to the later transactions)",
        checks "The transactions of a block are evaluated in block order against a filter that changes as they match: an outpoint inserted by one makes a later spend in the same block match.",
        effect "Evaluating every transaction against the filter as it was before the block misses in-block spends of watched outputs.";
    PmtBitOrder = "pmt-bit-order", BitOrder, cves [],
        explains "the partial merkle tree's flag bits look packed most-significant first (Core packs least-significant first)",
        checks "Partial merkle tree flag bits are packed least significant bit first within each byte.",
        effect "Most-significant-first packing builds and reads other trees: merkleblocks do not verify or prove other transactions.";
    PmtPaddingNotChecked = "pmt-padding-not-checked", MissingCheck, cves [],
        explains "a partial merkle tree with whole unused flag bytes is accepted (only the last byte may hold padding)",
        checks "All flag bits must be used except the padding of the LAST byte: a whole unused flag byte makes the tree invalid.",
        effect "A lenient reader accepts trees Core refuses.";
    PmtUnusedHashesAccepted = "pmt-unused-hashes-accepted", MissingCheck, cves [],
        explains "a partial merkle tree with unused hashes is accepted",
        checks "Every hash of a partial merkle tree must be used by the traversal.",
        effect "A lenient reader accepts trees Core refuses, with data it never checked.";
    PmtTransactionCountUnbounded = "pmt-transaction-count-unbounded", MissingCheck, cves [],
        explains "a partial merkle tree claiming more than 16,666 transactions is accepted",
        checks "A tree may claim at most 16,666 transactions (MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT).",
        effect "A lenient reader accepts trees no block can have.";
    PmtIdenticalSiblingsAccepted = "pmt-identical-siblings-accepted", KnownBug, cves ["CVE-2012-2459"],
        explains "a partial merkle tree with identical sibling hashes is accepted (CVE-2012-2459)",
        checks "A node whose two children hash the same is invalid: duplicating the last transactions gives the same root (CVE-2012-2459).",
        effect "Accepting it lets a peer prove transactions at positions that do not exist.";
    PmtOddNodePromoted = "pmt-odd-node-promoted", WrongArithmetic, cves [],
        explains "a node with no right child looks passed up unhashed (Core hashes the left child with itself)",
        checks "A node whose right child is missing (an odd level) hashes as SHA256d(left || left).",
        effect "Trees of any count that is not a power of two give another root: valid proofs are refused.";
    PmtHashesDisplayOrder = "pmt-hashes-display-order", Endianness, cves [],
        explains "the partial merkle tree's hashes look written and read in display (RPC) byte order instead of internal order",
        checks "The hashes of a partial merkle tree are serialized in internal byte order, as SHA256d outputs them.",
        effect "Byte-swapped hashes give another root: proofs do not verify, and the matched txids come out reversed.";
    PmtTransactionCountBigEndian = "pmt-transaction-count-big-endian", Endianness, cves [],
        explains "the partial merkle tree's transaction count looks written and read big-endian (it is a little-endian u32)",
        checks "nTransactions of a partial merkle tree (and of a merkleblock) is a little-endian uint32.",
        effect "A byte-swapped count describes another tree: the proof is refused or proves other positions.";
    // A node's session.
    UpdatesNotPersisted = "updates-not-persisted", MissingStep, cves [],
        explains "outpoints inserted while evaluating a transaction or block look lost afterwards (the filter is updated on a copy)",
        checks "Outpoints inserted while a transaction or block is evaluated stay in the peer's filter for later messages.",
        effect "Evaluating on a copy forgets the updates: a later spend of a matched output is missed.";
    FilterclearIgnored = "filterclear-ignored", MissingStep, cves [],
        explains "filterclear looks ignored: the old filter stays in place",
        checks "filterclear removes the filter: afterwards every transaction is relayed unfiltered and no merkleblock is served.",
        effect "Keeping the old filter keeps filtering a peer that asked for everything.";
    RejectedFilterloadReplaces = "rejected-filterload-replaces", MissingCheck, cves [],
        explains "a filterload over the limits looks installed although it is refused (Core keeps the previous filter)",
        checks "A filterload over the limits is refused and the previous filter (or none) stays in place.",
        effect "Installing or clearing on a refused filterload changes what the peer is served.";
    FilteraddWithoutFilterAccepted = "filteradd-without-filter-accepted", MissingCheck, cves [],
        explains "filteradd with no filter loaded looks accepted (Core: misbehaving)",
        checks "filteradd with no filter loaded is misbehaviour (Core: bad filteradd message); nothing is created.",
        effect "Accepting it silently, or creating a filter, hides a protocol violation.";
    MalformedMessagePunished = "malformed-message-punished", EdgeCase, cves [],
        explains "an undecodable filterload or filteradd looks punished as misbehaviour (Core drops it without penalty)",
        checks "A filterload or filteradd payload that does not decode is dropped without penalty (Core logs the exception and moves on).",
        effect "Treating it as misbehaviour disconnects peers Core keeps.";
    MerkleblockWithoutFilterServed = "merkleblock-without-filter-served", MissingCheck, cves [],
        explains "a filtered block looks served to a peer with no filter loaded (Core sends nothing)",
        checks "getdata(MSG_FILTERED_BLOCK) with no filter loaded gets no answer at all.",
        effect "Serving it treats a peer without a filter as a match-all filter.";
    FilteraddToEmptyFilterRefused = "filteradd-to-empty-filter-refused", EdgeCase, cves [],
        explains "filteradd to a loaded 0-byte filter looks treated as misbehaviour (Core accepts it and changes nothing)",
        checks "A filteradd to a loaded empty filter is accepted; the insert does nothing (the CVE-2013-5700 guard).",
        effect "Punishing it disconnects peers Core keeps.";
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
