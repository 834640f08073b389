//! The notation's one error type: a syntax error with the byte span it
//! covers in its game's text.

use std::fmt;
use std::ops::Range;

/// A syntax error in one game: what is wrong, and where, as a byte range of
/// the game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Range<usize>,
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(span: Range<usize>, message: impl Into<String>) -> ParseError {
        ParseError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}
