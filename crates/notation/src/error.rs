//! The notation's one error type: a syntax error with the byte span it
//! covers in its game's text, and what is wrong as a kind that carries its
//! data (the names, counts and values at fault), rendered to text only by
//! `Display`.

use std::fmt;
use std::ops::Range;

use mancala_prose::shorten;
use mancala_rules::{ParseEndReasonError, ParseGameIdError, ParseMoveError, ParseOptionError};

use crate::annotation::ParseNagError;
use crate::parse::MAX_VARIATION_DEPTH;
use crate::record::{GameResult, ParseResultError};

/// A syntax error in one game: what is wrong, and where, as a byte range of
/// the game's text. The kind is boxed: errors are rare, and a small error
/// keeps every `Result` the parser passes around small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Range<usize>,
    pub kind: Box<ParseErrorKind>,
}

impl ParseError {
    #[cold]
    pub(crate) fn new(span: Range<usize>, kind: impl Into<ParseErrorKind>) -> ParseError {
        ParseError {
            span,
            kind: Box::new(kind.into()),
        }
    }

    /// What is wrong.
    #[must_use]
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for ParseError {}

/// What is wrong, by the part of the reading that found it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The game's bytes, before any of it is read.
    Text(TextError),
    /// The syntax of a tag line.
    TagLine(TagLineError),
    /// The tags: their values, and which of them a game needs.
    Tag(TagError),
    /// A `SetUp` value.
    SetUp(SetUpError),
    /// The movetext.
    Movetext(MovetextError),
    /// A number past `u32::MAX`: what it counts, and its digits.
    TooLarge { number: Number, digits: String },
    /// A comment's `[%eval …]` command.
    Eval(EvalError),
    /// What only the JSON form can get wrong.
    Json(JsonError),
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Text(e) => e.fmt(f),
            ParseErrorKind::TagLine(e) => e.fmt(f),
            ParseErrorKind::Tag(e) => e.fmt(f),
            ParseErrorKind::SetUp(e) => e.fmt(f),
            ParseErrorKind::Movetext(e) => e.fmt(f),
            ParseErrorKind::TooLarge { number, digits } => write!(
                f,
                "{number} `{}` is too large (at most {})",
                shorten(digits),
                u32::MAX
            ),
            ParseErrorKind::Eval(e) => e.fmt(f),
            ParseErrorKind::Json(e) => e.fmt(f),
        }
    }
}

macro_rules! into_kind {
    ($($variant:ident($phase:ty)),*) => {$(
        impl From<$phase> for ParseErrorKind {
            fn from(e: $phase) -> ParseErrorKind {
                ParseErrorKind::$variant(e)
            }
        }
    )*};
}

into_kind!(
    Text(TextError),
    TagLine(TagLineError),
    Tag(TagError),
    SetUp(SetUpError),
    Movetext(MovetextError),
    Eval(EvalError),
    Json(JsonError)
);

/// What a number too large to read counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    /// A round marker's, or a set-up's `round=`.
    Round,
    /// A move's `+N`.
    CaptureCount,
    /// A side's seeds in the result.
    Score,
    /// A store of a set-up.
    Store,
    /// A hole of a set-up.
    SeedCount,
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Number::Round => "round",
            Number::CaptureCount => "capture count",
            Number::Score => "score",
            Number::Store => "store",
            Number::SeedCount => "seed count",
        })
    }
}

/// The game's bytes cannot be read as a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// A byte that is not UTF-8.
    InvalidUtf8,
    /// A game longer than the reader keeps (`len` bytes, `limit` kept).
    TooLong { len: u64, limit: usize },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::InvalidUtf8 => f.write_str("invalid UTF-8 (records are UTF-8 text)"),
            TextError::TooLong { len, limit } => write!(
                f,
                "this game is {len} bytes long, over the limit of {limit} bytes; it was skipped"
            ),
        }
    }
}

/// A tag line that is not `[Name "value"]`; `name` is the tag's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagLineError {
    /// No name after the `[`.
    MissingName,
    /// No `"` after the name.
    MissingValue { name: String },
    /// No `]` after the value.
    NotClosed { name: String },
    /// Something after the `]` on the line.
    TextAfter,
    /// A `\` before something other than `"` or `\`.
    InvalidEscape,
    /// No closing `"` on the line.
    UnterminatedValue { name: String },
}

impl fmt::Display for TagLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagLineError::MissingName => {
                f.write_str("expected a tag name after `[` (e.g. [Game \"olowuka\"])")
            }
            TagLineError::MissingValue { name } => {
                write!(f, "expected a quoted value for tag `{}`", shorten(name))
            }
            TagLineError::NotClosed { name } => {
                write!(f, "tag `{}` is not closed with `]`", shorten(name))
            }
            TagLineError::TextAfter => f.write_str("unexpected text after a tag on the same line"),
            TagLineError::InvalidEscape => {
                f.write_str("invalid escape in tag value (only \\\" and \\\\)")
            }
            TagLineError::UnterminatedValue { name } => write!(
                f,
                "unterminated value of tag `{}` (missing closing `\"`)",
                shorten(name)
            ),
        }
    }
}

/// A tag the game cannot have as it stands, or one it lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The same name on two tag lines.
    Twice { name: String },
    /// A `Game` value that names no game.
    Game(ParseGameIdError),
    /// An `Options` value the rules cannot take.
    Options(ParseOptionError),
    /// A `Result` value that is no result.
    Result(ParseResultError),
    /// A `Termination` value that is no end reason.
    Termination(ParseEndReasonError),
    /// A tag the notation reads, written in other case.
    OtherCase { name: String, meant: &'static str },
    /// No `Game` tag; `near`: a tag name that may have been meant for it.
    MissingGame { near: Option<String> },
    /// The `Result` tag and the movetext's result disagree.
    ResultMismatch {
        tagged: GameResult,
        ended: GameResult,
    },
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::Twice { name } => write!(f, "tag `{}` given twice", shorten(name)),
            TagError::Game(e) => e.fmt(f),
            TagError::Options(e) => e.fmt(f),
            TagError::Result(e) => e.fmt(f),
            TagError::Termination(e) => e.fmt(f),
            TagError::OtherCase { name, meant } => write!(
                f,
                "unknown tag `{name}` (did you mean `{meant}`? tag names are case-sensitive)"
            ),
            TagError::MissingGame { near: Some(name) } => write!(
                f,
                "missing [Game \"…\"] tag (did you mean `Game`, not `{}`?)",
                shorten(name)
            ),
            TagError::MissingGame { near: None } => {
                f.write_str("missing [Game \"…\"] tag (e.g. [Game \"olowuka\"])")
            }
            TagError::ResultMismatch { tagged, ended } => write!(
                f,
                "the Result tag says {tagged} but the movetext ends with {ended}"
            ),
        }
    }
}

/// What a `SetUp` value is, for the errors that say it.
const SETUP_FORM: &str = "expected `side south/north stores`, e.g. `S 4,4,4,4,4,4/4,4,4,4,4,4 0-0`";

/// A `SetUp` value that is not `side south/north stores [fields]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetUpError {
    /// Fewer than the side, the rows and the stores.
    Incomplete,
    /// The first field is not `S` or `N`.
    Side,
    /// No `/` between the rows.
    NoSlash,
    /// The stores are not `S-N`.
    Stores,
    /// A field after the stores that is not `key=value`.
    UnexpectedField { field: String },
    /// A key given twice.
    FieldTwice { key: String },
    /// `dir=` not `ccw` or `cw`.
    Dir,
    /// `round=` not a number.
    RoundNotNumber,
    /// `starter=` not `S` or `N`.
    Starter,
    /// A key other than `dir`, `round` and `starter`.
    UnknownField { key: String },
    /// A hole neither a seed count nor `x`.
    InvalidHole { cell: String },
}

impl fmt::Display for SetUpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetUpError::Incomplete => write!(f, "incomplete set-up: {SETUP_FORM}"),
            SetUpError::Side => write!(
                f,
                "the set-up starts with the side to move, S or N: {SETUP_FORM}"
            ),
            SetUpError::NoSlash => {
                f.write_str("the board needs South's and North's holes separated by `/`")
            }
            SetUpError::Stores => {
                f.write_str("stores are written south-north, e.g. `0-0` or `16-14`")
            }
            SetUpError::UnexpectedField { field } => write!(
                f,
                "unexpected `{}` in the set-up (expected dir=, round= or starter=)",
                shorten(field)
            ),
            SetUpError::FieldTwice { key } => {
                write!(f, "set-up field `{}` given twice", shorten(key))
            }
            SetUpError::Dir => f.write_str("dir is South's sowing direction: ccw or cw"),
            SetUpError::RoundNotNumber => f.write_str("round must be a number"),
            SetUpError::Starter => {
                f.write_str("starter is the side that started the round: S or N")
            }
            SetUpError::UnknownField { key } => write!(
                f,
                "unknown set-up field `{}` (expected dir, round or starter)",
                shorten(key)
            ),
            SetUpError::InvalidHole { cell } => write!(
                f,
                "invalid hole `{}`: a seed count, or x for a closed hole",
                shorten(cell)
            ),
        }
    }
}

/// A movetext that is not moves, annotations and a result. The rules of
/// where NAGs and variations stand are the JSON form's too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovetextError {
    /// A `[` in the movetext.
    TagInMovetext,
    /// A `{` with no `}`.
    UnterminatedComment,
    /// A comment line starting with `[`, which a reader takes for a tag.
    TagLineInComment,
    /// A NAG with no move before it.
    NagNotAfterMove,
    /// A variation with no move before it.
    VariationNotAfterMove,
    /// A variation with no move in it.
    EmptyVariation,
    /// Variations nested past [`MAX_VARIATION_DEPTH`].
    NestedTooDeep,
    /// A `)` with no `(`.
    UnmatchedClose,
    /// A `(` with no `)` before the result.
    UnterminatedVariation,
    /// A NAG that is none.
    Nag(ParseNagError),
    /// `R0` or `R1`.
    RoundBelowTwo,
    /// The text ends before the result.
    NoResult,
    /// `E:` with no direction.
    MissingDirection { label: char },
    /// `E:` and a direction other than `ccw` and `cw`.
    UnknownDirection { label: char, dir: String },
    /// A token the movetext has no place for.
    UnexpectedToken { token: String },
    /// The result glued to what follows it.
    ResultNotSeparated,
    /// Something other than remarks after the result.
    TextAfterResult,
}

impl fmt::Display for MovetextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovetextError::TagInMovetext => {
                f.write_str("a tag must start its own line, before the movetext")
            }
            MovetextError::UnterminatedComment => f.write_str("unterminated comment (missing `}`)"),
            MovetextError::TagLineInComment => f.write_str(
                "a line inside a comment cannot begin with `[`: read back, it would start a new game",
            ),
            MovetextError::NagNotAfterMove => {
                f.write_str("a NAG must follow a move (it annotates the move before it)")
            }
            MovetextError::VariationNotAfterMove => f.write_str(
                "a variation must follow a move: it is another line in place of that move",
            ),
            MovetextError::EmptyVariation => {
                f.write_str("an empty variation: a variation holds at least one move")
            }
            MovetextError::NestedTooDeep => {
                write!(f, "variations nest at most {MAX_VARIATION_DEPTH} deep")
            }
            MovetextError::UnmatchedClose => f.write_str("`)` closes no variation"),
            MovetextError::UnterminatedVariation => {
                f.write_str("unterminated variation (missing `)` before the result)")
            }
            MovetextError::Nag(e) => e.fmt(f),
            MovetextError::RoundBelowTwo => {
                f.write_str("round markers start at R2 (round 1 needs no marker)")
            }
            MovetextError::NoResult => f.write_str(
                "missing result at the end of the game (`*` if unfinished, or a score such as `30-18`)",
            ),
            MovetextError::MissingDirection { label } => write!(
                f,
                "missing direction after `{label}:` (expected {label}:ccw or {label}:cw)"
            ),
            MovetextError::UnknownDirection { label, dir } => write!(
                f,
                "unknown direction `{}` (expected {label}:ccw or {label}:cw)",
                shorten(dir)
            ),
            MovetextError::UnexpectedToken { token } => write!(
                f,
                "unexpected `{}` in the movetext (expected a move such as E or e, a move number, a round marker such as R2, a {{comment}} or the result)",
                shorten(token)
            ),
            MovetextError::ResultNotSeparated => {
                f.write_str("the result must be followed by a space or a new line")
            }
            MovetextError::TextAfterResult => f.write_str(
                "text after the result: a game ends with its result (start the next game with a tag line)",
            ),
        }
    }
}

/// What an `[%eval …]` value looks like, for the errors that say it.
const EVAL_FORMS: &str = "expected [%eval +3,9] (seeds ahead for the side that just moved, then the search depth), [%eval +3] or [%eval =+3] (an exact value)";

/// A comment's `[%eval …]` command that says no evaluation; `value` is
/// the text between `[%eval` and `]`, blanks trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// No `]` on the command's line.
    Unterminated,
    /// A second command in the comment.
    Second,
    /// Text that is no `[%eval …]` command.
    NotAnEvaluation,
    /// `[%eval]`.
    Empty,
    /// A value that is no evaluation.
    Malformed { value: String },
    /// Seeds or a depth past `i32::MAX`.
    TooLarge { value: String },
    /// `=+3,9`: an exact value with a depth.
    ExactWithDepth { value: String },
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unterminated => f.write_str("unterminated [%eval …] (missing `]`)"),
            EvalError::Second => {
                f.write_str("a second [%eval …] in one comment (a comment holds one evaluation)")
            }
            EvalError::NotAnEvaluation => write!(f, "not an evaluation: {EVAL_FORMS}"),
            EvalError::Empty => write!(f, "an empty [%eval]: {EVAL_FORMS}"),
            EvalError::Malformed { value } => {
                write!(f, "malformed evaluation `{}`: {EVAL_FORMS}", shorten(value))
            }
            EvalError::TooLarge { value } => write!(
                f,
                "evaluation `{}` is too large (at most {} seeds, or a depth of {})",
                shorten(value),
                i32::MAX,
                i32::MAX
            ),
            EvalError::ExactWithDepth { value } => write!(
                f,
                "malformed evaluation `{}`: an exact value has no search depth (e.g. [%eval =+3])",
                shorten(value)
            ),
        }
    }
}

/// A JSON record that is not one (spec/json.md), or says what MGN could
/// not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// The text is not an object.
    NotAnObject,
    /// serde_json's error reading a value: which, and serde_json's words
    /// (without their line and column: the span says where).
    Value { value: JsonValue, message: String },
    /// No `"game"`.
    NoGame,
    /// No `"result"`.
    NoResult,
    /// A tag of `"extra"` whose name MGN could not write or read back.
    ExtraTagName { name: String, why: ExtraTagRefusal },
    /// A tag value with a line break.
    TagSpansLines { name: String },
    /// An item's `"move"` that is no move.
    Move(ParseMoveError),
    /// `{"round":0}` or `{"round":1}`.
    RoundBelowTwo,
    /// A comment holding `}`.
    CommentWithBrace,
    /// A comment line starting with `[`.
    TagLineInComment,
    /// An item of none of the item kinds.
    UnknownItem,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::NotAnObject => f.write_str("a JSON record is an object `{…}` (spec/json.md)"),
            JsonError::Value { value, message } => write!(f, "{value}: {message}"),
            JsonError::NoGame => {
                f.write_str("the record has no \"game\" (e.g. \"game\":\"olowuka\")")
            }
            JsonError::NoResult => f.write_str(
                "the record has no \"result\" (`\"*\"` if unfinished, or a score such as \"30-18\")",
            ),
            JsonError::ExtraTagName { name, why } => {
                write!(f, "the tag name `{}` {why}", shorten(name))
            }
            JsonError::TagSpansLines { name } => write!(
                f,
                "the value of tag `{name}` spans lines, which a tag cannot"
            ),
            JsonError::Move(e) => write!(f, "an item: {e}"),
            JsonError::RoundBelowTwo => {
                f.write_str("round markers start at round 2 (round 1 needs no marker)")
            }
            JsonError::CommentWithBrace => {
                f.write_str("a comment cannot hold `}`, which would close it in MGN")
            }
            JsonError::TagLineInComment => f.write_str(
                "a line inside a comment cannot begin with `[`: in MGN it would start a new game",
            ),
            JsonError::UnknownItem => f.write_str(
                "an item is a move {\"move\":\"E\"}, a round marker {\"round\":2}, a comment {\"comment\":\"…\"}, a NAG {\"nag\":2} or a variation {\"variation\":[…]}",
            ),
        }
    }
}

/// The value of a JSON record that serde_json could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonValue {
    /// The record as a whole.
    Record,
    /// The value of one of the record's keys (`"game"`, `"tags"`, …).
    Key(&'static str),
    /// An entry of `"extra"`.
    ExtraTag,
    /// An element of `"items"` or of a variation.
    Item,
    /// A tag's value.
    Tag(String),
}

impl fmt::Display for JsonValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonValue::Record => f.write_str("invalid JSON record"),
            JsonValue::Key(key) => write!(f, "\"{key}\""),
            JsonValue::ExtraTag => f.write_str("a tag of \"extra\""),
            JsonValue::Item => f.write_str("an item"),
            JsonValue::Tag(name) => write!(f, "the tag `{name}`"),
        }
    }
}

/// Why the name of a tag of `"extra"` is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtraTagRefusal {
    /// Not letters, digits and `_` from a letter.
    NotAName,
    /// A tag with a key of its own (`Game`, `Event`, …).
    HasOwnKey,
    /// A tag the tools read, in other case: `meant`, which has a key of
    /// its own when `own_key`.
    OtherCase { meant: &'static str, own_key: bool },
    /// A name given before in `"extra"`.
    Twice,
}

impl fmt::Display for ExtraTagRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtraTagRefusal::NotAName => {
                f.write_str("is not a tag name (letters, digits and `_`, starting with a letter)")
            }
            ExtraTagRefusal::HasOwnKey => {
                f.write_str("has a key of its own in a record, not a place in \"extra\"")
            }
            ExtraTagRefusal::OtherCase { meant, own_key } => {
                let place = if *own_key {
                    "has a key of its own in a record"
                } else {
                    "is an extra tag the tools read"
                };
                write!(
                    f,
                    "is `{meant}` in other case (tag names are case-sensitive; `{meant}` {place})"
                )
            }
            ExtraTagRefusal::Twice => f.write_str("is given twice"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind is boxed so that every `Result` the parser passes carries
    /// a span and a pointer only.
    #[test]
    fn an_error_is_a_span_and_a_pointer() {
        assert_eq!(std::mem::size_of::<ParseError>(), 24);
    }

    /// The kind holds what is at fault, for a caller to act on without
    /// reading the words.
    #[test]
    fn kinds_carry_their_data() {
        let kind = |text: &str| *crate::parse_game(text).unwrap_err().kind;
        assert_eq!(
            kind("[Game \"olowuka\"]\n\n1. E:up *\n"),
            ParseErrorKind::Movetext(MovetextError::UnknownDirection {
                label: 'E',
                dir: "up".to_owned()
            })
        );
        assert_eq!(
            kind("[Gmae \"olowuka\"]\n\n*\n"),
            ParseErrorKind::Tag(TagError::MissingGame {
                near: Some("Gmae".to_owned())
            })
        );
        assert_eq!(
            kind("[Game \"olowuka\"]\n\n1. D+99999999999 *\n"),
            ParseErrorKind::TooLarge {
                number: Number::CaptureCount,
                digits: "99999999999".to_owned()
            }
        );
        assert!(matches!(
            kind("[Game \"olowuka\"]\n[Result \"1-0-0\"]\n\n*\n"),
            ParseErrorKind::Tag(TagError::Result(_))
        ));
        let setup = crate::parse_setup("S 4,y/4 0-0").unwrap_err();
        assert_eq!(
            *setup.kind,
            ParseErrorKind::SetUp(SetUpError::InvalidHole {
                cell: "y".to_owned()
            })
        );
        assert_eq!(
            setup.to_string(),
            "invalid hole `y`: a seed count, or x for a closed hole"
        );
    }
}
