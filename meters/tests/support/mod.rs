//! What the critical-memory tests share.
#![allow(dead_code)]

pub mod copies;
pub mod swtpm;
