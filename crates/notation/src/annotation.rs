//! Annotations a record may carry beside its moves: NAGs (`!`, `?`, `$14`)
//! and the evaluation command of a comment (`{[%eval +3,9]}`). Both parse
//! without a position and print canonically through `Display`, so a tool
//! writes them through these types and `parse(print(x)) == x`.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{EvalError, ParseError};

/// A numeric annotation glyph (PGN's NAG): `$N`, N from 0 to 255. The
/// first six have suffix forms, written right after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`: a good move.
    pub const GOOD: Nag = Nag(1);
    /// `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`: a brilliant move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`: an interesting move.
    pub const INTERESTING: Nag = Nag(5);
    /// `?!`: a dubious move (an inaccuracy).
    pub const DUBIOUS: Nag = Nag(6);

    /// The suffix forms of `$1` … `$6`, in that order.
    const SUFFIXES: [&'static str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

    /// The suffix form (`!`, `?`, `!!`, `??`, `!?`, `?!`) of `$1` … `$6`.
    #[must_use]
    pub fn suffix(self) -> Option<&'static str> {
        Nag::SUFFIXES
            .get(usize::from(self.0).wrapping_sub(1))
            .copied()
    }

    /// The NAG a suffix form stands for.
    #[must_use]
    pub fn from_suffix(suffix: &str) -> Option<Nag> {
        let at = Nag::SUFFIXES.iter().position(|s| *s == suffix)?;
        Some(Nag(at as u8 + 1))
    }
}

impl fmt::Display for Nag {
    /// The canonical form: the suffix for `$1` … `$6`, `$N` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suffix() {
            Some(suffix) => f.write_str(suffix),
            None => write!(f, "${}", self.0),
        }
    }
}

/// Text that is not a [`Nag`] (the text, to be quoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseNagError {
    /// Neither a suffix nor `$` and digits.
    Unknown(String),
    /// `$` and a number over 255.
    OutOfRange(String),
}

impl fmt::Display for ParseNagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseNagError::Unknown(s) => write!(
                f,
                "unknown annotation `{}` (expected !, ?, !!, ??, !?, ?! or $N with N from 0 to 255)",
                mancala_prose::shorten(s)
            ),
            ParseNagError::OutOfRange(s) => write!(
                f,
                "annotation `{}` is out of range (NAGs go from $0 to $255)",
                mancala_prose::shorten(s)
            ),
        }
    }
}

impl std::error::Error for ParseNagError {}

impl FromStr for Nag {
    type Err = ParseNagError;

    /// `!`, `?`, `!!`, `??`, `!?`, `?!` or `$N` (N from 0 to 255).
    fn from_str(s: &str) -> Result<Nag, ParseNagError> {
        if let Some(nag) = Nag::from_suffix(s) {
            return Ok(nag);
        }
        let digits = s.strip_prefix('$').unwrap_or("");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseNagError::Unknown(s.to_owned()));
        }
        digits
            .parse::<u8>()
            .map(Nag)
            .map_err(|_| ParseNagError::OutOfRange(s.to_owned()))
    }
}

/// An evaluation, as the command `[%eval …]` inside a comment writes it
/// (spec/notation.md §6.7). Its number is in seeds, from the side of the
/// move the comment follows: how far ahead that side ends the game (its
/// final seeds minus the other's) with best play from there on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// What a search saw: `[%eval +3,9]` (`depth` plies deep), or
    /// `[%eval +3]` (depth not said).
    Estimate { seeds: i32, depth: Option<u32> },
    /// A solved value, every line searched to the end: `[%eval =+3]`.
    Exact { seeds: i32 },
}

/// How the command starts in a comment.
const EVAL_OPEN: &str = "[%eval";

impl Eval {
    /// The seeds ahead, whatever the kind.
    #[must_use]
    pub fn seeds(self) -> i32 {
        match self {
            Eval::Estimate { seeds, .. } | Eval::Exact { seeds } => seeds,
        }
    }

    /// Whether the value is solved.
    #[must_use]
    pub fn is_exact(self) -> bool {
        matches!(self, Eval::Exact { .. })
    }

    /// The `[%eval …]` command in a comment's text (between the braces):
    /// `None` when there is none, else its value and where the command
    /// stands in `comment`, or an error with its span there (a malformed
    /// value, a command not closed, a second command).
    #[must_use]
    pub fn find(comment: &str) -> Option<Result<(Eval, Range<usize>), ParseError>> {
        let mut found = None;
        let mut from = 0;
        while let Some(at) = comment[from..].find(EVAL_OPEN).map(|i| from + i) {
            from = at + EVAL_OPEN.len();
            // `[%evaluate …]` is some other command.
            let next = comment.as_bytes().get(from).copied();
            if next.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let Some(close) = comment[at..].find(']').map(|i| at + i) else {
                let end = comment[at..].find('\n').map_or(comment.len(), |i| at + i);
                return Some(Err(ParseError::new(at..end, EvalError::Unterminated)));
            };
            if found.is_some() {
                return Some(Err(ParseError::new(at..close + 1, EvalError::Second)));
            }
            let eval = match comment[at..=close].parse::<Eval>() {
                Ok(eval) => eval,
                Err(mut e) => {
                    e.span = at + e.span.start..at + e.span.end;
                    return Some(Err(e));
                }
            };
            found = Some((eval, at..close + 1));
            from = close + 1;
        }
        found.map(Ok)
    }
}

impl fmt::Display for Eval {
    /// The canonical command: `[%eval +3,9]`, `[%eval -2]`, `[%eval 0,4]`,
    /// `[%eval =+3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeds = |f: &mut fmt::Formatter<'_>, n: i32| match n {
            0 => f.write_str("0"),
            n if n > 0 => write!(f, "+{n}"),
            n => write!(f, "{n}"),
        };
        f.write_str(EVAL_OPEN)?;
        f.write_str(" ")?;
        match *self {
            Eval::Estimate { seeds: n, depth } => {
                seeds(f, n)?;
                if let Some(depth) = depth {
                    write!(f, ",{depth}")?;
                }
            }
            Eval::Exact { seeds: n } => {
                f.write_str("=")?;
                seeds(f, n)?;
            }
        }
        f.write_str("]")
    }
}

impl FromStr for Eval {
    type Err = ParseError;

    /// The whole command, `[%eval …]`: blanks (spaces, tabs) around the
    /// value; a signed number of seeds (`0` needs no sign), `=` before it
    /// for an exact value, `,depth` after it for an estimate. Errors carry
    /// their span in `s`.
    fn from_str(s: &str) -> Result<Eval, ParseError> {
        let whole = 0..s.len();
        let body = s
            .strip_prefix(EVAL_OPEN)
            .and_then(|rest| rest.strip_suffix(']'))
            .filter(|body| body.is_empty() || body.starts_with([' ', '\t']))
            .ok_or_else(|| ParseError::new(whole.clone(), EvalError::NotAnEvaluation))?;
        let value = body.trim_matches([' ', '\t']);
        let start = EVAL_OPEN.len() + (body.len() - body.trim_start_matches([' ', '\t']).len());
        let span = if value.is_empty() {
            whole
        } else {
            start..start + value.len()
        };
        if value.is_empty() {
            return Err(ParseError::new(span, EvalError::Empty));
        }
        let error =
            |kind: fn(String) -> EvalError| ParseError::new(span.clone(), kind(value.into()));
        let bad = || error(|value| EvalError::Malformed { value });
        let number = |text: &str, signed: bool| -> Result<i64, ParseError> {
            let (negative, digits) = match text.as_bytes().first() {
                Some(b'+') if signed => (false, &text[1..]),
                Some(b'-') if signed => (true, &text[1..]),
                _ => (false, text),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let n = digits
                .parse::<i64>()
                .ok()
                .filter(|n| *n <= i64::from(i32::MAX));
            let n = n.ok_or_else(|| error(|value| EvalError::TooLarge { value }))?;
            Ok(if negative { -n } else { n })
        };
        // Checked against i32 above.
        let seeds = |text: &str| number(text, true).map(|n| n as i32);
        if let Some(exact) = value.strip_prefix('=') {
            if exact.contains(',') {
                return Err(error(|value| EvalError::ExactWithDepth { value }));
            }
            return Ok(Eval::Exact {
                seeds: seeds(exact)?,
            });
        }
        match value.split_once(',') {
            Some((n, depth)) => Ok(Eval::Estimate {
                seeds: seeds(n)?,
                depth: Some(number(depth, false)? as u32),
            }),
            None => Ok(Eval::Estimate {
                seeds: seeds(value)?,
                depth: None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nags_print_their_suffix_or_their_number() {
        for (text, nag) in [
            ("!", 1),
            ("?", 2),
            ("!!", 3),
            ("??", 4),
            ("!?", 5),
            ("?!", 6),
        ] {
            assert_eq!(text.parse::<Nag>(), Ok(Nag(nag)));
            assert_eq!(Nag(nag).to_string(), text);
            assert_eq!(format!("${nag}").parse::<Nag>(), Ok(Nag(nag)));
        }
        assert_eq!("$0".parse::<Nag>(), Ok(Nag(0)));
        assert_eq!(Nag(14).to_string(), "$14");
        assert_eq!(Nag(255).to_string(), "$255");
        assert_eq!(
            "$256".parse::<Nag>(),
            Err(ParseNagError::OutOfRange("$256".to_owned()))
        );
        for bad in ["$", "$x", "!!!", "", "?!?", "$-1"] {
            assert!(bad.parse::<Nag>().is_err(), "{bad}");
        }
    }

    #[test]
    fn evals_read_and_print_canonically() {
        for (text, eval, canonical) in [
            (
                "[%eval +3,9]",
                Eval::Estimate {
                    seeds: 3,
                    depth: Some(9),
                },
                "[%eval +3,9]",
            ),
            (
                "[%eval -12]",
                Eval::Estimate {
                    seeds: -12,
                    depth: None,
                },
                "[%eval -12]",
            ),
            (
                "[%eval 3,0]",
                Eval::Estimate {
                    seeds: 3,
                    depth: Some(0),
                },
                "[%eval +3,0]",
            ),
            (
                "[%eval  +0 ]",
                Eval::Estimate {
                    seeds: 0,
                    depth: None,
                },
                "[%eval 0]",
            ),
            ("[%eval =-5]", Eval::Exact { seeds: -5 }, "[%eval =-5]"),
            ("[%eval\t=0]", Eval::Exact { seeds: 0 }, "[%eval =0]"),
        ] {
            let parsed: Eval = text.parse().unwrap();
            assert_eq!(parsed, eval, "{text}");
            assert_eq!(parsed.to_string(), canonical);
            assert_eq!(canonical.parse::<Eval>().unwrap(), eval);
        }
    }

    #[test]
    fn malformed_evals_say_where() {
        for (text, span) in [
            ("[%eval big]", 7..10),
            ("[%eval +3,]", 7..10),
            ("[%eval =+3,9]", 7..12),
            ("[%eval =+3,]", 7..11),
            ("[%eval ++3]", 7..10),
            ("[%eval]", 0..7),
            ("[%eval 3,-9]", 7..11),
            ("[%eval 99999999999]", 7..18),
        ] {
            let e = text.parse::<Eval>().unwrap_err();
            assert_eq!(e.span, span, "{text}: {e}");
        }
    }

    #[test]
    fn a_comment_holds_one_eval_among_other_words() {
        let (eval, at) = Eval::find("Better: D. [%eval -2,8] [%clk 0:01]")
            .unwrap()
            .unwrap();
        assert_eq!(
            eval,
            Eval::Estimate {
                seeds: -2,
                depth: Some(8)
            }
        );
        assert_eq!(at, 11..23);
        assert!(Eval::find("no command here [%evaluate x]").is_none());
        let e = Eval::find("[%eval +1] [%eval +2]").unwrap().unwrap_err();
        assert_eq!(e.span, 11..21);
        let e = Eval::find("x [%eval +1").unwrap().unwrap_err();
        assert_eq!(e.span, 2..11);
        let e = Eval::find("x [%eval one]").unwrap().unwrap_err();
        assert_eq!(e.span, 9..12);
        let e = Eval::find("[%eval =-1,4]").unwrap().unwrap_err();
        assert!(e.to_string().contains("no search depth"), "{e}");
    }
}
