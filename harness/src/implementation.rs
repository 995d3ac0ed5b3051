//! The Rust plug-in interface: one method per operation, each defaulting to "unsupported".
//! [`Implementation::operations`] is the claim: an operation left out of it is reported as not
//! claimed, while a claimed one answered "unsupported" fails the run (unless
//! [`Implementation::capabilities`] exclude that input, or an expectations file lists it).
//!
//! An implementation answers every request with an [`Answer`]: a value, a rejection of the
//! input (the implementation says the input is invalid), or "unsupported". The harness adds
//! the states an implementation cannot report about itself (crash, timeout, protocol error)
//! through [`Answer::Fault`].

use crate::ops::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where in its processing an implementation rejected an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    /// The bytes do not decode (truncated, non-canonical, trailing bytes, ...).
    Decode,
    /// The message decodes but breaks a protocol limit.
    Limits,
    /// The parameters have no defined result (sizing inputs Core leaves undefined).
    Parameters,
    /// A structure is invalid (e.g. a partial merkle tree Core's `ExtractMatches` refuses).
    Validation,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Decode => "decode",
            Stage::Limits => "limits",
            Stage::Parameters => "parameters",
            Stage::Validation => "validation",
        })
    }
}

/// An implementation's statement that an input is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Where it was rejected, when the implementation says.
    pub stage: Option<Stage>,
    /// Its own words.
    pub message: String,
}

/// What went wrong with the implementation itself rather than with the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// It panicked, exited or was killed while handling the request.
    Crash(String),
    /// It did not answer within the per-request time limit.
    Timeout,
    /// It answered something that is not a valid answer (bad JSON, wrong id, wrong shape).
    Protocol(String),
    /// It answered a line longer than the protocol's cap of `limit` bytes, so the answer was
    /// not read. Where the test demands a rejection this is a wrong accept (no rejection is
    /// that long); elsewhere it is a protocol error.
    Oversized { limit: usize },
}

/// What joins a crash's exit status to the end of the child's stderr in [`Fault::Crash`]:
/// `"exit status: 1; stderr ends: Traceback ..."`.
pub const STDERR_MARK: &str = "; stderr ends: ";

impl Fault {
    /// A crash's text split into how the implementation ended and the end of its stderr (when
    /// it wrote any); `None` for the other faults.
    pub fn crash_parts(&self) -> Option<(&str, Option<&str>)> {
        match self {
            Fault::Crash(why) => Some(match why.split_once(STDERR_MARK) {
                Some((status, stderr)) => (status, Some(stderr)),
                None => (why.as_str(), None),
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crash(why) => write!(f, "crashed: {why}"),
            Fault::Timeout => f.write_str("timed out"),
            Fault::Protocol(why) => write!(f, "protocol error: {why}"),
            Fault::Oversized { limit } => {
                write!(f, "answered a line longer than the {limit}-byte cap")
            }
        }
    }
}

/// The answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<T> {
    /// A result.
    Ok(T),
    /// The input was judged invalid.
    Rejected(Rejection),
    /// The operation (or this shape of input) is not supported.
    Unsupported,
    /// A value with integers wider than the 32 bits their fields hold (a seed never wrapped,
    /// a tweak sent negative): a wrong value, kept as it was sent ([`crate::ops::wide`]).
    Wide(crate::ops::wide::WideAnswer),
    /// The implementation failed to answer properly.
    Fault(Fault),
}

impl<T> Answer<T> {
    /// A rejection at `stage` with a message.
    pub fn reject(stage: Stage, message: impl fmt::Display) -> Self {
        Answer::Rejected(Rejection {
            stage: Some(stage),
            message: message.to_string(),
        })
    }

    /// Maps the value of an `Ok` answer.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Answer::Ok(v) => Answer::Ok(f(v)),
            Answer::Rejected(r) => Answer::Rejected(r),
            Answer::Unsupported => Answer::Unsupported,
            Answer::Wide(w) => Answer::Wide(w),
            Answer::Fault(e) => Answer::Fault(e),
        }
    }
}

impl<T, E: fmt::Display> From<Result<T, (Stage, E)>> for Answer<T> {
    fn from(result: Result<T, (Stage, E)>) -> Self {
        match result {
            Ok(v) => Answer::Ok(v),
            Err((stage, e)) => Answer::reject(stage, e),
        }
    }
}

/// Generates the [`Implementation`] trait from the operation table (`crate::ops`): one method
/// per operation, defaulting to "unsupported", and the `execute` dispatch.
macro_rules! implementation_trait {
    ($( $variant:ident = $name:literal fn $method:ident ($input:ty => $output:ty) phase $phase:ident : $doc:literal; )*) => {
        /// A BIP 37 implementation under test. Override the operations you support.
        pub trait Implementation {
            /// A short name for reports.
            fn name(&self) -> String;

            /// The version of the implementation under test: `hello.version` when it is served
            /// over the subprocess protocol. The default is this harness's version, which is
            /// right for the built-ins (versioned with it); a third-party implementation says
            /// its own.
            fn version(&self) -> String {
                env!("CARGO_PKG_VERSION").to_string()
            }

            /// What a reader of its results should know (`hello.notes`), e.g. which inputs of a
            /// supported operation it cannot handle.
            fn notes(&self) -> Option<String> {
                None
            }

            /// The operations this implementation claims (the handshake of the subprocess
            /// protocol). Requests for other operations are reported as not claimed without
            /// being sent; a claimed operation answered "unsupported" fails the run. The
            /// default claims every operation: a partial implementation lists its own.
            fn operations(&self) -> Vec<OpName> {
                OpName::ALL.to_vec()
            }

            /// Of the time the last request took, how much went on starting the implementation
            /// again (a subprocess restarted after a crash or timeout) rather than on answering:
            /// the runner leaves it out of the test's duration.
            fn last_start_time(&self) -> std::time::Duration {
                std::time::Duration::ZERO
            }

            /// What it declares it cannot take among the inputs of the operations it claims
            /// (`hello.capabilities`). A test of a claimed operation that is answered
            /// "unsupported" fails the run unless these exclude its input; the default excludes
            /// nothing.
            fn capabilities(&self) -> crate::capabilities::Capabilities {
                crate::capabilities::Capabilities::default()
            }

            /// Operation names the implementation claims that this harness does not know (an
            /// adapter may be newer than the harness). They are never sent; a run lists them as
            /// a warning.
            fn unknown_operations(&self) -> Vec<String> {
                Vec::new()
            }

            $(
                #[doc = concat!("`", $name, "`: ", $doc)]
                fn $method(&mut self, _input: &$input) -> Answer<$output> {
                    Answer::Unsupported
                }
            )*

            /// Answers any request by calling the method of its operation. The subprocess client
            /// overrides this to send the request over the wire instead.
            fn execute(&mut self, request: &Request) -> Answer<Output> {
                match request {
                    $( Request::$variant(i) => self.$method(i).map(Output::$variant), )*
                }
            }
        }
    };
}

crate::ops::operation_table!(implementation_trait);
