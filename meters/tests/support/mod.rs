//! What the critical-memory tests share.
#![allow(dead_code)]

pub mod copies;
pub mod production;
pub mod relay;
#[path = "../../../tests/support/swtpm.rs"]
pub mod swtpm;
