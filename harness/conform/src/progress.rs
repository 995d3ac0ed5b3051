//! Progress of a long command (`run`, `matrix`, `fuzz`) on stderr: an `indicatif` bar when
//! stderr is a terminal, and otherwise, so CI logs stay line-based, one plain line every
//! [`PLAIN_EVERY`], the first one only once that much time has passed (a quick run prints none).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often a plain progress line is printed.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// A progress display of `position` out of `length` steps, with a message.
pub struct Progress {
    display: Display,
}

enum Display {
    Bar(ProgressBar),
    Plain {
        label: String,
        length: u64,
        unit: &'static str,
        every: Duration,
        next: Instant,
        out: Box<dyn Write + Send>,
    },
}

impl Progress {
    /// A display of `length` steps named `unit` (e.g. "tests"), introduced by `label` (an
    /// adapter's name, escaped as the human report escapes it).
    pub fn new(label: &str, length: u64, unit: &'static str) -> Self {
        let label = &*bip37_harness::report::escape::control(label);
        if std::io::stderr().is_terminal() {
            let style = ProgressStyle::with_template(&format!(
                "{{prefix}} [{{bar:24}}] {{pos}}/{{len}} {unit} {{elapsed}} {{msg}}"
            ))
            .expect("a valid template")
            .progress_chars("#>.");
            let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_prefix(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            Progress {
                display: Display::Bar(bar),
            }
        } else {
            Self::plain(
                label,
                length,
                unit,
                PLAIN_EVERY,
                Box::new(std::io::stderr()),
            )
        }
    }

    /// Plain lines to `out`, one every `every`.
    pub fn plain(
        label: &str,
        length: u64,
        unit: &'static str,
        every: Duration,
        out: Box<dyn Write + Send>,
    ) -> Self {
        Progress {
            display: Display::Plain {
                label: label.to_string(),
                length,
                unit,
                every,
                next: Instant::now() + every,
                out,
            },
        }
    }

    /// Moves to `position` with `message` (made only when it is shown).
    pub fn update(&mut self, position: u64, message: impl FnOnce() -> String) {
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position(position);
                bar.set_message(message());
            }
            Display::Plain {
                label,
                length,
                unit,
                every,
                next,
                out,
            } => {
                let now = Instant::now();
                if now >= *next {
                    *next = now + *every;
                    let _ = writeln!(out, "{label}: {position}/{length} {unit} {}", message());
                }
            }
        }
    }

    /// Removes the bar, so what follows starts on a clean line.
    pub fn finish(self) {
        if let Display::Bar(bar) = self.display {
            bar.finish_and_clear();
        }
    }
}

/// The whole seconds since `began`, e.g. `12 s`: the message of a plain line.
pub fn seconds_since(began: Instant) -> String {
    format!("{} s", began.elapsed().as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn plain_lines_come_only_once_the_interval_has_passed() {
        let captured = Captured::default();
        let every = Duration::from_millis(50);
        let mut progress = Progress::plain("run", 10, "tests", every, Box::new(captured.clone()));
        progress.update(1, || "quick".into());
        assert!(
            captured.0.lock().unwrap().is_empty(),
            "a quick run prints nothing"
        );
        std::thread::sleep(every);
        progress.update(4, || "4 s".into());
        progress.update(5, || "not yet".into());
        progress.finish();
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "run: 4/10 tests 4 s\n");
    }
}
