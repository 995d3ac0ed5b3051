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
    if let Some(word) = argv.iter().find(|word| is_shell_syntax(word)) {
        return Err((
            exit::HARNESS_ERROR,
            format!(
                "the command line {command:?} holds {word:?}, which only a shell understands; no \
                 shell runs --impl (its words go to the program as they are): put the command in \
                 a script and give --impl the script"
            ),
        ));
    }
    match Subprocess::start(config(argv)) {
        Ok(child) => Ok(Box::new(child)),
        Err(e) => Err((exit::of_start_error(&e), e.to_string())),
    }
}

/// True for a word of a command line that a shell would have taken for itself: a pipe, a list
/// operator (`&&`, `||`, `;`, `&`, or a word ending in `;`) or a redirection (`>`,
/// `2>/dev/null`, `<in`, `&>log`).
fn is_shell_syntax(word: &str) -> bool {
    const OPERATORS: [&str; 5] = ["|", "||", "&&", ";", "&"];
    const REDIRECTIONS: [&str; 6] = [">", "<", "1>", "2>", "&>", "|&"];
    OPERATORS.contains(&word)
        || word.ends_with(';')
        || REDIRECTIONS.iter().any(|r| word.starts_with(r))
}

#[cfg(test)]
mod tests {
    use super::is_shell_syntax;

    #[test]
    fn shell_words_are_told_from_arguments() {
        for word in [
            "|",
            "&&",
            "||",
            ";",
            "&",
            ">",
            ">>out",
            "2>/dev/null",
            "2>&1",
            "<in",
            "&>log",
        ] {
            assert!(is_shell_syntax(word), "{word}");
        }
        for word in ["python3", "adapter.py", "--flag=a>b", "a|b", "-", "a;b"] {
            assert!(!is_shell_syntax(word), "{word}");
        }
    }
}
