//! The harness side of the subprocess protocol: an implementation in any language, run as one
//! long-lived child process behind the [`Implementation`] trait.
//!
//! The client survives any child: every wait is bounded (handshake, each request's write and
//! answer, shutdown), stdout lines are bounded in length, stderr is drained by a thread and its
//! tail kept for reports. A crash or timeout is charged to the request in flight and the child is started
//! again for the next one; after garbage, an oversized line or a wrong id the stream cannot be
//! trusted, so the child is restarted too. A child that cannot be restarted is not retried.

use super::pipes::{Line, LineReader, RequestWriter, StderrTail};
use super::protocol::{AnswerLine, Hello, HelloLine, RequestLine, PROTOCOL_VERSION};
use crate::implementation::{Answer, Fault, Implementation, STDERR_MARK};
use crate::ops::{OpName, Output, Request};
use std::fmt;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How to start the child and how long to wait for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The program and its arguments (no shell).
    pub argv: Vec<String>,
    /// The longest wait for one answer.
    pub request_timeout: Duration,
    /// The longest wait for the `hello` line after a start.
    pub start_timeout: Duration,
    /// How long a child may take to exit once its stdin is closed before it is killed.
    pub grace: Duration,
    /// The longest answer line accepted, in bytes.
    pub max_line: usize,
}

impl ClientConfig {
    /// The default bounds: 5 s per request, 10 s to start, 1 s grace, 8 MiB lines.
    pub fn new(argv: Vec<String>) -> Self {
        ClientConfig {
            argv,
            request_timeout: Duration::from_secs(5),
            start_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(1),
            max_line: 8 << 20,
        }
    }
}

/// Why a child could not be started and greeted.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum StartError {
    /// The program could not be run at all: `what` failed (running the program, setting up
    /// its pipes), because of `source` when the system said why.
    Spawn {
        what: String,
        source: Option<Arc<io::Error>>,
    },
    /// The child exited before its `hello`.
    Crashed(String),
    /// No `hello` within the start timeout.
    Timeout(Duration),
    /// The first line is not a `hello` this harness accepts.
    Handshake(String),
}

/// What an interpreter or shell writes to stderr when the adapter's file or program is not
/// there (`python3 missing.py`, `node missing.js`, `sh: 1: x: not found`, a missing module).
const CANNOT_START: [&str; 4] = [
    "can't open file",
    "not found",
    "cannot find module",
    "no such file or directory",
];

impl StartError {
    /// True when the implementation itself broke down (crash or timeout), not its set-up. A
    /// child that exits before its hello saying a file or program is missing never ran the
    /// adapter: that is a set-up error, not a breakdown.
    pub fn is_breakdown(&self) -> bool {
        match self {
            StartError::Crashed(_) => !self.is_missing_file(),
            StartError::Timeout(_) => true,
            _ => false,
        }
    }

    /// True for a child that exited before its hello with a missing-file message on stderr.
    fn is_missing_file(&self) -> bool {
        let StartError::Crashed(why) = self else {
            return false;
        };
        let why = why.to_lowercase();
        CANNOT_START.iter().any(|words| why.contains(words))
    }
}

/// What a line on stdout that is not a protocol line most often is: a stray `print`.
const STDOUT_HINT: &str =
    "stdout carries only protocol lines: write diagnostics (prints, logs) to stderr";

/// Where a start failure's reader learns what the child must say first.
const HANDSHAKE_DOC: &str = "docs/PROTOCOL.md, \"1. Handshake\"";

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Spawn { what, source } => {
                write!(f, "cannot start the implementation: {what}")?;
                match source {
                    Some(e) => write!(f, ": {e}"),
                    None => Ok(()),
                }
            }
            StartError::Crashed(why) if self.is_missing_file() => write!(
                f,
                "cannot start the implementation: it exited before its hello, saying a file or \
                 program is missing (the command after --impl runs from the current directory, \
                 without a shell: check its paths): {why}"
            ),
            StartError::Crashed(why) => write!(
                f,
                "the implementation exited before its hello: {why} ({HANDSHAKE_DOC})"
            ),
            StartError::Timeout(t) => write!(
                f,
                "no hello from the implementation within {t:?}: its first line on stdout must be \
                 the hello ({HANDSHAKE_DOC}); is its stdout buffered (python3 -u, or flush after \
                 each line)?"
            ),
            StartError::Handshake(why) => write!(f, "bad handshake: {why} ({HANDSHAKE_DOC})"),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Spawn {
                source: Some(e), ..
            } => Some(e.as_ref()),
            _ => None,
        }
    }
}

impl StartError {
    fn spawn(what: impl Into<String>, source: Option<io::Error>) -> Self {
        StartError::Spawn {
            what: what.into(),
            source: source.map(Arc::new),
        }
    }
}

/// A running child with its pipes.
struct Process {
    child: Child,
    /// `None` once stdin is closed for shutdown.
    writer: Option<RequestWriter>,
    reader: LineReader,
    stderr: StderrTail,
}

impl Process {
    fn launch(config: &ClientConfig) -> Result<(Process, Hello), StartError> {
        let (program, args) = config
            .argv
            .split_first()
            .ok_or_else(|| StartError::spawn("the command line is empty", None))?;
        let mut command = Command::new(program);
        // Ended with this process even when it cannot tear down (SIGKILL).
        crate::parent_death::die_with_parent(&mut command, libc::SIGKILL);
        let mut child = crate::teardown::spawn_group(
            command
                .args(args)
                // Its own process group: a wrapper's children and grandchildren go with it.
                .process_group(0)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| StartError::spawn(program.as_str(), Some(e)))?;
        let pipes = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(stdin), Some(stdout), Some(stderr)) => RequestWriter::new(stdin)
                .map(|writer| (writer, stdout, stderr))
                .map_err(|e| StartError::spawn("cannot set up the child's stdin", Some(e))),
            _ => Err(StartError::spawn("the child's pipes are missing", None)),
        };
        let (writer, stdout, stderr) = match pipes {
            Ok(pipes) => pipes,
            Err(e) => {
                let _ = child.kill();
                crate::teardown::forget_group(&child);
                let _ = child.wait();
                return Err(e);
            }
        };
        let mut process = Process {
            child,
            writer: Some(writer),
            reader: LineReader::new(stdout, config.max_line),
            stderr: StderrTail::drain(stderr),
        };
        let hello = match process
            .reader
            .next_line(Instant::now() + config.start_timeout)
        {
            Line::Text(text) => parse_hello(&text),
            Line::Oversized { limit } => Err(StartError::Handshake(format!(
                "the hello line is longer than {limit} bytes"
            ))),
            Line::End | Line::Failed(_) => {
                Err(StartError::Crashed(process.exit_report(config.grace)))
            }
            Line::TimedOut => Err(StartError::Timeout(config.start_timeout)),
        };
        match hello {
            Ok(hello) => Ok((process, hello)),
            Err(e) => {
                process.kill();
                Err(e)
            }
        }
    }

    /// Waits up to `grace` for the child to exit, and kills it if it has not; either way the
    /// rest of its process group (what a wrapper started) is killed too.
    fn wait_or_kill(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            if self.has_exited() {
                self.kill_group();
                crate::teardown::forget_group(&self.child);
                return self.child.wait().ok();
            }
            if Instant::now() >= deadline {
                self.kill();
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// True once the child has exited, without reaping it: until it is reaped its pid, which
    /// is its group's id, cannot be given to another process.
    fn has_exited(&self) -> bool {
        let pid: libc::id_t = self.child.id();
        // SAFETY: an all-zero siginfo_t is a valid value for waitid to fill.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        // SAFETY: waitid on our own child with a valid siginfo_t; WNOWAIT leaves it unreaped.
        match unsafe { libc::waitid(libc::P_PID, pid, &mut info, flags) } {
            // WNOHANG leaves si_pid 0 while the child runs.
            // SAFETY: waitid filled `info` for a child state change (or left it zeroed).
            0 => (unsafe { info.si_pid() }) != 0,
            _ => true,
        }
    }

    /// Waits for the child to exit (killing it after `grace`) and describes how it ended.
    fn exit_report(&mut self, grace: Duration) -> String {
        let status = match self.wait_or_kill(grace) {
            Some(status) => status.to_string(),
            None => "closed its stdout and was killed".to_string(),
        };
        // Every writer of stderr is gone now: read it to its end before taking the tail.
        self.stderr.wait_for_end(STDERR_END_WAIT);
        let stderr = self.stderr.text();
        if stderr.is_empty() {
            status
        } else {
            // All the tail kept: a report shows the lines that name the error from it.
            format!("{status}{STDERR_MARK}{}", tail(&stderr, StderrTail::KEEP))
        }
    }

    /// Kills the child's whole process group, then reaps the child.
    fn kill(&mut self) {
        self.kill_group();
        let _ = self.child.kill();
        crate::teardown::forget_group(&self.child);
        let _ = self.child.wait();
    }

    /// SIGKILL to every process of the child's group. Called before the child is reaped, so
    /// the group id (the child's pid) cannot name another process's group.
    fn kill_group(&self) {
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is involved.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
    }

    /// Closes stdin and gives the child `grace` to exit before killing it.
    fn shutdown(mut self, grace: Duration) {
        drop(self.writer.take());
        self.wait_or_kill(grace);
    }
}

/// How long a crash report waits for stderr to reach its end once the group is dead.
const STDERR_END_WAIT: Duration = Duration::from_millis(500);

/// The last `max` bytes of `text` or a little fewer, starting at a character boundary.
fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

fn parse_hello(text: &[u8]) -> Result<Hello, StartError> {
    let line: HelloLine = serde_json::from_slice(text).map_err(|e| {
        StartError::Handshake(format!(
            "the first line must be {{\"hello\": {{...}}}}: {e}; it was {} ({STDOUT_HINT})",
            excerpt(text)
        ))
    })?;
    if line.hello.protocol != PROTOCOL_VERSION {
        return Err(StartError::Handshake(format!(
            "the implementation speaks protocol {}, this harness speaks {PROTOCOL_VERSION}",
            line.hello.protocol
        )));
    }
    Ok(line.hello)
}

/// The start of a line, for messages.
fn excerpt(text: &[u8]) -> String {
    let shown = String::from_utf8_lossy(&text[..text.len().min(120)]).into_owned();
    if text.len() > 120 {
        format!("{shown:?}...")
    } else {
        format!("{shown:?}")
    }
}

/// An implementation behind the subprocess protocol.
pub struct Subprocess {
    config: ClientConfig,
    hello: Hello,
    process: Option<Process>,
    next_id: u64,
    restarts: usize,
    /// The time the last request spent restarting the child (zero when it did not).
    last_start: Duration,
    /// Why the child could not be restarted; once set, no more starts are tried.
    dead: Option<String>,
}

impl Subprocess {
    /// Starts the child and reads its `hello`.
    pub fn start(config: ClientConfig) -> Result<Self, StartError> {
        let (process, hello) = Process::launch(&config)?;
        Ok(Subprocess {
            config,
            hello,
            process: Some(process),
            next_id: 1,
            restarts: 0,
            last_start: Duration::ZERO,
            dead: None,
        })
    }

    /// The handshake of the first start.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// How many times the child was started again after a crash, timeout or protocol error.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// Kills the child; the next request starts a new one.
    fn discard(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    fn crash(&mut self) -> Answer<Output> {
        let report = match self.process.take() {
            Some(mut process) => process.exit_report(self.config.grace),
            None => "no process".into(),
        };
        Answer::Fault(Fault::Crash(report))
    }

    fn protocol_error(&mut self, why: String) -> Answer<Output> {
        self.discard();
        Answer::Fault(Fault::Protocol(why))
    }

    fn running(&mut self) -> Result<&mut Process, String> {
        if self.process.is_none() && self.dead.is_none() {
            let began = Instant::now();
            let launched = Process::launch(&self.config);
            self.last_start = began.elapsed();
            match launched {
                Ok((process, _)) => {
                    self.restarts += 1;
                    self.process = Some(process);
                }
                Err(e) => self.dead = Some(e.to_string()),
            }
        }
        if let Some(why) = &self.dead {
            return Err(format!("the implementation could not be restarted: {why}"));
        }
        self.process
            .as_mut()
            .ok_or_else(|| "no process".to_string())
    }
}

impl Implementation for Subprocess {
    fn name(&self) -> String {
        format!("{} {}", self.hello.implementation, self.hello.version)
            .trim()
            .to_string()
    }

    fn version(&self) -> String {
        self.hello.version.clone()
    }

    fn notes(&self) -> Option<String> {
        self.hello.notes.clone()
    }

    fn operations(&self) -> Vec<OpName> {
        self.hello.known_operations()
    }

    fn capabilities(&self) -> crate::capabilities::Capabilities {
        self.hello.capabilities.clone()
    }

    fn unknown_operations(&self) -> Vec<String> {
        self.hello.unknown_operations()
    }

    fn last_start_time(&self) -> Duration {
        self.last_start
    }

    fn execute(&mut self, request: &Request) -> Answer<Output> {
        self.last_start = Duration::ZERO;
        let op = request.op();
        let id = self.next_id;
        self.next_id += 1;
        let mut line = serde_json::to_vec(&RequestLine {
            id,
            op: op.as_str().to_string(),
            input: request.input_json(),
        })
        .unwrap_or_default();
        line.push(b'\n');
        let timeout = self.config.request_timeout;
        let answered = match self.running() {
            Err(why) => return Answer::Fault(Fault::Crash(why)),
            Ok(process) => {
                // The clock starts once the child runs: a restart does not eat into the timeout.
                let deadline = Instant::now() + timeout;
                match process
                    .writer
                    .as_mut()
                    .map(|w| w.write_line(&line, deadline))
                {
                    Some(Ok(())) => process.reader.next_line(deadline),
                    Some(Err(e)) if e.kind() == std::io::ErrorKind::TimedOut => Line::TimedOut,
                    _ => Line::End,
                }
            }
        };
        match answered {
            Line::TimedOut => {
                self.discard();
                Answer::Fault(Fault::Timeout)
            }
            Line::End | Line::Failed(_) => self.crash(),
            Line::Oversized { limit } => {
                self.discard();
                Answer::Fault(Fault::Oversized { limit })
            }
            Line::Text(text) => match serde_json::from_slice::<AnswerLine>(&text) {
                Err(e) => self.protocol_error(format!(
                    "not an answer line ({e}): {} ({STDOUT_HINT})",
                    excerpt(&text)
                )),
                Ok(answer) if answer.id != id => self.protocol_error(format!(
                    "an answer with id {} while request {id} was pending",
                    answer.id
                )),
                Ok(answer) => answer.body.into_answer(op),
            },
        }
    }
}

impl Drop for Subprocess {
    fn drop(&mut self) {
        if let Some(process) = self.process.take() {
            process.shutdown(self.config.grace);
        }
    }
}
