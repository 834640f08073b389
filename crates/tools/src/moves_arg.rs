//! `--moves`: movetext given on the command line, read by the notation's own
//! parser, so that whatever a record may say (`1. E:ccw+6 d`, `1.E`) can be
//! pasted, and errors point into the flag's text.

use std::ops::Range;

use mancala_notation::{GameText, Item, ParseError, parse_game};
use mancala_rules::Move;

/// The name diagnostics give the flag's text.
pub const NAME: &str = "--moves";

/// A move of `--moves`, with its capture annotation and its span in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveArg {
    pub mv: Move,
    pub captured: Option<u32>,
    pub span: Range<usize>,
}

/// The flag's text as a game text, for diagnostics.
#[must_use]
pub fn text(moves: &str) -> GameText {
    GameText {
        bytes: moves.as_bytes().to_vec(),
        first_line: 1,
        offset: 0,
        len: moves.len() as u64,
    }
}

/// Reads `--moves`: moves, move numbers and comments, without a result.
pub fn parse(moves: &str) -> Result<Vec<MoveArg>, ParseError> {
    const HEAD: &str = "[Game \"olowuka\"]\n";
    if moves.contains('\n') || moves.contains('\r') {
        return Err(ParseError {
            span: 0..moves.len(),
            message: "--moves takes a single line".to_owned(),
        });
    }
    let text = format!("{HEAD}{moves} *");
    let shift = |span: Range<usize>| {
        span.start.saturating_sub(HEAD.len()).min(moves.len())
            ..span.end.saturating_sub(HEAD.len()).min(moves.len())
    };
    let parsed = parse_game(&text).map_err(|e| {
        // The closing `*` is ours: a result in the flag is text after it.
        let message = if e.span.start >= HEAD.len() + moves.len() {
            "--moves holds moves only, not a result".to_owned()
        } else {
            e.message
        };
        ParseError {
            span: shift(e.span),
            message,
        }
    })?;
    let mut out = Vec::new();
    for (item, span) in parsed.record.items.iter().zip(parsed.spans.items) {
        match item {
            Item::Move { mv, captured } => out.push(MoveArg {
                mv: *mv,
                captured: *captured,
                span: shift(span),
            }),
            Item::Comment { .. } => {}
            Item::Round { .. } => {
                return Err(ParseError {
                    span: shift(span),
                    message: "--moves holds moves only; rounds begin by themselves".to_owned(),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_movetext_can_be_pasted() {
        let moves = parse("1. E:ccw+6 d 2.A {a note} b+2").unwrap();
        let labels: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(labels, ["E:ccw", "d", "A", "b"]);
        assert_eq!(moves[0].captured, Some(6));
        assert_eq!(moves[0].span, 3..10);
        assert_eq!(moves[3].span, 26..29);
    }

    #[test]
    fn errors_point_into_the_flag() {
        let err = parse("E:ccw d# A").unwrap_err();
        assert_eq!(err.span, 6..8);
        let err = parse("E 24-24").unwrap_err();
        assert!(err.message.contains("not a result"), "{}", err.message);
    }
}
