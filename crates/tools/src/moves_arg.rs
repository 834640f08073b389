//! `--moves`: movetext given on the command line, read by the notation's own
//! parser, so that whatever a record may say (`1. E:ccw+6 d`, `1.E`) can be
//! pasted, and errors point into the flag's text. A move typed at
//! mancala-play's human seat is read by the same parser, after the
//! spellings people type besides the notation's (`E ccw`, `E:CCW`) are
//! put in its form.

use std::fmt;
use std::ops::Range;

use mancala_notation::{GameText, Item, MovetextError, ParseErrorKind, parse_game};
use mancala_prose::shorten;
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
    GameText::whole(moves)
}

/// Why a text of moves is refused, and where in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesArgError {
    pub span: Range<usize>,
    /// What the text is, as messages name it (`--moves`).
    pub what: &'static str,
    pub kind: MovesArgErrorKind,
}

/// What is wrong with a text of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesArgErrorKind {
    /// A line break in it.
    MultiLine,
    /// A result after the moves.
    Result,
    /// A round marker among them.
    Round,
    /// A syntax error of the notation.
    Notation(Box<ParseErrorKind>),
}

impl fmt::Display for MovesArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = self.what;
        match &self.kind {
            MovesArgErrorKind::MultiLine => write!(f, "{what} takes a single line"),
            MovesArgErrorKind::Result => write!(f, "{what} holds moves only, not a result"),
            MovesArgErrorKind::Round => {
                write!(f, "{what} holds moves only; rounds begin by themselves")
            }
            MovesArgErrorKind::Notation(kind) => kind.fmt(f),
        }
    }
}

impl std::error::Error for MovesArgError {}

/// Reads `--moves`: moves, move numbers and comments, without a result;
/// NAGs and variations of a pasted record are read and passed over.
pub fn parse(moves: &str) -> Result<Vec<MoveArg>, MovesArgError> {
    parse_as(moves, NAME)
}

/// Reads `moves` as [`parse`] does; `what` names the text in messages.
fn parse_as(moves: &str, what: &'static str) -> Result<Vec<MoveArg>, MovesArgError> {
    const HEAD: &str = "[Game \"olowuka\"]\n";
    let error = |span, kind| MovesArgError { span, what, kind };
    if moves.contains('\n') || moves.contains('\r') {
        return Err(error(0..moves.len(), MovesArgErrorKind::MultiLine));
    }
    let text = format!("{HEAD}{moves} *");
    let shift = |span: Range<usize>| {
        span.start.saturating_sub(HEAD.len()).min(moves.len())
            ..span.end.saturating_sub(HEAD.len()).min(moves.len())
    };
    let parsed = parse_game(&text).map_err(|e| {
        // The closing `*` is ours: a result in the flag is text after it.
        let kind = if e.span.start >= HEAD.len() + moves.len() {
            MovesArgErrorKind::Result
        } else {
            MovesArgErrorKind::Notation(e.kind)
        };
        error(shift(e.span), kind)
    })?;
    let mut out = Vec::new();
    for (item, span) in parsed.record.items.iter().zip(parsed.spans.items) {
        match item {
            Item::Move { mv, captured } => out.push(MoveArg {
                mv: *mv,
                captured: *captured,
                span: shift(span),
            }),
            // Annotations of a pasted record: the main line is what is played.
            Item::Comment { .. } | Item::Nag { .. } | Item::Variation { .. } => {}
            Item::Round { .. } => {
                return Err(error(shift(span), MovesArgErrorKind::Round));
            }
        }
    }
    Ok(out)
}

/// Why a line typed at the human seat is no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypedMoveError {
    /// A token that is no move: the seat's own word for it.
    NotAMove { token: String },
    /// No move in the line.
    NoMove,
    /// More than one move in the line.
    Several { line: String, count: usize },
    /// Refused as `--moves` would be.
    Moves(MovesArgError),
}

impl fmt::Display for TypedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypedMoveError::NotAMove { token } => write!(
                f,
                "`{}` is not a move: type a hole such as E (help lists what the seat reads)",
                shorten(token)
            ),
            TypedMoveError::NoMove => {
                f.write_str("no move there: type a hole, e.g. A (help lists what the seat reads)")
            }
            TypedMoveError::Several { line, count } => write!(
                f,
                "`{}` holds {count} moves: type one move at a time",
                shorten(line)
            ),
            TypedMoveError::Moves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TypedMoveError {}

/// Reads a line typed at the human seat: one move as `--moves` takes it (a
/// move number before it, `1.` or `1...`, is allowed and not checked, as
/// in a record; `+N` after it is kept, for the seat to check), or as
/// people type it: the direction after a space (`E ccw`, `E :cw`) and in
/// either case (`E:CCW`). The hole's case is the notation's here; the seat
/// reads either case as the player's own hole.
pub fn parse_typed(line: &str) -> Result<MoveArg, TypedMoveError> {
    let mut words: Vec<String> = Vec::new();
    for word in line.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        let bare = lower.trim_start_matches(':');
        let direction = ["ccw", "cw"].iter().any(|dir| {
            bare.strip_prefix(dir)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('+'))
        });
        // `E ccw`, `E: cw`: the direction joins its hole.
        if direction
            && let Some(last) = words.last_mut()
            && let [label] | [label, b':'] = last.as_bytes()
            && label.is_ascii_alphabetic()
        {
            *last = format!("{}:{bare}", char::from(*label));
            continue;
        }
        // `E:CCW`: the direction in the notation's case.
        match word.split_once(':') {
            Some((label, dir)) if label.len() == 1 => {
                words.push(format!("{label}:{}", dir.to_ascii_lowercase()));
            }
            _ => words.push(word.to_owned()),
        }
    }
    let text = words.join(" ");
    let mut moves = parse_as(&text, "a typed move").map_err(|e| match &e.kind {
        // The notation's word for a token it cannot read lists what a
        // record's movetext may hold; the seat says what it reads.
        MovesArgErrorKind::Notation(kind)
            if matches!(
                **kind,
                ParseErrorKind::Movetext(MovetextError::UnexpectedToken { .. })
            ) =>
        {
            TypedMoveError::NotAMove {
                token: text.get(e.span).unwrap_or(&text).to_owned(),
            }
        }
        _ => TypedMoveError::Moves(e),
    })?;
    match moves.len() {
        1 => Ok(moves.remove(0)),
        0 => Err(TypedMoveError::NoMove),
        count => Err(TypedMoveError::Several {
            line: line.trim().to_owned(),
            count,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_movetext_can_be_pasted() {
        let moves = parse("1. E:ccw+6 d 2.A {a note} b+2").unwrap();
        let annotated = parse("1. E:ccw+6! d (1... c $14) 2.A {a note} b+2??").unwrap();
        assert_eq!(
            annotated.iter().map(|m| m.mv).collect::<Vec<_>>(),
            moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        let labels: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(labels, ["E:ccw", "d", "A", "b"]);
        assert_eq!(moves[0].captured, Some(6));
        assert_eq!(moves[0].span, 3..10);
        assert_eq!(moves[3].span, 26..29);
    }

    #[test]
    fn what_people_type_at_the_seat() {
        let read = |line: &str| parse_typed(line).map(|m| (m.mv.to_string(), m.captured));
        let e_ccw = Ok(("E:ccw".to_owned(), None));
        for line in [
            "E:ccw",
            "E ccw",
            "E:CCW",
            "E CCW",
            " E  :Ccw ",
            "E: ccw",
            "1. E ccw",
        ] {
            assert_eq!(read(line), e_ccw, "{line:?}");
        }
        assert_eq!(read("A+3"), Ok(("A".to_owned(), Some(3))));
        assert_eq!(read("E cw+2"), Ok(("E:cw".to_owned(), Some(2))));
        assert_eq!(read("1. A"), Ok(("A".to_owned(), None)));
        assert_eq!(read("1... a"), Ok(("a".to_owned(), None)));
        assert_eq!(read("12.b {a note}"), Ok(("b".to_owned(), None)));
        let refused = [
            ("A b", "2 moves"),
            ("1.", "no move"),
            ("E:up", "unknown direction `up`"),
            ("A 24-24", "not a result"),
            ("R2", "rounds begin by themselves"),
            ("hello", "`hello` is not a move"),
            ("E up", "`up` is not a move"),
        ];
        for (line, why) in refused {
            let message = parse_typed(line).unwrap_err().to_string();
            assert!(message.contains(why), "{line:?}: {message}");
        }
    }

    #[test]
    fn errors_point_into_the_flag() {
        let err = parse("E:ccw d# A").unwrap_err();
        assert_eq!(err.span, 6..8);
        let err = parse("E 24-24").unwrap_err();
        assert_eq!(err.kind, MovesArgErrorKind::Result);
        assert_eq!(err.to_string(), "--moves holds moves only, not a result");
    }
}
