//! `wire_test.json`: decoding `filterload` and `filteradd` payloads, and the limits a node
//! applies to them.
//!
//! The limit probes of Core's functional test (36,000 / 36,001 bytes, 50 / 51 functions,
//! 520 / 521-byte elements) are transcribed with their source. The generated tests separate
//! decoder mistakes (non-canonical or truncated lengths, byte order, CompactSize boundaries,
//! allocation from an untrusted length); the mistaken answers are the suite's mutants'.
//! Where Core and strict decoders legitimately differ (raw flags bytes, trailing bytes, limits
//! while decoding) the test is `acceptable` and its note says why.

use super::builder::{
    core_source, every_mutant, generated_source, oracle_outcome, Case, FileBuilder, GroupBuilder,
    Outcome,
};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{
    FilteraddOutput, FilterloadOutput, OpName, Output, PayloadInput, Request,
};
use bip37_harness::vectors::model::{Expectation, Phase, VectorFile};
use bip37_reference::{FilterAdd, FilterLoad};

/// A generated test: (slug, payload, result, target mistakes, comment).
type MessageRow = (
    &'static str,
    Vec<u8>,
    Expectation,
    &'static [&'static str],
    &'static str,
);

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "wire",
        &[
            "filterload = CompactSize(len) | data | nHashFuncs u32 LE | nTweak u32 LE | nFlags u8; filteradd = CompactSize(len) | data.",
            "The *Decode operations only decode; the *Accept operations decode and then apply the node's limits (36,000 bytes, 50 hash functions, 520-byte elements, all inclusive).",
        ],
    );
    for group in core_groups()? {
        file.group(group);
    }
    file.group(filterload_decode()?);
    file.group(filteradd_decode()?);
    file.group(accept_generated()?);
    file.group(filteradd_accept_generated()?);
    file.finish()
}

/// Payload bytes from hex.
fn hex(text: &str) -> Result<Vec<u8>, GenError> {
    super::builder::hex(text).map(|h| h.0)
}

fn filterload(data: Vec<u8>, hash_funcs: u32, tweak: u32, flags: u8) -> Vec<u8> {
    FilterLoad {
        data,
        hash_funcs,
        tweak,
        flags,
    }
    .encode()
}

fn filteradd(data: Vec<u8>) -> Vec<u8> {
    FilterAdd { data }.encode()
}

/// A test of `op` on `payload` with the answers of every mutant.
fn case(
    op: OpName,
    slug: &str,
    phase: Phase,
    payload: Vec<u8>,
    comment: &str,
) -> Result<Case, GenError> {
    let request = request(op, payload)?;
    let mistaken = every_mutant(&request);
    let prefix = match op {
        OpName::FilterloadDecode => "filterload",
        OpName::FilteraddDecode => "filteradd",
        OpName::FilterloadAccept => "filterload-accept",
        _ => "filteradd-accept",
    };
    Ok(Case::new(format!("{prefix}-{slug}"), phase, request, comment).mistaken(mistaken))
}

fn request(op: OpName, payload: Vec<u8>) -> Result<Request, GenError> {
    let input = PayloadInput {
        payload: Hex(payload),
    };
    Ok(match op {
        OpName::FilterloadDecode => Request::FilterloadDecode(input),
        OpName::FilterloadAccept => Request::FilterloadAccept(input),
        OpName::FilteraddDecode => Request::FilteraddDecode(input),
        OpName::FilteraddAccept => Request::FilteraddAccept(input),
        other => return Err(GenError(format!("{other} is not a message operation"))),
    })
}

/// Adds one generated test of `op` per row, each required to separate its targets.
fn add_rows(
    group: &mut GroupBuilder,
    op: OpName,
    phase: Phase,
    rows: Vec<MessageRow>,
) -> Result<(), GenError> {
    for (slug, payload, result, targets, comment) in rows {
        group.generated(
            case(op, slug, phase, payload, comment)?.targets(targets),
            result,
        );
    }
    Ok(())
}

/// Adds an `acceptable` test: the `complete` payload followed by `trailing` bytes, whose
/// expected answer is the complete payload's (what Core's node uses).
fn add_trailing(
    group: &mut GroupBuilder,
    op: OpName,
    slug: &str,
    complete: &[u8],
    trailing: &[u8],
) -> Result<(), GenError> {
    let Outcome::Ok(prefix) = oracle_outcome(&request(op, complete.to_vec())?) else {
        return Err(GenError(format!(
            "{slug}: the complete payload does not decode"
        )));
    };
    let comment = format!(
        "a complete payload followed by {}: Core's node uses the payload and ignores the rest",
        bip37_harness::hex::encode(trailing)
    );
    let payload = [complete, trailing].concat();
    let c =
        case(op, slug, Phase::Decode, payload, &comment)?.notes(&["TrailingBytesIgnoredByCore"]);
    group.acceptable(c, prefix);
    Ok(())
}

/// A message of Core's functional test, by its fields.
enum Message {
    Load { data: Vec<u8>, hash_funcs: u32 },
    Add { data: Vec<u8> },
}

impl Message {
    fn operation(&self) -> OpName {
        match self {
            Message::Load { .. } => OpName::FilterloadAccept,
            Message::Add { .. } => OpName::FilteraddAccept,
        }
    }

    fn payload(&self) -> Vec<u8> {
        match self {
            Message::Load { data, hash_funcs } => filterload(data.clone(), *hash_funcs, 0, 0),
            Message::Add { data } => filteradd(data.clone()),
        }
    }

    /// What a node that accepts the message holds: the fields the test sent (tweak and flags 0).
    fn accepted(self) -> Output {
        match self {
            Message::Load { data, hash_funcs } => Output::FilterloadAccept(FilterloadOutput {
                data: Hex(data),
                hash_funcs,
                tweak: 0,
                flags: 0,
            }),
            Message::Add { data } => Output::FilteraddAccept(FilteraddOutput { data: Hex(data) }),
        }
    }
}

fn core_groups() -> Result<Vec<GroupBuilder>, GenError> {
    let load = |data, hash_funcs| Message::Load { data, hash_funcs };
    let add = |data| Message::Add { data };
    // (line, slug, message, result, comment); line 221 is the empty-filter probe.
    let probes = [
        (
            110,
            "36001-bytes",
            load(vec![0xbb; 36_001], 0),
            Expectation::Invalid,
            "36,001 bytes of bb: too-large bloom filter",
        ),
        (
            114,
            "36000-bytes",
            load(vec![0xbb; 36_000], 0),
            Expectation::Valid,
            "36,000 bytes of bb: accepted",
        ),
        (
            119,
            "51-hash-funcs",
            load(vec![0xaa], 51),
            Expectation::Invalid,
            "51 hash functions: too-large bloom filter",
        ),
        (
            123,
            "50-hash-funcs",
            load(vec![0xaa], 50),
            Expectation::Valid,
            "50 hash functions: accepted",
        ),
        (
            128,
            "520-bytes",
            add(vec![0xcc; 520]),
            Expectation::Valid,
            "a 520-byte element: accepted",
        ),
        (
            132,
            "521-bytes",
            add(vec![0xcc; 521]),
            Expectation::Invalid,
            "a 521-byte element: bad filteradd message",
        ),
        (
            221,
            "empty-filter",
            load(Vec::new(), 1),
            Expectation::Valid,
            "no bytes and 1 hash function (the CVE-2013-5700 probe): accepted",
        ),
    ];
    let mut groups = Vec::new();
    for (line, slug, message, result, comment) in probes {
        let test_case = if line == 221 {
            "P2PFilterTest: empty filter (CVE-2013-5700)"
        } else {
            "P2PFilterTest: size limits"
        };
        let op = message.operation();
        let source = core_source("test/functional/p2p_filter.py", line, test_case);
        let mut group = GroupBuilder::new(op, source, comment);
        let case = case(
            op,
            &format!("core-{slug}"),
            Phase::Limits,
            message.payload(),
            comment,
        )?;
        let expected = (result != Expectation::Invalid).then(|| message.accepted());
        group.sourced(case, result, expected);
        groups.push(group);
    }
    Ok(groups)
}

fn filterload_decode() -> Result<GroupBuilder, GenError> {
    let op = OpName::FilterloadDecode;
    let mut group = GroupBuilder::new(
        op,
        generated_source("wire", "filterload decoding: flags bytes, non-canonical and boundary lengths, truncation, trailing bytes, byte order, hostile lengths"),
        "Decoding only: no limits apply (an oversize filter decodes).",
    );
    let core = filterload(hex("614e9b")?, 5, 0, 1);
    for flags in [0u8, 1, 2] {
        let c = case(
            op,
            &format!("flags-{flags}"),
            Phase::Decode,
            filterload(hex("614e9b")?, 5, 0, flags),
            "a defined update mode",
        )?;
        group.generated(c, Expectation::Valid);
    }
    for flags in [3u8, 0xff] {
        let c = case(
            op,
            &format!("flags-{flags}"),
            Phase::Decode,
            filterload(hex("614e9b")?, 5, 0, flags),
            "Core keeps the byte and acts on flags & 3",
        )?
        .notes(&["RawFlagsByte"]);
        group.generated(c, Expectation::Acceptable);
    }
    let rows: Vec<MessageRow> = vec![
        (
            "big-endian-fields",
            filterload(hex("aa")?, 3, 0x0403_0201, 0),
            Expectation::Valid,
            &["BigEndianHashFuncs", "BigEndianTweak"],
            "nHashFuncs 3, nTweak 0x04030201",
        ),
        (
            "zero-hash-funcs",
            filterload(hex("614e9b")?, 0, 0, 0),
            Expectation::Valid,
            &["ZeroHashFuncsRefused"],
            "nHashFuncs 0 is legal: the filter contains everything",
        ),
        (
            "length-252",
            filterload(vec![0x5a; 252], 2, 0, 0),
            Expectation::Valid,
            &[],
            "252 bytes: one-byte length fc",
        ),
        (
            "length-253",
            filterload(vec![0x5a; 253], 2, 0, 0),
            Expectation::Valid,
            &["CompactSizeBoundaryLate", "BigEndianLength"],
            "253 bytes: fd fd 00",
        ),
        (
            "non-canonical-fd",
            [&hex("fd0300")?[..], &core[1..]].concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize"],
            "3 written as fd 03 00",
        ),
        (
            "non-canonical-fe",
            [&hex("fe03000000")?[..], &core[1..]].concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize"],
            "3 written as fe 03 00 00 00",
        ),
        (
            "non-canonical-fd-252",
            [
                &hex("fdfc00")?[..],
                &filterload(vec![0x5a; 252], 2, 0, 0)[1..],
            ]
            .concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize", "CompactSizeBoundaryEarly"],
            "252 written as fd fc 00: one below the 0xfd form",
        ),
        (
            "truncated-no-flags",
            core[..core.len() - 1].to_vec(),
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "the flags byte is missing",
        ),
        (
            "truncated-data",
            core[..3].to_vec(),
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "3 bytes announced, 2 present",
        ),
        (
            "truncated-empty",
            Vec::new(),
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "the empty payload",
        ),
        (
            "huge-length-prefix",
            hex("fe00000002aa")?,
            Expectation::Invalid,
            &["UntrustedLengthAllocation"],
            "0x02000000 bytes announced (Core's maximum), 1 present",
        ),
        (
            "length-above-maximum",
            hex("fe01000002aa")?,
            Expectation::Invalid,
            &[],
            "0x02000001 bytes announced: above Core's MAX_SIZE",
        ),
        (
            "length-64-bit",
            hex("ff0000000001000000aa")?,
            Expectation::Invalid,
            &[],
            "a 9-byte CompactSize of 2^32",
        ),
    ];
    add_rows(&mut group, op, Phase::Decode, rows)?;
    let c = case(
        op,
        "oversize-decodes",
        Phase::Decode,
        filterload(vec![0xbb; 36_001], 51, 0, 0),
        "36,001 bytes and 51 functions decode; only the limits reject them",
    )?
    .notes(&["LimitsEnforcedAtDecode"]);
    group.generated(c, Expectation::Acceptable);
    add_trailing(&mut group, op, "trailing-byte", &core, &hex("00")?)?;
    add_trailing(&mut group, op, "trailing-bytes", &core, &hex("deadbeef")?)?;
    Ok(group)
}

fn filteradd_decode() -> Result<GroupBuilder, GenError> {
    let op = OpName::FilteraddDecode;
    let mut group = GroupBuilder::new(
        op,
        generated_source("wire", "filteradd decoding: CompactSize boundaries at 252/253 and 65535/65536, non-canonical lengths, truncation, trailing bytes"),
        "Decoding only: no limits apply (a 65,536-byte element decodes).",
    );
    let rows: Vec<MessageRow> = vec![
        (
            "empty-element",
            hex("00")?,
            Expectation::Valid,
            &[],
            "the empty element",
        ),
        (
            "length-252",
            filteradd(vec![0x11; 252]),
            Expectation::Valid,
            &[],
            "252 bytes: fc",
        ),
        (
            "length-253",
            filteradd(vec![0x11; 253]),
            Expectation::Valid,
            &["CompactSizeBoundaryLate", "BigEndianLength"],
            "253 bytes: fd fd 00",
        ),
        (
            "length-65535",
            filteradd(vec![0x22; 65_535]),
            Expectation::Valid,
            &[],
            "65,535 bytes: fd ff ff",
        ),
        (
            "length-65536",
            filteradd(vec![0x22; 65_536]),
            Expectation::Valid,
            &["BigEndianLength"],
            "65,536 bytes: fe 00 00 01 00",
        ),
        (
            "non-canonical-fd",
            hex("fd0100aa")?,
            Expectation::Invalid,
            &["NonCanonicalCompactSize"],
            "1 written as fd 01 00",
        ),
        (
            "non-canonical-fd-252",
            [&hex("fdfc00")?[..], &[0x11; 252][..]].concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize", "CompactSizeBoundaryEarly"],
            "252 written as fd fc 00",
        ),
        (
            "non-canonical-ff",
            hex("ff0100000000000000aa")?,
            Expectation::Invalid,
            &["NonCanonicalCompactSize"],
            "1 written as ff and 8 bytes",
        ),
        (
            "truncated-data",
            hex("05aabb")?,
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "5 bytes announced, 2 present",
        ),
        (
            "truncated-length",
            hex("fdfd")?,
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "an 0xfd length missing its second byte",
        ),
        (
            "truncated-empty",
            Vec::new(),
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "the empty payload",
        ),
        (
            "huge-length-prefix",
            hex("fe00000002aa")?,
            Expectation::Invalid,
            &["UntrustedLengthAllocation"],
            "0x02000000 bytes announced, 1 present",
        ),
    ];
    add_rows(&mut group, op, Phase::Decode, rows)?;
    add_trailing(&mut group, op, "trailing-byte", &hex("01aa")?, &hex("bb")?)?;
    Ok(group)
}

fn accept_generated() -> Result<GroupBuilder, GenError> {
    let op = OpName::FilterloadAccept;
    let mut group = GroupBuilder::new(
        op,
        generated_source("wire", "the limits between the probes of Core's functional test, and decode failures in the accept path"),
        "Decode, then the node's limits.",
    );
    let rows: Vec<MessageRow> = vec![
        (
            "bytes-4501",
            filterload(vec![0x02; 4_501], 10, 0, 0),
            Expectation::Valid,
            &["BitCapAgainstByteLimit"],
            "4,501 bytes: over 36,000 BITS, far under 36,000 bytes",
        ),
        (
            "funcs-max-u32",
            filterload(vec![0x03], u32::MAX, 0, 0),
            Expectation::Invalid,
            &["NoHashFuncLimit"],
            "2^32 - 1 hash functions",
        ),
        // Core's probes send 0 hash functions with the size limit: a node that refuses 0
        // functions passes them for the wrong reason. These ask the size limit alone.
        (
            "36001-bytes-5-funcs",
            filterload(vec![0xbb; 36_001], 5, 0, 0),
            Expectation::Invalid,
            &["NoFilterSizeLimit"],
            "36,001 bytes with 5 hash functions: only the size is over a limit",
        ),
        (
            "36000-bytes-5-funcs",
            filterload(vec![0xbb; 36_000], 5, 0, 0),
            Expectation::Valid,
            &["LimitOffByOne"],
            "36,000 bytes with 5 hash functions: at the size limit, accepted",
        ),
    ];
    add_rows(&mut group, op, Phase::Limits, rows)?;
    // The decoding mistakes asked of the accept operation alone: a node that offers no
    // decode-only entry point must still meet them.
    let decoding: Vec<MessageRow> = vec![
        (
            "truncated",
            hex("03614e9b0500000000000000")?,
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "the flags byte is missing: the decode fails before any limit",
        ),
        (
            "non-canonical-fd-252",
            [
                &hex("fdfc00")?[..],
                &filterload(vec![0x5a; 252], 2, 0, 0)[1..],
            ]
            .concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize", "CompactSizeBoundaryEarly"],
            "252 written as fd fc 00: refused while decoding",
        ),
        (
            "huge-length-prefix",
            hex("fe00000002aa")?,
            Expectation::Invalid,
            &["UntrustedLengthAllocation"],
            "a length of 0x02000000 with one byte present: refused without allocating it",
        ),
        (
            "big-endian-tweak",
            filterload(vec![0x07; 3], 3, 0x0102_0304, 0),
            Expectation::Valid,
            &["BigEndianTweak"],
            "nTweak 0x01020304 is read little-endian",
        ),
    ];
    add_rows(&mut group, op, Phase::Decode, decoding)?;
    let c = case(
        op,
        "flags-255",
        Phase::Decode,
        filterload(vec![0x04], 1, 0, 0xff),
        "flags 0xff within the limits",
    )?
    .notes(&["RawFlagsByte"]);
    group.generated(c, Expectation::Acceptable);
    Ok(group)
}

/// The decoding mistakes asked of `filteraddAccept` alone.
fn filteradd_accept_generated() -> Result<GroupBuilder, GenError> {
    let op = OpName::FilteraddAccept;
    let mut group = GroupBuilder::new(
        op,
        generated_source("wire", "decode failures in the filteradd accept path"),
        "Decode, then the 520-byte limit: a node without a decode-only entry point meets the decoding mistakes here.",
    );
    let rows: Vec<MessageRow> = vec![
        (
            "truncated",
            hex("03aabb")?,
            Expectation::Invalid,
            &["TruncationNotDetected"],
            "3 bytes announced, 2 present",
        ),
        (
            "non-canonical-fd-252",
            [&hex("fdfc00")?[..], &[0x11; 252][..]].concat(),
            Expectation::Invalid,
            &["NonCanonicalCompactSize", "CompactSizeBoundaryEarly"],
            "252 written as fd fc 00",
        ),
        (
            "huge-length-prefix",
            hex("fe00000002aa")?,
            Expectation::Invalid,
            &["UntrustedLengthAllocation"],
            "a length of 0x02000000 with one byte present",
        ),
    ];
    add_rows(&mut group, op, Phase::Decode, rows)?;
    Ok(group)
}
