//! The script walk a filter relies on (which pushes it tests) against the `bitcoin` crate's
//! `Script::instructions`, which walks scripts the same way as Core's `GetOp`: every push with
//! its data (non-minimal ones included), every other opcode without data, and a stop at the
//! first push that runs past the end.

use bip37_reference::script::Ops;
use bitcoin::script::{Instruction, Script};

/// Walks `bytes` with both and checks they see the same operations and stop at the same place.
pub fn script(bytes: &[u8]) {
    let mut ours = Ops::new(bytes);
    let mut theirs = Script::from_bytes(bytes).instructions();
    for op in &mut ours {
        match theirs.next() {
            Some(Ok(Instruction::PushBytes(push))) => {
                assert!(
                    op.opcode <= 0x4e,
                    "bitcoin sees a push at opcode {:#04x}",
                    op.opcode
                );
                assert_eq!(op.data, push.as_bytes(), "push data differs");
            }
            Some(Ok(Instruction::Op(opcode))) => {
                assert_eq!(op.opcode, opcode.to_u8(), "opcode differs");
                assert!(op.data.is_empty(), "data for a non-push opcode");
            }
            other => panic!("reference sees {op:?}, bitcoin {other:?}"),
        }
    }
    match theirs.next() {
        Some(Err(_)) => assert!(
            ours.hit_malformed_push(),
            "bitcoin stops at a malformed push"
        ),
        None => assert!(
            !ours.hit_malformed_push(),
            "reference stops at a malformed push"
        ),
        Some(Ok(instruction)) => panic!("bitcoin continues with {instruction:?}"),
    }
}
