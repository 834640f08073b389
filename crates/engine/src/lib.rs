//! Computer players for the four mancala games of `mancala-rules`: a random
//! player, a greedy one, alpha-beta search and Monte Carlo tree search.
//!
//! Every player is seeded: the same seed, game and sequence of calls give
//! the same moves, byte for byte. The only exception is an explicit time
//! budget (`ms=`), which is optional; depth and playout budgets are
//! deterministic.
//!
//! ```
//! use mancala_engine::PlayerSpec;
//! use mancala_rules::{Game, GameId, Position, Rules};
//!
//! let spec: PlayerSpec = "alphabeta:depth=4".parse().unwrap();
//! let mut player = spec.build(42);
//! let (mut game, _) = Game::new(Position::new(Rules::standard(GameId::Olowuka))).unwrap();
//! let mv = player.choose(&game).unwrap();
//! assert!(game.position().legal_moves().unwrap().contains(mv));
//! assert_eq!(player.name(), "alphabeta depth=4");
//! // Or chosen and played at once: the same move, on the game.
//! let mut player = spec.build(42);
//! let played = player.play(&mut game).unwrap();
//! assert_eq!(played.mv, mv);
//! assert!(played.report.is_ok());
//! ```
//!
//! On a set-up position with one winning capture, every searcher finds it:
//! South's `E` ends in its empty `F` and takes the ten seeds facing it.
//!
//! ```
//! use mancala_engine::PlayerSpec;
//! use mancala_rules::{Game, GameId, Position, Rules, Setup};
//!
//! let rules = Rules::standard(GameId::Kalah);
//! let setup = Setup {
//!     south: [1, 0, 0, 0, 1, 0].map(Some).to_vec(),
//!     north: [10, 1, 1, 1, 1, 1].map(Some).to_vec(),
//!     stores: [15, 16],
//!     ..Setup::start(rules)
//! };
//! let (game, _) = Game::new(Position::from_setup(rules, &setup)?)?;
//! for spec in ["greedy", "alphabeta:depth=6", "mcts:playouts=2000"] {
//!     let mut player = spec.parse::<PlayerSpec>()?.build(7);
//!     let chosen = player.choose(&game).map(|mv| mv.to_string());
//!     assert_eq!(chosen.as_deref(), Some("E"), "{spec}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use mancala_rules::{Game, Move, PlayError, PlayReport};

mod alphabeta;
pub mod analysis;
mod budget;
pub mod eval;
mod mcts;
mod play;
mod simple;
mod spec;
mod tablebased;

pub use alphabeta::solve::{Solution, Solver};
pub use alphabeta::{AlphaBeta, Scoring};
pub use budget::Budget;
pub use mcts::Mcts;
pub use play::{Child, children, holdings, play_out, play_random, playable_moves};
pub use simple::{Greedy, RandomPlayer};
pub use spec::{ENGINES, Engine, ParseSpecError, PlayerKind, PlayerSpec, Setting};
pub use tablebased::Tablebased;

/// A computer player.
///
/// [`Player::play`] is how a game is played: the move chosen and played
/// at once. [`Player::choose`] leaves the game as it is (for a hint, or a
/// test).
pub trait Player: fmt::Debug + Send {
    /// The move to play in `game`, or `None` when the game is over or no
    /// move can be played. A returned move is one that [`Game::play`]
    /// accepts, unless the lap budget leaves what follows it undecided.
    fn choose(&mut self, game: &Game) -> Option<Move>;

    /// Chooses the move [`Player::choose`] would and plays it on `game`
    /// with [`Game::play`], or returns `None` (the game unchanged) when
    /// no move can be played. Where choosing sows the move anyway (the
    /// random player tries moves until one plays, the greedy one plays
    /// them all), the move is played as it is chosen, not sown again.
    fn play(&mut self, game: &mut Game) -> Option<Played> {
        let mv = self.choose(game)?;
        Some(Played {
            mv,
            report: game.play(mv),
        })
    }

    /// [`Player::play`]'s move played with [`Game::play_unsettled`], on a
    /// game that may itself be open (its last move played so): the move
    /// and each side's gain, or `None` (the game and the player as they
    /// were) when the caller is to settle the game ([`Game::settle`]) and
    /// call [`Player::play`]. The game is left open: whether the side to
    /// move next can move is not asked (a later move played proves it),
    /// and a move that ended the game or round by itself
    /// ([`Game::ended_unsettled`]) is for the caller to settle. The moves
    /// are those `play` would play on the game settled after every move,
    /// under the lap budget's default (a smaller budget may refuse a move
    /// while settling that `play` would have refused as it was played).
    /// Players that search play no faster so, and return `None`.
    fn play_unsettled(&mut self, game: &mut Game) -> Option<(Move, [u32; 2])> {
        let _ = game;
        None
    }

    /// The player and its settings as a record tag writes them, e.g.
    /// `alphabeta depth=9`, `mcts playouts=1000`, `random`. It parses back
    /// as a [`PlayerSpec`].
    fn name(&self) -> String;

    /// Limits the time of its next searches to `time` (a match's clock:
    /// what is left of it, shared out), on top of its own budget, whichever
    /// is shorter; `None` lifts the limit. Its name, and so its record tag,
    /// stay those of its own settings. Players that do not search take no
    /// time to speak of, and ignore it.
    fn limit_time(&mut self, time: Option<Duration>) {
        let _ = time;
    }

    /// Statistics of the last search, for players that search.
    fn info(&self) -> Option<SearchInfo> {
        None
    }
}

/// A move a player chose and played ([`Player::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    /// What [`Game::play`] said of it: an error (the game then as it was)
    /// only when the lap budget cannot decide what follows the move, or a
    /// round cannot begin after it.
    pub report: Result<PlayReport, PlayError>,
}

/// What a search found and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The move chosen.
    pub best: Move,
    /// Alpha-beta: the deepest iteration completed (0 when there was a
    /// single move). MCTS: 0.
    pub depth: u32,
    /// Alpha-beta: positions visited. MCTS: playouts run.
    pub nodes: u64,
    pub elapsed: Duration,
    /// Alpha-beta: the move's value for the mover, in evaluation points
    /// (seeds weighted by [`eval::Weights`]; beyond ±[`eval::PROVEN`] a
    /// proven win or loss). MCTS: the move's reward rate in thousandths.
    pub score: i32,
}

impl SearchInfo {
    /// Nodes (or playouts) per second.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
