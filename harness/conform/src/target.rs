//! Starting the implementation a command names (`--impl COMMAND` or `--builtin NAME`), with
//! the exit code and message of why it cannot be had: shared by `run` and `fuzz`.

use crate::builtins::builtin;
use crate::exit;
use crate::options::TargetArgs;
use bip37_harness::implementation::Implementation;
use bip37_harness::subprocess::{ClientConfig, Subprocess};

/// The implementation `target` names, a command line started with `config(argv)`, or the exit
/// code and message of why it cannot be had (shared by `run` and `fuzz`).
pub fn start(
    target: &TargetArgs,
    config: impl FnOnce(Vec<String>) -> ClientConfig,
) -> Result<Box<dyn Implementation>, (u8, String)> {
    if let Some(name) = &target.builtin {
        return builtin(name).map_err(|e| (exit::HARNESS_ERROR, e));
    }
    let command = target.command.as_deref().unwrap_or_default();
    let argv = shlex::split(command).ok_or_else(|| {
        (
            exit::HARNESS_ERROR,
            format!("cannot split the command line {command:?} (unbalanced quotes?)"),
        )
    })?;
    match Subprocess::start(config(argv)) {
        Ok(child) => Ok(Box::new(child)),
        Err(e) => Err((exit::of_start_error(&e), e.to_string())),
    }
}
