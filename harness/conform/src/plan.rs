//! The plan of a run: the selected tests, one line each, printed instead of running them.

use bip37_harness::runner::select::{source_kind, wire_name};
use bip37_harness::vectors::LoadedTest;
use std::fmt::Write;

/// One line per test (id, operation, phase, expected result, source kind, flags), then a count.
pub fn render(selected: &[&LoadedTest], total: usize) -> String {
    let mut out = String::new();
    for test in selected {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}",
            test.case.id,
            test.request.op(),
            wire_name(&test.case.phase),
            wire_name(&test.case.result),
            source_kind(&test.group.source),
            test.case.flags.join(",")
        );
    }
    let _ = writeln!(out, "{} of {total} tests selected", selected.len());
    out
}
