//! The mancala game notation: a textual record format for games of Olinda
//! Keliya, Olowuka, Pallankuzhi and Rio Kadalis (see `spec/notation.md`).
//!
//! - [`Record`] is a game record as values: it parses without a position and
//!   prints canonically through `Display`, so `parse(print(r)) == r`.
//! - [`parse_game`] reads one game's text into a [`ParsedGame`], a record plus
//!   the byte [`Spans`] of its parts; errors are [`ParseError`]s: a byte
//!   span, and a [`ParseErrorKind`] with the data at fault, worded only by
//!   `Display`. Turning spans into `file:line:col` snippets is the tools' job.
//! - [`visit_game`] reads a game's text into any [`Visitor`] (the shape of
//!   pgn-reader's): tags, movetext items and the result in text order, with
//!   all of the syntax checked; a visitor may stop the reading, and writes
//!   only the methods it needs (moves of MGN come through `mv`, which
//!   hands them to `item` unless the visitor takes them there). `parse_game` is one such visitor; the tools'
//!   check is another, which plays the moves as they are read and builds a
//!   record only when asked to.
//! - Annotations: NAGs ([`Nag`]) and variations are items of the record
//!   ([`Item::Nag`], [`Item::Variation`]); the visitor hands them over
//!   through `nag`, `begin_variation` and `end_variation`, and passes over
//!   variations unless a visitor enters them. [`Eval`] is the typed value
//!   of a comment's `[%eval …]` command, parsed without a position and
//!   printed through `Display`.
//! - [`Reader`] splits any stream into games without holding more than one
//!   game in memory, so one bad game never hides the next.
//! - The JSON record form reads as MGN does: [`Form::detect`] tells the
//!   forms apart by a stream's first bytes, [`JsonReader`] cuts a stream of
//!   JSON values into one text per record, and [`visit_json_game`] reads a
//!   record's JSON text into a [`Visitor`] with spans into that text.
//!
//! The crate knows the vocabulary of the rules (game ids, options, hole
//! labels, sides) but not their logic: legality is the rules crate's job.
//!
//! ```
//! use mancala_notation::{GameResult, parse_game};
//! use mancala_rules::GameId;
//!
//! // Move numbers are optional and spacing is free when reading...
//! let text = "[Game \"olowuka\"]\n[South \"Ade\"]\n\n1.D 1...b 2. C   a\n*\n";
//! let record = parse_game(text)?.record;
//! assert_eq!(record.game, GameId::Olowuka);
//! assert_eq!(record.tag("South"), Some("Ade"));
//! let moves: Vec<String> = record.moves().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["D", "b", "C", "a"]);
//! assert_eq!(record.result, GameResult::Unfinished);
//!
//! // ...and printing is canonical, and reads back as the same record.
//! let printed = record.to_string();
//! assert_eq!(
//!     printed,
//!     "[Game \"olowuka\"]\n[South \"Ade\"]\n[Result \"*\"]\n\n1. D b 2. C a *\n"
//! );
//! assert_eq!(parse_game(&printed)?.record, record);
//!
//! // A game that is not well formed is an error with the byte span at fault.
//! let bad = "[Game \"olowuka\"]\n\n1. D b 2. C@ *\n";
//! let error = parse_game(bad).unwrap_err();
//! assert_eq!(&bad[error.span], "C@");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod annotation;
mod error;
mod json;
mod parse;
mod print;
mod reader;
mod record;
mod visitor;

pub use annotation::{Eval, Nag, ParseNagError};
pub use error::{
    EvalError, ExtraTagRefusal, JsonError, JsonValue, MovetextError, Number, ParseError,
    ParseErrorKind, SetUpError, TagError, TagLineError, TextError,
};
pub use json::{Form, JsonReader, parse_json_game, visit_json_game};
pub use parse::{MAX_VARIATION_DEPTH, RecordBuilder, parse_game, parse_setup, visit_game};
pub use print::{MAX_LINE, Numbering, format_setup};
pub use reader::{DEFAULT_MAX_GAME_BYTES, GameText, Locator, Reader};
pub use record::{
    GameResult, Item, ParseResultError, ParsedGame, Record, SetTagError, SetTagRefusal, Spans,
    StandardTags, Tag,
};
pub use visitor::{Skip, TagValue, Visitor, forget_move};
