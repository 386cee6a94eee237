//! Errors that name the file, the line and what is wrong.

use crate::locate::{Path, line_of};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PaytableError {
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    #[error("{file}:{line}: {path}: {problem}")]
    Invalid { file: String, line: usize, path: String, problem: String },
    #[error("{file}: {problem}")]
    Math { file: String, problem: String },
    #[error("{file}: {problem}")]
    Io { file: String, problem: String },
}

/// Collects problems against a source, each located by its path.
pub struct Reporter<'a> {
    pub file: &'a str,
    pub src: &'a str,
}

impl Reporter<'_> {
    pub fn at(&self, path: Path, problem: impl Into<String>) -> PaytableError {
        PaytableError::Invalid { file: self.file.to_owned(), line: line_of(self.src, &path), path: path.to_string(), problem: problem.into() }
    }

    pub fn math(&self, problem: impl Into<String>) -> PaytableError {
        PaytableError::Math { file: self.file.to_owned(), problem: problem.into() }
    }
}
