//! The subprocess protocol, version 1 (`docs/PROTOCOL.md`): JSON lines over the stdin and
//! stdout of one long-lived child, so that an implementation in any language can be tested.
//!
//! [`protocol`] holds the messages, [`client`] runs a child behind the
//! [`crate::implementation::Implementation`] trait and survives whatever it does, [`pipes`]
//! drains the child's output, and [`mod@serve`] is the other side: any implementation on stdio.

pub mod client;
pub mod pipes;
pub mod protocol;
pub mod serve;

pub use client::{ClientConfig, StartError, Subprocess};
pub use protocol::PROTOCOL_VERSION;
pub use serve::serve;
