//! Analysis of positions and of the moves played in them: a value in seeds
//! for the side to move, the best move and the line that follows it, and
//! whether the value is exact, from the alpha-beta searcher (run with
//! [`Scoring::Margin`]) and its transposition table, which an [`Analyser`]
//! keeps from one position of a game to the next.
//!
//! ```
//! use mancala_engine::analysis::{Analyser, Limit};
//! use mancala_rules::{Game, GameId, Position, Rules};
//!
//! let (game, _) = Game::new(Position::new(Rules::standard(GameId::Olowuka))).unwrap();
//! let mut analyser = Analyser::new(Limit::Depth(4));
//! let analysis = analyser.analyse(&game).unwrap();
//! assert_eq!(analysis.line[0], analysis.best);
//! assert!(analysis.depth <= 4);
//! let played = analyser.review(&game, analysis.best).unwrap();
//! assert_eq!(played.loss(), 0);
//! ```
//!
//! What the values mean, and where they are approximate:
//!
//! - A value is the seed margin, the side's final seeds minus the
//!   opponent's, that the side can reach with best play as far as the
//!   search saw. Where a line stops at the depth limit the static
//!   evaluation estimates it: stored seeds count whole, row seeds a quarter
//!   (three quarters in matches of rounds, where they come back at the
//!   refill), in hundredths of a seed.
//! - With endgame databases ([`Analyser::with_tablebase`]), under any
//!   limit, a position they prove for the game as it stands (its
//!   repetition history included: [`Tablebase::best_move`]) has their
//!   exact value, best move and line.
//! - Under [`Limit::Nodes`] the [`Solver`] proves values first: a value is
//!   exact only where it proved it, and is then the margin the game ends
//!   with when both sides play best (in a match of rounds, the margin of the
//!   holdings the round ends with), under the game's own repetition
//!   history. Elsewhere the alpha-beta search gives an estimate.
//! - At the root, moves are played by the rules crate's [`Game`], so
//!   repetition (the whole history), endless moves and the rounds of a
//!   match are exactly the rules'. Below the root the searcher's two
//!   approximations hold: a repetition counts only the positions since the
//!   root's predecessor, and the end of a round of a match that goes on ends
//!   the line, scored on the holdings at that moment (the seeds each player
//!   carries into the next round), which is never exact.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mancala_rules::{Game, Move};
use mancala_tablebase::Tablebase;

use crate::alphabeta::solve::Solver;
use crate::alphabeta::{AlphaBeta, Scoring};
use crate::eval::{Weights, margin_of};
use crate::{Budget, SearchInfo, playable_moves};

/// How far to search each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// To this depth in plies (deterministic: the same positions in the
    /// same order give the same values).
    Depth(u32),
    /// Deepening for this long per position (the played move is then
    /// searched to the depth the position reached).
    Time(Duration),
    /// Deepening until the value is exact or about this many positions
    /// were searched (after the first iteration): a solve.
    Nodes(u64),
}

/// A value in hundredths of a seed for the side it is given for, and
/// whether it is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value {
    /// Hundredths of a seed (an exact value is a whole number of seeds).
    pub centiseeds: i32,
    pub exact: bool,
}

impl Value {
    /// An exact margin of `seeds`.
    #[must_use]
    pub const fn exact(seeds: i32) -> Value {
        Value {
            centiseeds: seeds * 100,
            exact: true,
        }
    }

    /// The value of a search score for the side it was searched for.
    /// `store` is the evaluation's weight of a stored seed (points per
    /// seed).
    fn from_score(score: i32, exact: bool, store: i32) -> Value {
        let centiseeds = match margin_of(score) {
            Some(margin) => margin * 100,
            // Rounded to the nearest hundredth, halves away from zero.
            None => {
                let scaled = score * 100;
                (scaled + scaled.signum() * store / 2) / store
            }
        };
        Value { centiseeds, exact }
    }

    /// The same value for the other side.
    #[must_use]
    pub const fn negated(self) -> Value {
        Value {
            centiseeds: -self.centiseeds,
            exact: self.exact,
        }
    }
}

impl Value {
    /// The value in whole seeds, rounded to the nearest (halves away from
    /// zero).
    #[must_use]
    pub const fn seeds(self) -> i32 {
        let cs = self.centiseeds;
        (cs + if cs < 0 { -50 } else { 50 }) / 100
    }
}

impl fmt::Display for Value {
    /// In whole seeds, as the notation's `[%eval …]` writes them: `=+3`,
    /// `=0`, `=-2` for exact values, `+3`, `0`, `-1` for estimates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exact {
            f.write_str("=")?;
        }
        match self.seeds() {
            0 => f.write_str("0"),
            n if n > 0 => write!(f, "+{n}"),
            n => write!(f, "{n}"),
        }
    }
}

/// What the search found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The best move found.
    pub best: Move,
    /// Its value for the side to move.
    pub value: Value,
    /// The principal variation: the best move and the moves that follow it
    /// with best play, as far as the search's table holds them (to the end
    /// of the game for an exact value).
    pub line: Vec<Move>,
    /// The deepest iteration completed, in plies.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// A time or node limit stopped the search before its depth limit
    /// (or, in a solve, before the value was exact).
    pub stopped: bool,
}

/// A played move weighed against the best one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The position's analysis. When the played move, searched on its own,
    /// is worth more than the move the search preferred, it is the best
    /// move (and its line the best line).
    pub analysis: Analysis,
    /// The move played.
    pub played: Move,
    /// Its value for the mover, at the analysis's depth (in a solve, as far
    /// as the node budget allowed).
    pub value: Value,
}

impl Review {
    /// Hundredths of a seed the played move gave away against the best
    /// move, at the same depth (never negative).
    #[must_use]
    pub fn loss(&self) -> i32 {
        (self.analysis.value.centiseeds - self.value.centiseeds).max(0)
    }
}

/// A solve that ran out of nodes before the value was exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsolved {
    /// What the search found by then (at the deepest depth completed).
    pub analysis: Analysis,
}

/// Analyses the positions of a game, in order, keeping its transposition
/// table from one to the next.
#[derive(Debug)]
pub struct Analyser {
    player: AlphaBeta,
    limit: Limit,
    /// Under [`Limit::Nodes`]: the solver that proves values first; the
    /// player searches for an estimate where it does not.
    solver: Option<Solver>,
    /// Endgame databases of the game's rules.
    tablebase: Option<Arc<Tablebase>>,
}

/// The mover's store less the opponent's: what a value of seeds still to
/// be won adds to, for the final margin.
fn stores_margin(game: &Game) -> i32 {
    let pos = game.position();
    let mover = pos.to_move();
    i32::from(pos.store(mover)) - i32::from(pos.store(mover.opposite()))
}

/// Plies a line is followed at most (an exact line ends sooner in practice).
const MAX_LINE: usize = 256;

impl Analyser {
    /// An analyser searching each position within `limit`, with a table of
    /// 2^20 slots (16 MiB).
    #[must_use]
    pub fn new(limit: Limit) -> Analyser {
        const BITS: u32 = 20;
        let player = match limit {
            Limit::Depth(d) => AlphaBeta::with_table_bits(Budget::limit(d), 0, BITS),
            Limit::Time(t) => AlphaBeta::with_table_bits(Budget::new(None, Some(t), 0), 0, BITS),
            Limit::Nodes(nodes) => AlphaBeta::solver(nodes, BITS),
        };
        let solver = match limit {
            Limit::Nodes(nodes) => Some(Solver::new(nodes, None, BITS)),
            Limit::Depth(_) | Limit::Time(_) => None,
        };
        Analyser {
            player: player.with_scoring(Scoring::Margin),
            limit,
            solver,
            tablebase: None,
        }
    }

    /// Probes `tablebase` (endgame databases of the game's rules): a
    /// position they prove for the game as it stands is analysed from
    /// them, under any limit, and under [`Limit::Nodes`] the solver probes
    /// them at its leaves too.
    #[must_use]
    pub fn with_tablebase(mut self, tablebase: Option<Arc<Tablebase>>) -> Analyser {
        self.solver = self.solver.map(|s| s.with_tablebase(tablebase.clone()));
        self.tablebase = tablebase;
        self
    }

    #[must_use]
    pub const fn limit(&self) -> Limit {
        self.limit
    }

    /// The best move in `game` with its value and line, or `None` when the
    /// game is over or no move can be played.
    pub fn analyse(&mut self, game: &Game) -> Option<Analysis> {
        // The databases answer only where a move can be played.
        if let Some(analysis) = self.database_analysis(game) {
            return Some(analysis);
        }
        self.searched_analysis(game)
    }

    /// The analysis of `game` by the solver or the search, the databases
    /// left aside (asked already).
    fn searched_analysis(&mut self, game: &Game) -> Option<Analysis> {
        let moves = playable_moves(game);
        if moves.is_empty() {
            return None;
        }
        if let Some(analysis) = self.proved(game, None) {
            return Some(analysis);
        }
        let info = match moves.as_slice() {
            [] => return None,
            // Alone, the search does not weigh it: search it as a move.
            [only] => self.player.search_move(game, *only, None)?,
            _ => self.player.search(game)?,
        };
        Some(self.analysis_of(game, &info))
    }

    /// The value of playing `mv` in `game`, for its mover, searched `depth`
    /// plies deep (the move included) with a full window; `None` when the
    /// game does not accept the move.
    pub fn move_value(&mut self, game: &Game, mv: Move, depth: u32) -> Option<Value> {
        let info = self.player.search_move(game, mv, Some(depth))?;
        Some(self.value_of(game, info.score))
    }

    /// The databases' analysis of `game`, where they prove a best move:
    /// its exact value, and the line of the moves they prove best after
    /// it (no search: depth and nodes 0).
    fn database_analysis(&self, game: &Game) -> Option<Analysis> {
        let tablebase = self.tablebase.as_ref()?;
        let best = tablebase.best_move(game)?;
        let mut line = vec![best.mv];
        let mut next = game.clone();
        while line.len() < MAX_LINE && next.play(line[line.len() - 1]).is_ok() {
            match tablebase.best_move(&next) {
                Some(proved) => line.push(proved.mv),
                None => break,
            }
        }
        Some(Analysis {
            best: best.mv,
            value: Value::exact(stores_margin(game) + best.value),
            line,
            depth: 0,
            nodes: 0,
            stopped: false,
        })
    }

    /// The value of the move `mv` in `game` for its mover where the
    /// databases prove it.
    fn database_move_value(&self, game: &Game, mv: Move) -> Option<Value> {
        let v = self.tablebase.as_ref()?.probe_move(game, mv)?;
        Some(Value::exact(stores_margin(game) + v))
    }

    /// The solver's analysis of `game` (of the move `mv` in it, if given)
    /// where it proves the value within the node budget; `None` where it
    /// does not, or there is no solver.
    fn proved(&mut self, game: &Game, mv: Option<Move>) -> Option<Analysis> {
        let solver = self.solver.as_mut()?;
        let solution = match mv {
            Some(mv) => solver.solve_move(game, mv)?,
            None => solver.solve(game)?,
        };
        if !solution.proved() {
            return None;
        }
        let line = self.solved_line(game, solution.best);
        Some(Analysis {
            best: solution.best,
            value: Value::exact(solution.lower),
            line,
            depth: solution.depth,
            nodes: solution.nodes,
            stopped: false,
        })
    }

    /// The analysis of `game` with the move `played` in it weighed at the
    /// same depth. `None` when no move can be played or the game does not
    /// accept `played`.
    pub fn review(&mut self, game: &Game, played: Move) -> Option<Review> {
        let played = game.position().canonical_move(played);
        let (mut analysis, from_database) = match self.database_analysis(game) {
            Some(analysis) => (analysis, true),
            None => (self.searched_analysis(game)?, false),
        };
        let value = if played == analysis.best {
            analysis.value
        } else {
            // A solve weighs the move as it solved the position: deepening
            // within the node budget (a single iteration as deep as the
            // position's would know no budget). Where the databases gave
            // the position's value, no search set a depth: the limit's.
            let depth = match self.limit {
                Limit::Nodes(_) => None,
                Limit::Depth(d) if from_database => Some(d),
                Limit::Time(_) if from_database => None,
                Limit::Depth(_) | Limit::Time(_) => Some(analysis.depth.max(1)),
            };
            let proved = self
                .database_move_value(game, played)
                .or_else(|| self.proved(game, Some(played)).map(|p| p.value));
            let mut value = match proved {
                Some(value) => value,
                None => {
                    let info = self.player.search_move(game, played, depth)?;
                    self.value_of(game, info.score)
                }
            };
            if analysis.value.exact && !value.exact {
                // No move is worth more than the position's exact value.
                value.centiseeds = value.centiseeds.min(analysis.value.centiseeds);
            }
            if value.centiseeds > analysis.value.centiseeds {
                // Searched with a full window of its own, the played move
                // did better than the bound the root search gave it.
                analysis.best = played;
                analysis.value = value;
                analysis.line = self.line(game, played, analysis.depth, value.exact);
            }
            value
        };
        Some(Review {
            analysis,
            played,
            value,
        })
    }

    /// A solve of `game`: its exact value within the limit of nodes, or
    /// where it ran out. (Under a depth or time limit, whether the value
    /// came out exact.)
    pub fn solve(&mut self, game: &Game) -> Option<Result<Analysis, Unsolved>> {
        let analysis = self.analyse(game)?;
        Some(if analysis.value.exact {
            Ok(analysis)
        } else {
            Err(Unsolved { analysis })
        })
    }

    /// The value of a search score of the player's. Under a node budget
    /// only the solver proves: where it did not, the player's value is an
    /// estimate (its search sees repetitions from the root's predecessor
    /// on only, so it cannot prove a value in a cycle).
    fn value_of(&self, game: &Game, score: i32) -> Value {
        let store = Weights::for_rules(game.position().rules()).store;
        let exact = self.player.exact() && self.solver.is_none();
        Value::from_score(score, exact, store)
    }

    fn analysis_of(&mut self, game: &Game, info: &SearchInfo) -> Analysis {
        let value = self.value_of(game, info.score);
        let line = self.line(game, info.best, info.depth, value.exact);
        let stopped = match self.limit {
            Limit::Depth(d) => info.depth < d.min(AlphaBeta::MAX_DEPTH) && !value.exact,
            Limit::Time(_) => info.depth < AlphaBeta::MAX_DEPTH && !value.exact,
            Limit::Nodes(_) => !value.exact,
        };
        Analysis {
            best: info.best,
            value,
            line,
            depth: info.depth,
            nodes: info.nodes,
            stopped,
        }
    }

    /// `first` and the moves the solver's table holds after it, to the end
    /// of the game at most (every move played on a copy of `game`).
    fn solved_line(&self, game: &Game, first: Move) -> Vec<Move> {
        let Some(solver) = self.solver.as_ref() else {
            return vec![first];
        };
        let mut game = game.clone();
        let mut line = Vec::new();
        let mut next = Some(first);
        while let Some(mv) = next {
            if line.len() >= MAX_LINE || game.play(mv).is_err() {
                break;
            }
            line.push(mv);
            next = match game.outcome() {
                Some(_) => None,
                None => solver.table_move(&game),
            };
        }
        line
    }

    /// `first` and the moves the table holds after it: `depth` plies at
    /// most (beyond the search's depth the table's moves are other
    /// searches'), or to the end when the value is exact. Every move is
    /// played on a copy of `game`, so the line is legal.
    fn line(&self, game: &Game, first: Move, depth: u32, exact: bool) -> Vec<Move> {
        let cap = if exact {
            MAX_LINE
        } else {
            depth.max(1) as usize
        };
        let mut game = game.clone();
        let mut line = Vec::new();
        let mut next = Some(first);
        while let Some(mv) = next {
            if line.len() >= cap || game.play(mv).is_err() {
                break;
            }
            line.push(mv);
            next = match game.outcome() {
                Some(_) => None,
                None => self.player.table_move(game.position()),
            };
        }
        line
    }
}
