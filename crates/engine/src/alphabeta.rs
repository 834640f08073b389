//! Negamax alpha-beta search with iterative deepening, a transposition
//! table, and move ordering (table move first, then the biggest captures).

use std::fmt;
use std::time::{Duration, Instant};

use fastrand::Rng;
use mancala_rules::{Dir, Game, Move, Position, Rules, Side};

use crate::eval::{PROVEN, WIN, evaluate, terminal};
use crate::play::{Child, NO_MOVE, children, decode, encode};
use crate::{Player, SearchInfo};

/// Search budget of [`AlphaBeta`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration, in plies. Always set: a time-only budget searches
    /// up to [`AlphaBetaConfig::MAX_DEPTH`].
    pub depth: u32,
    /// Optional time budget per move. Without it the search is fully
    /// deterministic.
    pub time: Option<Duration>,
    /// Whether `depth` was asked for (it is printed then), rather than implied by
    /// a time budget.
    depth_given: bool,
}

impl AlphaBetaConfig {
    /// Depth searched when no budget is given: measured to beat random
    /// players in every game and greedy ones in at least 90% of games, at
    /// well under a second per game in release builds (see STRENGTH.md).
    pub const DEFAULT_DEPTH: u32 = 7;

    /// The deepest any search goes.
    pub const MAX_DEPTH: u32 = 64;

    /// A fixed-depth search.
    #[must_use]
    pub const fn depth(depth: u32) -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: if depth == 0 {
                1
            } else if depth > Self::MAX_DEPTH {
                Self::MAX_DEPTH
            } else {
                depth
            },
            time: None,
            depth_given: true,
        }
    }

    /// A depth and/or time budget; with neither, the default depth.
    #[must_use]
    pub fn with_budget(depth: Option<u32>, time: Option<Duration>) -> AlphaBetaConfig {
        match (depth, time) {
            (Some(d), _) => AlphaBetaConfig {
                time,
                ..AlphaBetaConfig::depth(d)
            },
            (None, Some(_)) => AlphaBetaConfig {
                depth: Self::MAX_DEPTH,
                time,
                depth_given: false,
            },
            (None, None) => AlphaBetaConfig::default(),
        }
    }
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig::depth(Self::DEFAULT_DEPTH)
    }
}

impl fmt::Display for AlphaBetaConfig {
    /// `alphabeta depth=7`, `alphabeta ms=200`, `alphabeta depth=8 ms=200`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("alphabeta")?;
        if self.depth_given {
            write!(f, " depth={}", self.depth)?;
        }
        if let Some(time) = self.time {
            write!(f, " ms={}", time.as_millis())?;
        }
        Ok(())
    }
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// One transposition-table slot. `depth` is stored plus one, so that zero
/// marks an empty slot.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: u8,
    mv: u8,
}

/// Larger than any score.
const INF: i32 = 2 * WIN;

/// The splitmix64 finaliser: a cheap, well-mixed 64-bit hash step.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hash of everything that decides a position's future apart from its
/// repetition history: board, closed holes and side to move (the repetition
/// key), stores, round, round starter and Olinda Keliya's direction.
fn hash(pos: &Position) -> u64 {
    let key = pos.repetition_key();
    let dir = match pos.south_dir() {
        None => 0u64,
        Some(Dir::Ccw) => 1,
        Some(Dir::Cw) => 2,
    };
    let extra = u64::from(pos.store(Side::South))
        | u64::from(pos.store(Side::North)) << 8
        | u64::from(pos.round()) << 16
        | dir << 32
        | (pos.round_starter().index() as u64) << 34;
    let h = mix(key as u64 ^ 0x9e37_79b9_7f4a_7c15);
    let h = mix(h ^ (key >> 64) as u64);
    mix(h ^ extra)
}

/// Proven scores depend on the distance to the end; the table stores them
/// relative to the node so that they can be reused at another ply.
fn to_tt(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// The alpha-beta player.
///
/// The transposition table is kept from move to move (it is cleared when
/// the rules change), so a player's moves depend on the moves it was asked
/// for before: the same seed and the same sequence of calls give the same
/// moves. The seed only shuffles root moves, which decides between moves
/// of equal value.
#[derive(Debug)]
pub struct AlphaBeta {
    config: AlphaBetaConfig,
    rng: Rng,
    table: Vec<Entry>,
    table_rules: Option<Rules>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Set when some line stopped at the depth limit: the result is then
    /// an estimate, and a deeper iteration can change it.
    horizon: bool,
    info: Option<SearchInfo>,
}

impl AlphaBeta {
    /// Table size used by [`AlphaBeta::new`]: 2^18 slots of 16 bytes (4 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 18;

    #[must_use]
    pub fn new(config: AlphaBetaConfig, seed: u64) -> AlphaBeta {
        AlphaBeta::with_table_bits(config, seed, Self::DEFAULT_TABLE_BITS)
    }

    /// A player with a transposition table of `2^bits` slots.
    #[must_use]
    pub fn with_table_bits(config: AlphaBetaConfig, seed: u64, bits: u32) -> AlphaBeta {
        AlphaBeta {
            config,
            rng: Rng::with_seed(seed),
            table: vec![Entry::default(); 1 << bits.clamp(1, 30)],
            table_rules: None,
            nodes: 0,
            deadline: None,
            stopped: false,
            horizon: false,
            info: None,
        }
    }

    #[must_use]
    pub const fn config(&self) -> AlphaBetaConfig {
        self.config
    }

    /// Searches `game` and returns the best move found with its search
    /// statistics, or `None` when no move can be played.
    pub fn search(&mut self, game: &Game) -> Option<SearchInfo> {
        let start = Instant::now();
        let rules = game.position().rules();
        if self.table_rules != Some(rules) {
            self.table.fill(Entry::default());
            self.table_rules = Some(rules);
        }
        self.nodes = 0;
        self.stopped = false;
        // The first iteration always completes, so there is always a move.
        self.deadline = None;
        let side = game.position().to_move();
        let mut kids = children(game);
        // Shuffling before the stable sorts below breaks ties between
        // equally ordered moves at random, so that seeded games vary.
        self.rng.shuffle(&mut kids);
        kids.sort_by_key(|c| -c.gain);
        let mut best = kids.first()?.mv;
        let mut info = SearchInfo {
            best,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            score: 0,
        };
        if kids.len() > 1 {
            for depth in 1..=self.config.depth {
                self.horizon = false;
                kids.sort_by_key(|c| c.mv != best);
                let mut alpha = -INF;
                let mut iteration_best = best;
                for child in &kids {
                    let v = self.child_value(child, side, depth - 1, 1, alpha, INF);
                    if self.stopped {
                        break;
                    }
                    if v > alpha {
                        alpha = v;
                        iteration_best = child.mv;
                    }
                }
                if self.stopped {
                    break;
                }
                best = iteration_best;
                info.depth = depth;
                info.score = alpha;
                if depth == 1 {
                    self.deadline = self.config.time.map(|t| start + t);
                }
                // Nothing deeper to see: every line reached the end.
                if !self.horizon || alpha.abs() >= PROVEN {
                    break;
                }
            }
        }
        info.best = best;
        info.nodes = self.nodes;
        info.elapsed = start.elapsed();
        self.info = Some(info);
        Some(info)
    }

    /// A child's value for `side`, the side to move at its parent. The side
    /// to move does not always alternate: after a round ends, the next
    /// round's starter moves, who may be the player who just moved.
    fn child_value(
        &mut self,
        child: &Child,
        side: Side,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.game.position().to_move() == side {
            self.negamax(&child.game, depth, ply, alpha, beta)
        } else {
            -self.negamax(&child.game, depth, ply, -beta, -alpha)
        }
    }

    fn negamax(&mut self, game: &Game, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let side = game.position().to_move();
        if let Some(outcome) = game.outcome() {
            return terminal(&outcome, side, ply);
        }
        if depth == 0 {
            self.horizon = true;
            return evaluate(game, side);
        }
        if self.nodes & 255 == 0
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let key = hash(game.position());
        let slot = key as usize & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut table_move = NO_MOVE;
        if entry.key == key && entry.depth > 0 {
            table_move = entry.mv;
            if u32::from(entry.depth - 1) >= depth {
                let score = from_tt(entry.score, ply);
                let cut = match entry.bound {
                    EXACT => true,
                    LOWER => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
                    // The stored result may itself have stopped at a horizon.
                    self.horizon = true;
                    return score;
                }
            }
        }
        let mut kids = children(game);
        if kids.is_empty() {
            // Not over, yet nothing plays: every candidate is undecided
            // within the lap budget. Stop here rather than guess.
            self.horizon = true;
            return evaluate(game, side);
        }
        let first = decode(table_move, side);
        kids.sort_by_key(|c| (Some(c.mv) != first, -c.gain));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for child in &kids {
            let v = self.child_value(child, side, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = encode(child.mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table[slot] = Entry {
            key,
            score: to_tt(best, ply),
            depth: depth.min(254) as u8 + 1,
            bound,
            mv: best_move,
        };
        best
    }
}

impl Player for AlphaBeta {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.search(game).map(|info| info.best)
    }

    fn name(&self) -> String {
        self.config.to_string()
    }

    fn info(&self) -> Option<SearchInfo> {
        self.info
    }
}
