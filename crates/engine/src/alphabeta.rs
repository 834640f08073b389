//! Negamax alpha-beta search with iterative deepening, a transposition
//! table, and move ordering (table move first, then the biggest captures).

use std::mem;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use fastrand::Rng;
use mancala_rules::{Dir, Game, Lean, Move, Opt, Played, Position, Rules, Side};

use crate::eval::{PROVEN, WIN, Weights, margin_terminal, terminal};
use crate::play::{Child, NO_MOVE, children, decode, encode};
use crate::{Budget, Player, SearchInfo};

pub mod solve;

/// The record-tag form of alpha-beta with `budget`: `alphabeta depth=9`,
/// `alphabeta ms=200`, `alphabeta depth=8 ms=200`.
pub(crate) fn write_tag(budget: &Budget, f: &mut impl std::fmt::Write) -> std::fmt::Result {
    budget.write_tag(f, "alphabeta", "depth")
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// Or'ed into an entry's bound: every line below the entry reached the end
/// of the game (no depth limit, no estimate), so its score holds at any
/// depth.
const SETTLED: u8 = 4;

/// One transposition-table slot. `depth` is stored plus one, so that zero
/// marks an empty slot.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: u8,
    mv: u8,
    /// Unused, always 0: with no padding byte an entry is 16 bytes to
    /// write at once, and a fresh table is filled with a store an entry
    /// (not two around the padding: some 8 instructions a node of a
    /// depth-9 search on a fresh 2^16-slot table).
    _pad: u8,
}

/// Larger than any score.
const INF: i32 = 2 * WIN;

/// Plies of captures-only search below the depth limit. Two and four win
/// the same games against greedy in Olinda Keliya; two is cheaper.
const QUIESCENCE: i32 = 2;

/// What a drawn game costs the searching player, in evaluation points (five
/// stored seeds). Measured in 600 seeded Olinda Keliya games against greedy
/// at depth 9: without contempt 4% of games were drawn and 91% won; with a
/// contempt of 20 to 400, 1–2% drawn and 92% won.
const CONTEMPT: i32 = 20;

/// What the search maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// For playing: a win is worth more the sooner it comes
    /// ([`eval::terminal`](crate::eval::terminal)), and a draw costs the
    /// side searching a little (a contempt of five stored seeds), so that
    /// it plays on for a win against a fallible opponent.
    #[default]
    Play,
    /// For analysis: the seed margin at the end with best play
    /// ([`eval::margin_terminal`](crate::eval::margin_terminal)); a draw
    /// is worth nothing to either side, so values do not depend on who
    /// searches and the table is kept across both sides' positions.
    Margin,
}

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
    hash_with_stores(pos, pos.stores())
}

/// [`hash`] with the stores taken as `stores` (the solver gives zeros
/// where the rest of the game does not depend on them).
#[inline(always)]
fn hash_with_stores(pos: &Position, stores: [u8; 2]) -> u64 {
    let key = pos.repetition_key();
    let dir = match pos.south_dir() {
        None => 0u64,
        Some(Dir::Ccw) => 1,
        Some(Dir::Cw) => 2,
    };
    let extra = u64::from(stores[Side::South.index()])
        | u64::from(stores[Side::North.index()]) << 8
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
/// the rules or the side to move at the root change), so a player's moves
/// depend on the moves it was asked for before: the same seed and the same
/// sequence of calls give the same moves. The seed only shuffles root moves,
/// which decides between moves of equal value.
#[derive(Debug)]
pub struct AlphaBeta {
    /// Its work limit is the deepest iteration, at most [`AlphaBeta::MAX_DEPTH`].
    budget: Budget,
    rng: Rng,
    table: Vec<Entry>,
    /// The table holds nothing yet, so that a fresh player's first search
    /// need not clear it again.
    table_clean: bool,
    table_rules: Option<Rules>,
    nodes: u64,
    deadline: Option<Instant>,
    /// A match's clock: a time limit on top of the budget's
    /// ([`Player::limit_time`]).
    clock: Option<Duration>,
    stopped: bool,
    /// Set when some line stopped at the depth limit: the result is then
    /// an estimate, and a deeper iteration can change it.
    horizon: bool,
    info: Option<SearchInfo>,
    /// Repetition keys along the current line (of the nodes that made
    /// their kids, each pushed as it does), and where its positions since
    /// the last irreversible move start.
    path: Vec<u128>,
    path_start: usize,
    /// The moves of the nodes along the current line, each node's above
    /// its parent's: reused from node to node, so that expanding a node
    /// neither allocates nor fills a fixed array.
    kids: Vec<Kid>,
    /// The rules' repetition rule holds (not `no-repetition-rule`).
    repetition: bool,
    /// Earlier occurrences of a position that make the next one end the
    /// game: 2 (a third occurrence), or 1 (Oware's first repeat).
    repeats_before_end: u8,
    /// The side to move alternates (no move earns another turn).
    alternates: bool,
    /// The game ends as soon as either row is empty (Kalah).
    empty_row_ends: bool,
    /// The fast lane's needs ([`Position::lean`]) for every position below
    /// the root move searched, when one holds for all: a line ends with its
    /// round, and a direction once chosen stays. `None` where it does not
    /// hold there: each node then works out its own.
    lean: Option<Lean>,
    /// The rules end the game at a number captured (Olowuka's 25): then
    /// moves that fill a store are checked for it.
    goal: bool,
    /// The root's stores have reached that number already (a set-up may
    /// start so): then every move is checked for it.
    at_goal: bool,
    /// Evaluation weights: the override if set, else the rules' own.
    weights_override: Option<Weights>,
    weights: Weights,
    /// The side searching: draws cost it [`CONTEMPT`].
    root_side: Side,
    scoring: Scoring,
    /// Nodes after which a search stops (past its first iteration).
    node_limit: Option<u64>,
    node_stop: u64,
    /// Whether the value of the last completed iteration is exact: no line
    /// stopped at the depth limit or on an estimate.
    exact: bool,
}

impl AlphaBeta {
    /// Depth searched when no budget is given. With it alpha-beta wins all
    /// but a few games against random players and over 90% against greedy
    /// ones in every game, at about 50 ms per game in release builds (see
    /// STRENGTH.md). Deeper searches, up to 12, did not win more in Olinda
    /// Keliya, the hardest case: its first player wins most games whatever
    /// the second does.
    pub const DEFAULT_DEPTH: u32 = 9;

    /// The deepest any search goes: a deeper budget is capped to it, and a
    /// time budget alone deepens up to it.
    pub const MAX_DEPTH: u32 = 64;

    /// Table size used by [`AlphaBeta::new`]: 2^18 slots of 16 bytes (4 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 18;

    /// A player searching within `budget`, its work limit counting plies.
    #[must_use]
    pub fn new(budget: Budget, seed: u64) -> AlphaBeta {
        AlphaBeta::with_table_bits(budget, seed, Self::DEFAULT_TABLE_BITS)
    }

    /// A player with a transposition table of `2^bits` slots.
    #[must_use]
    pub fn with_table_bits(budget: Budget, seed: u64, bits: u32) -> AlphaBeta {
        AlphaBeta {
            budget: budget.capped(Self::MAX_DEPTH),
            rng: Rng::with_seed(seed),
            table: vec![Entry::default(); 1 << bits.clamp(1, 30)],
            table_clean: true,
            table_rules: None,
            nodes: 0,
            deadline: None,
            clock: None,
            stopped: false,
            horizon: false,
            info: None,
            path: Vec::new(),
            path_start: 0,
            kids: Vec::new(),
            repetition: true,
            repeats_before_end: 2,
            alternates: true,
            empty_row_ends: false,
            lean: None,
            goal: false,
            at_goal: false,
            weights_override: None,
            // Set from the rules at every search.
            weights: Weights { store: 4, row: 1 },
            root_side: Side::South,
            scoring: Scoring::Play,
            node_limit: None,
            node_stop: u64::MAX,
            exact: false,
        }
    }

    /// Searches for `scoring` instead of [`Scoring::Play`].
    #[must_use]
    pub fn with_scoring(mut self, scoring: Scoring) -> AlphaBeta {
        self.scoring = scoring;
        self.table_rules = None;
        self
    }

    /// The deepest a solver goes ([`AlphaBeta::solver`]): lines of relay
    /// sowing endgames run long before a repetition or the last capture
    /// ends them. (Proven scores count plies below
    /// [`MARGIN_SCALE`](crate::eval::MARGIN_SCALE).)
    pub const MAX_SOLVE_DEPTH: u32 = 240;

    /// A solver: deepens under [`Scoring::Margin`] until the value is
    /// exact ([`AlphaBeta::exact`]) or, past its first iteration, about
    /// `nodes` positions were searched (checked every 256), keeping the
    /// deepest iteration completed, as a time limit does; at most
    /// [`AlphaBeta::MAX_SOLVE_DEPTH`] plies deep.
    #[must_use]
    pub fn solver(nodes: u64, bits: u32) -> AlphaBeta {
        let mut solver =
            AlphaBeta::with_table_bits(Budget::limit(1), 0, bits).with_scoring(Scoring::Margin);
        solver.budget = Budget::limit(Self::MAX_SOLVE_DEPTH);
        solver.node_limit = Some(nodes);
        solver
    }

    /// Whether the last search's value is exact: every line it searched
    /// reached the end of the game, none stopped at the depth limit, on a
    /// static estimate or at the end of a round of a match that goes on.
    #[must_use]
    pub const fn exact(&self) -> bool {
        self.exact
    }

    /// The best move the transposition table holds for `pos`, if any (the
    /// next move of a principal variation). It is a move of the side to
    /// move; whether it can be played is the caller's to check.
    #[must_use]
    pub fn table_move(&self, pos: &Position) -> Option<Move> {
        let key = hash(pos);
        let entry = self.table[key as usize & (self.table.len() - 1)];
        if entry.key == key && entry.depth > 0 {
            decode(entry.mv, pos.to_move())
        } else {
            None
        }
    }

    #[must_use]
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// Uses `weights` instead of [`Weights::for_rules`] (for tuning).
    #[must_use]
    pub fn with_weights(mut self, weights: Weights) -> AlphaBeta {
        self.weights_override = Some(weights);
        self.table_rules = None;
        self
    }

    /// Searches `game` and returns the best move found with its search
    /// statistics, or `None` when no move can be played.
    pub fn search(&mut self, game: &Game) -> Option<SearchInfo> {
        let start = Instant::now();
        let root = *game.position();
        self.begin(&root);
        // Root moves are played on the game itself, which knows the whole
        // repetition history and what follows the end of a round.
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
        self.exact = false;
        if kids.len() > 1 {
            for depth in 1..=self.budget.limit_or(Self::MAX_DEPTH) {
                self.horizon = false;
                kids.sort_by_key(|c| c.mv != best);
                let mut alpha = -INF;
                let mut iteration_best = best;
                for child in &kids {
                    let v = self.root_child_value(&root, child, depth as i32 - 1, alpha);
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
                self.exact = !self.horizon;
                if depth == 1 {
                    self.limit_after_first(start);
                }
                // Nothing deeper to see: every line reached the end (or,
                // in play, a win or loss is proven).
                if !self.horizon || (self.scoring == Scoring::Play && alpha.abs() >= PROVEN) {
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

    /// Readies the player for a search from `root`: the table (kept unless
    /// the rules change or, in play, the side searching), the weights and
    /// the counters. The limits of time and nodes start after the first
    /// iteration ([`AlphaBeta::limit_after_first`]), so that there is
    /// always a move.
    fn begin(&mut self, root: &Position) {
        let rules = root.rules();
        // In play, draws are scored for the side searching, so stored
        // values are only good for that side.
        let side_changed = self.scoring == Scoring::Play && self.root_side != root.to_move();
        if self.table_rules != Some(rules) || side_changed {
            if !self.table_clean {
                self.table.fill(Entry::default());
            }
            self.table_rules = Some(rules);
        }
        self.table_clean = false;
        self.repetition = !rules.has(Opt::NoRepetitionRule);
        self.repeats_before_end = if rules.repetition_ends_at_second() {
            1
        } else {
            2
        };
        self.alternates = !rules.extra_turn();
        self.empty_row_ends = rules.ends_on_empty_row();
        self.goal = rules.ends_at_twenty_five([u8::MAX; 2]);
        self.at_goal = root.reaches_twenty_five();
        self.root_side = root.to_move();
        self.weights = self
            .weights_override
            .unwrap_or_else(|| Weights::for_rules(rules));
        self.nodes = 0;
        self.stopped = false;
        self.deadline = None;
        self.node_stop = u64::MAX;
    }

    /// Starts the time and node limits, once the first iteration is done.
    fn limit_after_first(&mut self, start: Instant) {
        self.deadline = self.budget.time_within(self.clock).map(|t| start + t);
        self.node_stop = self.node_limit.unwrap_or(u64::MAX);
    }

    /// The value of playing `mv` in `game` for its side to move, searched
    /// as [`AlphaBeta::search`] searches a root move but with a full
    /// window, so that the value is the move's own and not a bound. With
    /// `depth`, exactly that deep and without time or node limits (the
    /// same call gives the same value); without, deepening under the
    /// player's budget. `None` when `game` does not accept the move. The
    /// info's `depth` is the deepest iteration completed (at least 1), and
    /// [`AlphaBeta::exact`] tells whether the value is exact.
    pub fn search_move(&mut self, game: &Game, mv: Move, depth: Option<u32>) -> Option<SearchInfo> {
        let start = Instant::now();
        let root = *game.position();
        let mut next = game.clone();
        let gain = next.play(mv).ok()?.net_gain(root.to_move());
        let child = Child {
            mv,
            game: next,
            gain,
        };
        self.begin(&root);
        let mut info = SearchInfo {
            best: mv,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            score: 0,
        };
        let (first, last) = match depth {
            Some(d) => {
                let d = d.clamp(1, Self::MAX_SOLVE_DEPTH);
                (d, d)
            }
            None => (1, self.budget.limit_or(Self::MAX_DEPTH)),
        };
        self.exact = false;
        for d in first..=last {
            self.horizon = false;
            let v = self.root_child_value(&root, &child, d as i32 - 1, -INF);
            if self.stopped {
                break;
            }
            info.depth = d;
            info.score = v;
            self.exact = !self.horizon;
            if depth.is_none() && d == 1 {
                self.limit_after_first(start);
            }
            if !self.horizon {
                break;
            }
        }
        info.nodes = self.nodes;
        info.elapsed = start.elapsed();
        Some(info)
    }

    /// A root move's value for the root's side to move, searched with the
    /// window `(alpha, +inf)`.
    fn root_child_value(&mut self, root: &Position, child: &Child, depth: i32, alpha: i32) -> i32 {
        let side = root.to_move();
        if let Some(outcome) = child.game.outcome() {
            self.nodes += 1;
            return self.terminal(outcome.score, side, 1);
        }
        let pos = child.game.position();
        // The root move may have started a round, with holes closed.
        self.lean = pos.lean();
        self.path.clear();
        self.path_start = 0;
        if pos.round() == root.round() && pos.board_seeds() == root.board_seeds() {
            self.path.push(root.repetition_key());
        }
        // After a round ends, the next round's starter moves, who may be the
        // player who just moved.
        if pos.to_move() == side {
            self.negamax(pos, depth, 1, alpha, INF)
        } else {
            -self.negamax(pos, depth, 1, -INF, -alpha)
        }
    }

    /// The moves of `pos` that play, but the one coded `skip`, with what
    /// they lead to, pushed onto [`AlphaBeta::kids`] in search order: the
    /// biggest gains first, candidate (hole) order between equals (a stable
    /// sort by gain, done as they come: most moves gain nothing and stay
    /// where they land).
    ///
    /// Below the root the search works on [`Position`]s, not [`Game`]s:
    /// [`Game::play`] clones a history and sows every move once more to see
    /// whether the next player can move, which the search finds out anyway
    /// when it expands the next node. The end checks are the rules' own, in
    /// their order (endless move under `endless-ends-game`, Olowuka's 25,
    /// repetition, cannot move), with two approximations: repetitions count
    /// only positions since the root's predecessor, since a game's earlier
    /// history is not visible from outside, and the end of a round of a
    /// match ends the line (scored on holdings unless the match is over),
    /// since refilling is the rules crate's business.
    fn expand(&mut self, pos: &Position, lean: Option<&Lean>, skip: u8) -> Order {
        let mut order = Order {
            base: self.kids.len(),
            ..Order::default()
        };
        for mv in pos.candidates().iter() {
            // Where the fast lane holds no direction is due: a candidate
            // names none, and its code is its hole's index.
            let (mv, code) = match lean {
                Some(_) => (Move::new(mv.hole), mv.hole.index),
                None => (mv, encode(mv)),
            };
            if code != skip && self.push_kid(pos, lean, mv, code) {
                order.push(self.kids[self.kids.len() - 1].gain);
            }
        }
        order
    }

    /// Pushes `mv` (coded `code`) played from `pos` onto
    /// [`AlphaBeta::kids`], with what it leads to, when it plays (see
    /// [`AlphaBeta::expand`]); whether it did. The kid is made where it
    /// lies, a copy of `pos` played in place. The common move goes through
    /// the games' fast lane ([`Position::play_lean`]) when `lean` holds for
    /// `pos`; the rest, and every move where it does not, through
    /// [`Position::play`], which rules on them.
    #[inline(always)]
    fn push_kid(&mut self, pos: &Position, lean: Option<&Lean>, mv: Move, code: u8) -> bool {
        self.kids.push(Kid {
            pos: *pos,
            gain: 0,
            mv: code,
            next: Next::Reversible,
        });
        let at = self.kids.len() - 1;
        let kid = &mut self.kids[at];
        let played = lean.is_some_and(|lean| kid.pos.play_lean(lean, mv).is_some());
        if !played {
            match play_off_the_lane(pos, mv) {
                Ok(Played::Finite { position, .. }) => kid.pos = position,
                // The board as it was, the other player to move: its
                // holdings are the end's.
                Ok(Played::Endless { position, .. }) => {
                    kid.pos = position;
                    kid.next = Next::Ended;
                    return true;
                }
                Err(_) => {
                    self.kids.pop();
                    return false;
                }
            }
        }
        let before = pos.stores();
        let after = kid.pos.stores();
        // A store holds at most 255 seeds: the casts are exact.
        let me = pos.to_move().index();
        kid.gain = (i16::from(after[me]) - i16::from(before[me]))
            - (i16::from(after[1 - me]) - i16::from(before[1 - me]));
        // Seeds leave the board only into the stores (see `gains_to`), so
        // a move is irreversible exactly when a store grew.
        kid.next = if before != after {
            // Stores that did not grow cannot have reached 25 (see
            // `AlphaBeta::at_goal`).
            if (self.goal && kid.pos.reaches_twenty_five())
                || (self.empty_row_ends && kid.pos.a_row_is_empty())
            {
                Next::Ended
            } else {
                Next::Irreversible
            }
        } else if (self.at_goal && kid.pos.reaches_twenty_five())
            || (self.empty_row_ends && kid.pos.a_row_is_empty())
            || (self.repetition
                && repeats(
                    &self.path[self.path_start..],
                    kid.pos.repetition_key(),
                    self.repeats_before_end,
                    self.alternates,
                ))
        {
            Next::Ended
        } else {
            Next::Reversible
        };
        true
    }

    /// The value for `side` of a game, or round, that ended in `pos` (the
    /// position the last move left) with holdings `h`. A match of rounds
    /// goes on while both players can refill a hole and, under `rounds=N`,
    /// round N is not over ([`Rules::match_end`]); the holdings are then
    /// only an estimate.
    fn ended_value(&mut self, pos: &Position, h: [u32; 2], side: Side, ply: u32) -> i32 {
        let rules = pos.rules();
        if rules.plays_rounds() && rules.match_end(pos.round(), h).is_none() {
            self.horizon = true;
            self.weights.store * (h[side.index()] as i32 - h[side.opposite().index()] as i32)
        } else {
            self.terminal(h, side, ply)
        }
    }

    /// The value for `side` of a game that ended with `score`. A drawn game
    /// is worth a little less than nothing to the player searching (and a
    /// little more to its opponent): against a fallible opponent a line that
    /// is slightly behind often still wins, and a draw never does.
    fn terminal(&self, score: [u32; 2], side: Side, ply: u32) -> i32 {
        if self.scoring == Scoring::Margin {
            return margin_terminal(score, side, ply);
        }
        if score[0] == score[1] {
            if side == self.root_side {
                -CONTEMPT
            } else {
                CONTEMPT
            }
        } else {
            terminal(score, side, ply)
        }
    }

    /// A move's value for `side`, the mover, at `ply` (the kid's ply).
    #[inline(always)]
    fn kid_value(
        &mut self,
        kid: &Kid,
        side: Side,
        depth: i32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if kid.next == Next::Ended {
            self.nodes += 1;
            return self.ended_value(&kid.pos, kid.pos.holdings(), side, ply);
        }
        let start = self.path_start;
        if kid.next == Next::Irreversible {
            // The kid's position starts the line repetitions look at.
            self.path_start = self.path.len();
        }
        // A move that earns another turn (Kalah) leaves the same side to
        // move: its value is the kid's own, not negated.
        let v = if kid.pos.to_move() == side {
            self.negamax(&kid.pos, depth, ply, alpha, beta)
        } else {
            -self.negamax(&kid.pos, depth, ply, -beta, -alpha)
        };
        self.path_start = start;
        v
    }

    /// Puts `pos`, a node about to make its kids, on the current line
    /// ([`AlphaBeta::path`]), where they look for repetitions; the line's
    /// length before. A node that makes no kids (most leaves) never does.
    #[inline(always)]
    fn enter_line(&mut self, pos: &Position) -> usize {
        let line = self.path.len();
        self.path.push(pos.repetition_key());
        line
    }

    /// Takes a node's kids from `base` on, and its position on the line
    /// (at `line`), off again.
    #[inline(always)]
    fn leave(&mut self, base: usize, line: usize) {
        self.kids.truncate(base);
        self.path.truncate(line);
    }

    /// The value of `pos` for its side to move, searched `depth` plies deep
    /// and then through captures only (quiescence) down to depth
    /// `-QUIESCENCE`.
    fn negamax(&mut self, pos: &Position, depth: i32, ply: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if depth <= 0 {
            if let Some(bound) = self.margin_bound(pos, ply, alpha, beta) {
                return bound;
            }
            return self.quiesce(pos, depth, ply, alpha, beta);
        }
        let key = hash(pos);
        let slot = key as usize & (self.table.len() - 1);
        let table_move = match self.probe(slot, key, depth, ply, alpha, beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(table_move) => table_move,
        };
        // Whether a line below this node meets a horizon, apart from the
        // lines above it.
        let horizon_above = mem::replace(&mut self.horizon, false);
        let base = self.kids.len();
        let line = self.enter_line(pos);
        let searched = self.search_kids(pos, table_move, depth, ply, alpha, beta);
        self.leave(base, line);
        let (best, best_move) = match searched {
            Searched::Best { value, mv } => (value, mv),
            Searched::Stopped => return 0,
            Searched::NoMove => {
                // Cannot move: the game, or round, ends (no line below).
                self.horizon = horizon_above;
                return self.ended_value(pos, pos.holdings(), pos.to_move(), ply);
            }
        };
        let bound = if best <= alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        let bound = if self.horizon { bound } else { bound | SETTLED };
        self.horizon |= horizon_above;
        self.table[slot] = Entry {
            key,
            score: to_tt(best, ply),
            depth: depth.min(254) as u8 + 1,
            bound,
            mv: best_move,
            _pad: 0,
        };
        best
    }

    /// Counts against the node budget and the deadline (the clock is read
    /// every 256 nodes): whether the search is to stop.
    #[inline(always)]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 255 == 0
            && (self.nodes >= self.node_stop
                || self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The table's word on the node in `slot` (hashed `key`), searched
    /// `depth` deep in the window `alpha..beta`: `Break` with its score
    /// when that settles the node, else `Continue` with the move to try
    /// first ([`NO_MOVE`] when none is stored).
    #[inline(always)]
    fn probe(
        &mut self,
        slot: usize,
        key: u64,
        depth: i32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, u8> {
        let entry = self.table[slot];
        if entry.key != key || entry.depth == 0 {
            return ControlFlow::Continue(NO_MOVE);
        }
        let settled = entry.bound & SETTLED != 0;
        if settled || i32::from(entry.depth - 1) >= depth {
            let score = from_tt(entry.score, ply);
            let cut = match entry.bound & !SETTLED {
                EXACT => true,
                LOWER => score >= beta,
                _ => score <= alpha,
            };
            if cut {
                // The stored result may itself have stopped at a horizon,
                // unless it is settled.
                self.horizon |= !settled;
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(entry.mv)
    }

    /// The kids of `pos` searched `depth - 1` deep in the window
    /// `alpha..beta`, until one cuts off: the best value and its move. The
    /// table's move (`table_move`) is searched first, and alone: when it
    /// cuts off, the other moves need not be sown at all. Then the others,
    /// the biggest gains first (candidate order between equals): the order
    /// a sort of every move would give. The kids stay on
    /// [`AlphaBeta::kids`] for the caller to take off.
    #[inline(always)]
    fn search_kids(
        &mut self,
        pos: &Position,
        table_move: u8,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Searched {
        let side = pos.to_move();
        let base = self.kids.len();
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let lean = self.lean.or_else(|| pos.lean());
        // The table's move, when it is a candidate and plays, lies at
        // `base`, the others after it. Where the fast lane holds, a move
        // naming no direction is a candidate exactly when it plays there, or
        // is refused by `Position::play` as well (a hole not the side's,
        // empty or closed).
        let first = decode(table_move, side).is_some_and(|mv| {
            let candidate = match lean {
                Some(_) => mv.dir.is_none(),
                None => pos.candidates().contains(mv),
            };
            candidate && self.push_kid(pos, lean.as_ref(), mv, table_move)
        });
        if first {
            let kid = self.kids[base];
            let v = self.kid_value(&kid, side, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                return Searched::Stopped;
            }
            best = v;
            best_move = kid.mv;
            alpha = alpha.max(v);
            if alpha >= beta {
                return Searched::Best {
                    value: best,
                    mv: best_move,
                };
            }
        }
        let skip = if first { table_move } else { NO_MOVE };
        let order = self.expand(pos, lean.as_ref(), skip);
        if self.kids.len() == base {
            return Searched::NoMove;
        }
        for i in order.indices() {
            let kid = self.kids[i];
            let v = self.kid_value(&kid, side, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                return Searched::Stopped;
            }
            if v > best {
                best = v;
                best_move = kid.mv;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Searched::Best {
            value: best,
            mv: best_move,
        }
    }

    /// Under [`Scoring::Margin`] in a single game (not a match of
    /// rounds), a bound of the value of `pos` that falls outside the window
    /// without searching: every seed on the board ends in one side's
    /// holdings, so the final margin lies within the stores' difference
    /// plus or minus the board's seeds. Such a bound is as good as an
    /// exact value for the search above (it is no horizon), which lets a
    /// solve end where lines would otherwise run on.
    fn margin_bound(&self, pos: &Position, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
        if self.scoring != Scoring::Margin || pos.rules().plays_rounds() {
            return None;
        }
        let side = pos.to_move();
        let stores = i32::from(pos.store(side)) - i32::from(pos.store(side.opposite()));
        let board = pos.board_seeds() as i32;
        // The scores of the best and worst ends, a ply from here at the
        // soonest and MARGIN_SCALE plies at the latest.
        let score = |margin: i32, soon: bool| {
            let ply = if soon == (margin > 0) {
                ply + 1
            } else {
                crate::eval::MARGIN_SCALE as u32 - 1
            };
            crate::eval::margin_terminal(
                [margin.max(0) as u32, (-margin).max(0) as u32],
                Side::South,
                ply,
            )
        };
        let best = score(stores + board, true);
        let worst = score(stores - board, false);
        if best <= alpha {
            Some(best)
        } else if worst >= beta {
            Some(worst)
        } else {
            None
        }
    }

    /// Quiescence: the side to move may stand on the static evaluation or
    /// play a capture. Relay sowing makes captures huge and frequent, so a
    /// search that stops in the middle of an exchange misjudges it badly.
    fn quiesce(&mut self, pos: &Position, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.horizon = true;
        let side = pos.to_move();
        let rows = Side::BOTH.map(|s| pos.row_seeds(s));
        // A closed hole is empty (no seed is sown into it, and a round
        // closes only emptied holes), so the side to move has a candidate
        // exactly when its row holds a seed.
        if rows[side.index()] == 0 {
            // Cannot move: the game, or round, ends.
            return self.ended_value(pos, pos.holdings(), side, ply);
        }
        let stand = self.weights.evaluate_rows(pos, side, rows);
        if depth <= -QUIESCENCE || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let base = self.kids.len();
        let line = self.enter_line(pos);
        let lean = self.lean.or_else(|| pos.lean());
        let order = self.expand(pos, lean.as_ref(), NO_MOVE);
        if self.kids.len() == base {
            self.leave(base, line);
            return self.ended_value(pos, pos.holdings(), side, ply);
        }
        let mut best = stand;
        // Captures, and moves that end the game or round (their value is
        // exact, and standing pat would miss it).
        for i in order.indices() {
            let kid = self.kids[i];
            if kid.gain <= 0 && kid.next != Next::Ended {
                continue;
            }
            let v = self.kid_value(&kid, side, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                self.leave(base, line);
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.leave(base, line);
        best
    }
}

/// [`Position::play`] for a move the fast lane left (endless, starving,
/// a direction still due): rare, so kept out of line, off the path of the
/// common move through a node's moves.
#[cold]
#[inline(never)]
fn play_off_the_lane(pos: &Position, mv: Move) -> Result<Played, mancala_rules::PlayError> {
    pos.play(mv)
}

/// Whether `key`, a kid's position, occurs `times` times on `path` (the
/// current line since its last irreversible move, ending with the kid's
/// parent): a third occurrence ends the game (a second in Oware). Where the
/// side to move alternates along the line (`alternates`: no move earns
/// another turn), and the key holds the side to move, only every other
/// position, from the parent's parent back, can match.
#[inline]
fn repeats(path: &[u128], key: u128, times: u8, alternates: bool) -> bool {
    let step = if alternates { 2 } else { 1 };
    let mut seen = 0;
    let mut at = path.len();
    while at >= step {
        at -= step;
        if path[at] == key {
            seen += 1;
            if seen == times {
                return true;
            }
        }
    }
    false
}

/// How a move left the game, as far as a search without [`Game`] can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The game goes on, and the position may recur.
    Reversible,
    /// The game goes on, and seeds left the board: no earlier position can
    /// recur.
    Irreversible,
    /// The game, or a round of a match, ended, with the holdings of the
    /// kid's position.
    Ended,
}

/// What searching a node's kids found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Searched {
    /// The best value and its move (coded).
    Best { value: i32, mv: u8 },
    /// The node has no move: its game, or round, ends.
    NoMove,
    /// The budget ran out before the kids were searched.
    Stopped,
}

/// The order in which a node's kids are searched, as indices into its
/// part of [`AlphaBeta::kids`] (from `base` on), each with its kid's gain:
/// a few bytes to sort, no kid moved.
#[derive(Clone, Copy, Debug, Default)]
struct Order {
    base: usize,
    /// Indices, then gains, in search order; at most 14 moves (see
    /// [`mancala_rules::MoveList`]).
    at: [u8; 16],
    gains: [i16; 16],
    len: u8,
}

impl Order {
    /// Adds the next kid, of gain `gain`, after every kid that gains as
    /// much or more: a stable sort by gain, biggest first.
    #[inline]
    fn push(&mut self, gain: i16) {
        let index = self.len;
        let mut at = usize::from(index) & 15;
        while at > 0 && self.gains[at - 1] < gain {
            self.at[at] = self.at[at - 1];
            self.gains[at] = self.gains[at - 1];
            at -= 1;
        }
        self.at[at] = index;
        self.gains[at] = gain;
        self.len += 1;
    }

    /// The kids' indices in [`AlphaBeta::kids`], in search order.
    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.at[..usize::from(self.len)]
            .iter()
            .map(|&i| self.base + usize::from(i))
    }
}

/// A move that plays, below the root: 64 bytes, copied as it is sorted
/// and searched.
#[derive(Clone, Copy, Debug)]
struct Kid {
    pos: Position,
    /// The mover's net gain, as in [`Child::gain`].
    gain: i16,
    /// The move, coded as the table codes it ([`encode`]).
    mv: u8,
    next: Next,
}

impl Player for AlphaBeta {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.search(game).map(|info| info.best)
    }

    fn name(&self) -> String {
        let mut name = String::new();
        write_tag(&self.budget, &mut name).expect("writing to a String");
        name
    }

    fn limit_time(&mut self, time: Option<Duration>) {
        self.clock = time;
    }

    fn info(&self) -> Option<SearchInfo> {
        self.info
    }
}
