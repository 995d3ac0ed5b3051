//! Progress of a long command (`run`, `matrix`, `fuzz`) on stderr: an `indicatif` bar when
//! stderr is a terminal, and otherwise, so CI logs stay line-based, one plain line every
//! [`PLAIN_EVERY`], the first one only once that much time has passed (a quick run prints none).
//! Either shows one time, labelled: the time elapsed since the display began.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often a plain progress line is printed.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// The bar's layout: the position, the elapsed time (labelled, the only time shown) and the
/// caller's message (`; 120 cases, 40 cases/s`), for `unit`.
fn bar_template(unit: &str) -> String {
    format!("{{prefix}} [{{bar:24}}] {{pos}}/{{len}} {unit}, {{elapsed}} elapsed{{msg}}")
}

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
        began: Instant,
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
            let style = ProgressStyle::with_template(&bar_template(unit))
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
                began: Instant::now(),
                next: Instant::now() + every,
                out,
            },
        }
    }

    /// Moves to `position`.
    pub fn set(&mut self, position: u64) {
        self.update(position, String::new);
    }

    /// Moves to `position` with `message`, made only when it is shown: what the display adds
    /// after the elapsed time (empty for nothing).
    pub fn update(&mut self, position: u64, message: impl FnOnce() -> String) {
        let tail = |message: String| match message.is_empty() {
            true => message,
            false => format!("; {message}"),
        };
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position(position);
                bar.set_message(tail(message()));
            }
            Display::Plain {
                label,
                length,
                unit,
                every,
                began,
                next,
                out,
            } => {
                let now = Instant::now();
                if now >= *next {
                    *next = now + *every;
                    let elapsed = now.duration_since(*began).as_secs();
                    let _ = writeln!(
                        out,
                        "{label}: {position}/{length} {unit}, {elapsed} s elapsed{}",
                        tail(message())
                    );
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
        progress.update(4, || "12 cases".into());
        progress.update(5, || "not yet".into());
        std::thread::sleep(every);
        progress.set(6);
        progress.finish();
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "run: 4/10 tests, 0 s elapsed; 12 cases\nrun: 6/10 tests, 0 s elapsed\n"
        );
    }

    #[test]
    fn the_bar_shows_one_labelled_time() {
        let template = bar_template("tests");
        assert_eq!(template.matches("{elapsed}").count(), 1, "{template}");
        assert!(template.contains("{elapsed} elapsed"), "{template}");
        assert!(!template.contains("{eta}") && !template.contains("{duration}"));
    }
}
