//! Rules of four relay-sowing mancala games — Olinda Keliya, Olowuka,
//! Pallankuzhi and Rio Kadalis — as `spec/rules/` states them.
//!
//! The shape follows shakmaty: an unvalidated [`Setup`] becomes a validated
//! [`Position`]; [`Position::play`] returns the next position or a
//! [`PlayError`] that carries the position back. [`Game`] adds what a single
//! position cannot know: repetition history, the end of a game or round, and
//! refilling between the rounds of a match; its lean entry
//! [`Game::play_unsettled`] replays a record's common moves with the least
//! bookkeeping and leaves "cannot move" to be settled when it matters.
//!
//! Every move terminates: relay sowing is run with exact cycle detection in
//! constant memory (Brent's algorithm) and a lap budget that yields
//! [`PlayError`] "undecided" rather than a silent verdict.
//!
//! ```
//! use mancala_rules::{Game, GameId, Hole, Move, Position, Rules, Side, Status};
//!
//! // Kalah: six houses a side, four seeds in each, a store on the track.
//! let id: GameId = "kalah".parse()?;
//! let (mut game, _) = Game::new(Position::new(Rules::standard(id)))?;
//!
//! // South sows C's four seeds into D, E, F and its store: a last seed in
//! // one's own store earns another turn.
//! let report = game.play("C".parse::<Move>()?)?;
//! let position = game.position();
//! assert_eq!(position.seeds(Hole::new(Side::South, 2)), Some(0));
//! assert_eq!(position.seeds(Hole::new(Side::South, 5)), Some(5));
//! assert_eq!(position.stores(), [1, 0]);
//! assert_eq!(report.gained, [1, 0]);
//! assert_eq!(position.to_move(), Side::South);
//! assert_eq!(game.status(), Status::Ongoing);
//! let moves: Vec<String> = position.legal_moves()?.iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["A", "B", "D", "E", "F"]);
//!
//! // An empty house is refused, and the game stays as it was.
//! assert!(game.play("C".parse()?).is_err());
//! assert_eq!(game.position().stores(), [1, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod descriptor;
mod game;
mod options;
mod position;
mod setup;
mod side;
mod sow;
mod text;
mod trace;

pub use descriptor::{Counter, Descriptor, Direction, EndCapture, Fours, RefillFrom, Relay};
pub use game::{
    Drawn, EndReason, Game, Outcome, ParseEndReasonError, PlayReport, RoundEnd, Status,
};
pub use options::{GameId, Opt, Options, OptionsError, ParseGameIdError, ParseOptionError, Rules};
pub use position::{
    Lean, Move, MoveList, ParseMoveError, PlayError, PlayErrorKind, Played, Position, Verdict,
};
pub use setup::{Setup, SetupError, SetupProblem};
pub use side::{Dir, Hole, Side};
pub use sow::DEFAULT_LAP_BUDGET;
pub use text::{escape_controls, is_unsafe_control, push_escaped_controls};
pub use trace::{Capture, CaptureKind, Event, LapEnd, NoTrace, Observer, Trace};

/// Holes per row can never exceed this (Olinda Keliya and Pallankuzhi use 7).
pub const MAX_HOLES: usize = 7;

/// Seeds are counted in `u8`: a position may hold at most this many seeds in
/// all (board, stores and captures together). The largest standard game,
/// Olinda Keliya with 7 seeds, uses 98.
pub const MAX_SEEDS: u32 = 255;
