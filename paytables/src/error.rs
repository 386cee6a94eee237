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
    /// Every problem of a file, each with its line (issue 18).
    #[error("{} problems:\n{}", .0.len(), .0.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n"))]
    Several(Vec<PaytableError>),
}

impl PaytableError {
    /// None for no problem, the problem itself for one, else all of them.
    pub fn from_many(mut found: Vec<PaytableError>) -> Option<PaytableError> {
        match found.len() {
            0 => None,
            1 => found.pop(),
            _ => Some(PaytableError::Several(found)),
        }
    }

    /// Each problem on its own (one, or every one of `Several`).
    pub fn problems(&self) -> Vec<&PaytableError> {
        match self {
            PaytableError::Several(all) => all.iter().collect(),
            one => vec![one],
        }
    }
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
