use super::*;
use crate::implementation::{Fault, Stage};
use crate::ops::{FpRate, Murmur3Input, Murmur3Output, PayloadInput, Request, SizingInput};
use crate::vectors::load::TestGroupInfo;
use crate::vectors::{Phase, Source, TestCase};

fn murmur_test(id: &str, seed: u32, data: &[u8]) -> LoadedTest {
    let request = Request::Murmur3(Murmur3Input {
        seed,
        data: data.into(),
    });
    let hash = bip37_reference::murmur3(seed, data);
    test_of(id, request, Some(Output::Murmur3(Murmur3Output { hash })))
}

/// A test of `request` whose answer is `expected` (`None`: a rejection).
fn test_of(id: &str, request: Request, expected: Option<Output>) -> LoadedTest {
    LoadedTest {
        file: "t_test.json".into(),
        group: TestGroupInfo {
            index: 0,
            operation: request.op(),
            source: Source::Generated {
                generator: "unit".into(),
                targets: "diagnosis".into(),
            },
            comment: String::new(),
        },
        case: TestCase {
            id: id.into(),
            comment: String::new(),
            flags: Vec::new(),
            result: match expected {
                Some(_) => Expectation::Valid,
                None => Expectation::Invalid,
            },
            phase: Phase::Hash,
            input: Default::default(),
            expected: None,
        },
        request,
        expected,
    }
}

/// A test whose expected answer is the reference's.
fn reference_test(id: &str, request: Request) -> LoadedTest {
    let expected = match Reference.execute(&request) {
        Answer::Ok(output) => Some(output),
        _ => None,
    };
    test_of(id, request, expected)
}

fn payload(id: &str, op: fn(PayloadInput) -> Request, bytes: Vec<u8>) -> LoadedTest {
    reference_test(
        id,
        op(PayloadInput {
            payload: bytes.into(),
        }),
    )
}

/// A valid 36,000-byte filterload (the limit itself, no hash functions) and a valid 253-byte
/// filteradd.
fn limit_tests() -> Vec<LoadedTest> {
    // 36,000 bytes and 5 functions: nothing but the size limit's comparison is at stake (a
    // count of 0 would also be refused by ZeroHashFuncsRefused).
    let mut load = vec![0xfd, 0xa0, 0x8c];
    load.extend([0u8; 36_000]);
    load.extend([5, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut add = vec![0xfd, 0xfd, 0x00];
    add.extend([7u8; 253]);
    // 5,000 bytes and 5 functions: legal, but over a cap of 36,000 applied to bits.
    let mut legal = vec![0xfd, 0x88, 0x13];
    legal.extend([0u8; 5_000]);
    legal.extend([5, 0, 0, 0, 0, 0, 0, 0, 0]);
    vec![
        payload("load-36000", Request::FilterloadAccept, load),
        payload("add-253", Request::FilteraddDecode, add),
        payload("load-5000", Request::FilterloadAccept, legal),
    ]
}

/// The diagnosis of `answers` to `tests`, with every mutant asked every test.
fn diagnose_answers(tests: &[LoadedTest], answers: &[Answer<Output>]) -> Diagnosis {
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    let answer_refs: Vec<&Answer<Output>> = answers.iter().collect();
    diagnose(&refs, &answer_refs, &book)
}

fn pass(test: &LoadedTest) -> Answer<Output> {
    Answer::Ok(test.expected.clone().expect("a valid test"))
}

/// An implementation's answers: the mutant of `bug`, except where `wrong` says otherwise.
fn diagnose_as(bug: Bug, tests: &[LoadedTest], wrong: Option<(usize, u32)>) -> Diagnosis {
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    let mut answers: Vec<Answer<Output>> =
        book.of(bug).iter().map(|a| a.clone().unwrap()).collect();
    if let Some((i, hash)) = wrong {
        answers[i] = Answer::Ok(Output::Murmur3(Murmur3Output { hash }));
    }
    let answer_refs: Vec<&Answer<Output>> = answers.iter().collect();
    diagnose(&refs, &answer_refs, &book)
}

fn tests() -> Vec<LoadedTest> {
    vec![
        murmur_test("a", 0, b"\x00\x11"),
        murmur_test("b", 0, b"\xff"),
        murmur_test("c", 0, b"\x00\x11\x22\x33"),
        // No block and no tail: every mutant hashes it right.
        murmur_test("d", 7, b""),
    ]
}

#[test]
fn a_mutant_is_diagnosed_as_its_own_class() {
    for bug in [Bug::MurmurTail, Bug::SignExtendedTail, Bug::BigEndianBlocks] {
        let d = diagnose_as(bug, &tests(), None);
        assert_eq!(d.top(), Some(bug), "{d:?}");
        assert!(d.of_failure(d.failures[0]).contains(bug.flag()));
        assert!(d.summary().starts_with(&format!("likely {}", bug.flag())));
    }
}

#[test]
fn annotate_fills_the_slot_of_every_failure() {
    use crate::runner::{run_tests, RunOptions};
    let tests = tests();
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let mut mutant = crate::mutants::Mutant {
        bug: Bug::MurmurTail,
    };
    let mut run = run_tests(&refs, &mut mutant, &RunOptions::default());
    let d = annotate(&mut run.results);
    assert_eq!(d.top(), Some(Bug::MurmurTail));
    for r in &run.results {
        assert_eq!(
            r.diagnosis.is_some(),
            r.state.is_failure(),
            "{}",
            r.test.case.id
        );
    }
    assert!(run.results[0]
        .diagnosis
        .as_ref()
        .is_some_and(|d| d.starts_with("likely MurmurTail")));
}

#[test]
fn an_unknown_wrong_answer_is_said_to_be_unexplained() {
    let d = diagnose_as(Bug::MsbFirstBits, &tests(), Some((3, 12345)));
    assert_eq!(d.failures, vec![3]);
    assert_eq!(d.of_failure(3), "no known bug class explains this failure");
    assert!(d.summary().contains("no known bug class explains"));
}

#[test]
fn a_rejection_is_explained_only_at_its_own_stage() {
    let tests = limit_tests();
    let rejected_at = |stage: Option<Stage>| {
        let refusal = Answer::Rejected(crate::implementation::Rejection {
            stage,
            message: "too big".into(),
        });
        diagnose_answers(&tests, &[refusal, pass(&tests[1]), pass(&tests[2])])
    };
    assert_eq!(
        rejected_at(Some(Stage::Limits)).named(0),
        [Bug::LimitOffByOne]
    );
    assert_eq!(rejected_at(None).named(0), [Bug::LimitOffByOne]);
    // BigEndianLength also refuses the payload, while decoding: but it fails the 253-byte
    // filteradd and the 5,000-byte filterload this implementation passes.
    let at_decode = rejected_at(Some(Stage::Decode));
    assert_eq!(at_decode.verdicts[&0], Verdict::Unknown, "{at_decode:?}");
    let big_endian = at_decode.finding(Bug::BigEndianLength).expect("it fits");
    assert_eq!((big_endian.exact.len(), big_endian.false_alarms), (1, 2));
    assert!(!big_endian.unrefuted());
}

#[test]
fn a_crash_is_explained_only_by_a_mutant_that_crashes_there() {
    let tests = vec![
        murmur_test("a", 0, b"\x00\x11"),
        payload(
            "huge",
            Request::FilterloadDecode,
            vec![0xfe, 1, 0, 0, 2, 0xaa],
        ),
    ];
    let crash = || Answer::Fault(Fault::Crash("exit status: 1".into()));
    let d = diagnose_answers(&tests, &[pass(&tests[0]), crash()]);
    assert_eq!(d.named(1), [Bug::UntrustedLengthAllocation]);
    // Crashing on every test is not that class's bug: it fits one crash of two.
    let d = diagnose_answers(&tests, &[crash(), crash()]);
    assert_eq!(d.verdicts[&0], Verdict::Unknown);
    assert_eq!(d.verdicts[&1], Verdict::Unknown, "{d:?}");
    let untrusted = d.finding(Bug::UntrustedLengthAllocation).expect("it fits");
    assert_eq!((untrusted.exact.len(), untrusted.rivals), (1, 1));
}

#[test]
fn each_wrong_field_is_explained_on_its_own() {
    let tests = vec![reference_test(
        "tiny-rate",
        Request::Sizing(SizingInput {
            n_elements: 1,
            fp_rate: FpRate(1e-20),
        }),
    )];
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    let sizing = |bug: Bug| match book.of(bug)[0].clone() {
        Some(Answer::Ok(Output::Sizing(s))) => s,
        other => panic!("{other:?}"),
    };
    let mut both = sizing(Bug::SizeRoundedUp);
    both.hash_funcs = sizing(Bug::NoHashFuncCap).hash_funcs;
    let Some(Output::Sizing(expected)) = &tests[0].expected else {
        panic!("a valid sizing test")
    };
    assert_ne!(both.filter_bytes, expected.filter_bytes);
    assert_ne!(both.hash_funcs, expected.hash_funcs);
    let d = diagnose_answers(&tests, &[Answer::Ok(Output::Sizing(both))]);
    let mut named = d.named(0);
    named.sort();
    assert_eq!(named, [Bug::SizeRoundedUp, Bug::NoHashFuncCap], "{d:?}");
    let text = d.of_failure(0);
    assert!(
        text.starts_with("likely 2 mistakes at once: ")
            && text.contains("SizeRoundedUp (`filterBytes`)")
            && text.contains("NoHashFuncCap (`hashFuncs`)"),
        "{text}"
    );
}

#[test]
fn a_vector_the_reference_fails_is_a_bad_vector() {
    let mut tests = vec![murmur_test("a", 0, b"\x00\x11")];
    let right = pass(&tests[0]);
    tests[0].expected = Some(Output::Murmur3(Murmur3Output { hash: 1 }));
    let d = diagnose_answers(&tests, &[right]);
    assert_eq!(d.verdicts[&0], Verdict::BadVector);
    assert!(d.of_failure(0).starts_with("bad vector"));
    assert!(d
        .summary()
        .contains("1 failures on vectors the reference itself fails"));
}

#[test]
fn an_answer_over_the_cap_fits_an_accept_that_long() {
    use evidence::{fit, Accepted, Evidence, Fit};
    let over = Evidence::WrongAccept(Accepted::OverCap(16));
    let long = Evidence::WrongAccept(Accepted::Output(
        serde_json::json!({"data": "00".repeat(16)}),
    ));
    let short = Evidence::WrongAccept(Accepted::Output(serde_json::json!({"data": ""})));
    assert_eq!(fit(&over, &long), Some(Fit::Exact));
    assert_eq!(fit(&over, &short), None);
}

#[test]
fn a_class_explaining_two_fields_and_another_the_third_explain_the_whole() {
    use crate::ops::{BuildFilterInput, FilterInit};
    let tests = vec![reference_test(
        "sized-with-tweak",
        Request::BuildFilter(BuildFilterInput {
            filter: FilterInit::Sized {
                n_elements: 3,
                fp_rate: FpRate(0.01),
                tweak: 0x8000_0001,
                flags: 1,
            },
            insert: vec![vec![0xaa, 0xbb].into()],
            queries: Vec::new(),
        }),
    )];
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    // SizeRoundedUp's answer (a larger filter, so other data and hash count) with the tweak
    // written big-endian.
    let Some(Answer::Ok(Output::BuildFilter(mut both))) = book.of(Bug::SizeRoundedUp)[0].clone()
    else {
        panic!("SizeRoundedUp builds the filter")
    };
    let mut load = bip37_reference::FilterLoad::decode(&both.filterload.0).unwrap();
    load.tweak = load.tweak.swap_bytes();
    both.filterload = load.encode().into();
    let d = diagnose_answers(&tests, &[Answer::Ok(Output::BuildFilter(both))]);
    let Some(Verdict::Fields(parts)) = d.verdicts.get(&0) else {
        panic!("{d:?}")
    };
    let fields: Vec<(Bug, Vec<String>)> = parts.clone();
    assert!(fields.contains(&(
        Bug::SizeRoundedUp,
        vec!["filterload.data".into(), "filterload.nHashFuncs".into()]
    )));
    assert!(fields.contains(&(Bug::BigEndianTweak, vec!["filterload.nTweak".into()])));
}

#[test]
fn a_byte_identical_answer_is_named_with_the_tests_that_refute_it() {
    let mut tests = tests();
    // A three-byte tail: MurmurTail's mutant hashes it wrong, this implementation right.
    tests.push(murmur_test("e", 0, b"\x01\x02\x03"));
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    let mut answers: Vec<Answer<Output>> = tests.iter().map(pass).collect();
    answers[0] = book.of(Bug::MurmurTail)[0].clone().unwrap();
    assert_ne!(answers[0], pass(&tests[0]));
    let d = diagnose_answers(&tests, &answers);
    assert_eq!(
        d.verdicts[&0],
        Verdict::Refuted(vec![Bug::MurmurTail]),
        "{d:?}"
    );
    assert_eq!(d.verdicts[&0].likely(), []);
    let text = d.of_failure(0);
    assert!(
        text.starts_with("possibly MurmurTail") && text.contains("refuted by e (1 this"),
        "{text}"
    );
    // Alone, the same failure has nothing to refute the class: it is named, and no other.
    let alone = diagnose_answers(&tests[..1], &answers[..1]);
    assert_eq!(alone.verdicts[&0], Verdict::Exact(vec![Bug::MurmurTail]));
}

#[test]
fn classes_a_run_cannot_tell_apart_are_named_together() {
    let mut over = vec![0xfd, 0xa1, 0x8c];
    over.extend([0u8; 36_001]);
    over.extend([5, 0, 0, 0, 0, 0, 0, 0, 0]);
    let tests = vec![payload(
        "load-36001",
        Request::FilterloadAccept,
        over.clone(),
    )];
    let accepted = Reference.execute(&Request::FilterloadDecode(PayloadInput {
        payload: over.into(),
    }));
    let d = diagnose_answers(&tests, &[accepted]);
    let Verdict::Exact(named) = &d.verdicts[&0] else {
        panic!("{d:?}")
    };
    assert!(
        named.len() > 1 && named.contains(&Bug::NoFilterSizeLimit),
        "{named:?}"
    );
    let text = d.of_failure(0);
    assert!(text.starts_with("likely one of "), "{text}");
    assert!(text.contains("no test of this run tells apart"), "{text}");
}
