//! Mutant detection: targets that ask the reference and one mutant (the reference with one
//! planted bug, from `bip37-harness`) the same request and crash when their answers disagree,
//! so a run shows how long the fuzzer takes to find each planted bug. Their committed corpus
//! holds an input that finds the bug; replaying it must crash.

use crate::layout::Layout;
use bip37_harness::disagreement::compare::{compare, Agreement};
use bip37_harness::implementation::Implementation;
use bip37_harness::mutants::{Bug, Mutant};
use bip37_harness::reference_impl::Reference;

/// Crashes when the mutant with `bug` disagrees with the reference on the request `bytes` form.
pub fn detect(bug: Bug, layout: Layout, bytes: &[u8]) {
    let Some(request) = layout.request(bytes) else {
        return;
    };
    let reference = Reference.execute(&request);
    let answer = Mutant { bug }.execute(&request);
    if compare(&reference, &answer) == Agreement::Disagrees {
        panic!(
            "planted bug {} found: {} reference {reference:?}, mutant {answer:?}",
            bug.name(),
            request.input_json()
        );
    }
}

/// One target function per planted bug, and the layout its input is read in under the same
/// name in [`layout`] (what `TARGETS` lists, so each layout is written once).
macro_rules! mutant_targets {
    ($( $name:ident: $bug:ident, $layout:expr; )*) => {
        $(
            #[doc = concat!("Finds the planted bug `", stringify!($bug), "`.")]
            pub fn $name(bytes: &[u8]) {
                detect(Bug::$bug, layout::$name, bytes)
            }
        )*

        /// The layout each mutant target reads its input in.
        #[allow(non_upper_case_globals)]
        pub mod layout {
            use super::*;
            $(
                #[doc = concat!("The input layout of `", stringify!($name), "`.")]
                pub const $name: Layout = $layout;
            )*
        }
    };
}

use bip37_harness::ops::OpName::{FilteraddDecode, FilterloadAccept, FilterloadDecode};

mutant_targets! {
    big_endian_blocks: BigEndianBlocks, Layout::Murmur3;
    murmur_tail: MurmurTail, Layout::Murmur3;
    sign_extended_tail: SignExtendedTail, Layout::Murmur3;
    seed_not_wrapped: SeedNotWrapped, Layout::BitIndexes;
    signed_tweak: SignedTweak, Layout::BitIndexes;
    modulus_by_bytes: ModulusByBytes, Layout::BitIndexes;
    non_canonical_compact_size: NonCanonicalCompactSize, Layout::Payload(FilterloadDecode);
    truncation_not_detected: TruncationNotDetected, Layout::Payload(FilteraddDecode);
    no_element_size_limit: NoElementSizeLimit, Layout::FilteraddElement;
    limit_off_by_one: LimitOffByOne, Layout::Payload(FilterloadAccept);
    pmt_bit_order: PmtBitOrder, Layout::PmtBuild;
}
