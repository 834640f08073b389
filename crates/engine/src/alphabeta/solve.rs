//! A solver that proves: the exact value of a position, the final seed
//! margin for the side to move under best play, by MTD(f) — null-window
//! alpha-beta tests that narrow the value's bounds until they meet — with
//! no depth limit, over the alpha-beta player's own move generation.
//!
//! Values are searched as margins of the seeds still on the board (the
//! final margin less the stores' margin now), so that where the rest of the
//! game depends on the board alone (every game but one that ends at a
//! number captured, Olowuka's 25) positions with other stores share their
//! table entries.
//!
//! Repetition is the rules' own: a position that occurs a third time (a
//! second in Oware) ends the game. A position's value then depends on the
//! positions since seeds last left the board, so the table is keyed on the
//! position *and* the multiset of those positions (a sum of their hashes):
//! a stored bound is only ever reused under the same history, and a value
//! proved in a cycle is the value under the rules, never one that borrowed
//! another history's. A line that runs past [`MAX_PLY`] plies (an endless
//! game under `no-repetition-rule`) stops the solve: not proved.
//!
//! In a match of rounds a value is exact to the end of the current round:
//! the margin of the holdings the round ends with (the seeds each player
//! carries into the next).

use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_rules::{Game, Lean, Move, Position, Rules, Side};
use mancala_tablebase::Tablebase;

use super::{AlphaBeta, Kid, Next, Order, hash_with_stores, mix, repeats};
use crate::Budget;
use crate::play::{NO_MOVE, decode, encode};

/// Plies below the root a line may run before the solve gives up (not
/// proved): far longer than any line a repetition ends in the endgames
/// measured, and shallow enough for a thread's stack.
pub const MAX_PLY: u32 = 1000;

/// One slot of the solver's table: bounds of a position's value (seeds
/// still to be won, for the side to move) under one repetition history.
#[derive(Clone, Copy, Debug, Default)]
struct Bounds {
    key: u64,
    lower: i16,
    upper: i16,
    mv: u8,
    /// The plies searched below the node, [`EXACT_DEPTH`] when every line
    /// below reached the end of the game (the bounds are the value's own,
    /// not those of a search to a horizon).
    depth: u8,
    /// Seeds on the board: what the table keeps first.
    seeds: u8,
}

impl Bounds {
    /// Whether the bounds are the value's own: every line below reached
    /// the end of the game.
    const fn is_exact(&self) -> bool {
        self.depth == EXACT_DEPTH
    }

    /// Whether the bounds serve a node to be searched `depth` plies deep:
    /// exact, or searched at least as deep.
    fn reach(&self, depth: u32) -> bool {
        self.is_exact() || u32::from(self.depth) >= depth
    }

    /// The value these bounds give within the window `(alpha, beta)`
    /// (fail-soft: a lower bound at or above `beta`, an upper bound at or
    /// below `alpha`), when they decide it.
    fn decides(&self, alpha: i32, beta: i32) -> Option<i32> {
        let (lower, upper) = (i32::from(self.lower), i32::from(self.upper));
        if lower >= beta || lower == upper {
            Some(lower)
        } else if upper <= alpha {
            Some(upper)
        } else {
            None
        }
    }
}

/// What a solve found: bounds of the final seed margin for the side to
/// move, equal when the value is proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move, proved so when the value is.
    pub best: Move,
    pub lower: i32,
    pub upper: i32,
    /// Positions searched, and the deepest ply a line reached.
    pub nodes: u64,
    pub depth: u32,
    pub elapsed: Duration,
}

impl Solution {
    /// Whether the value is proved: its bounds met.
    #[must_use]
    pub const fn proved(&self) -> bool {
        self.lower == self.upper
    }
}

/// The solver: a table of `2^bits` slots (16 bytes each), kept from solve
/// to solve under the same rules, and the limits of one solve.
#[derive(Debug)]
pub struct Solver {
    search: AlphaBeta,
    table: Vec<Bounds>,
    table_rules: Option<Rules>,
    /// The sum of the hashes of the positions on the line since seeds last
    /// left the board: the history a node's value depends on.
    history: u64,
    /// The rest of the game depends on the board alone (no end at a number
    /// captured): stores are left out of the key.
    store_free: bool,
    node_limit: u64,
    time_limit: Option<Duration>,
    deadline: Option<Instant>,
    deepest: u32,
    /// No position can recur (Kalah: every move that leaves the stores as
    /// they were moves seeds on along the mover's own row towards the
    /// store), so proofs need no deepening.
    acyclic: bool,
    /// Some line of the last proof stopped at its depth limit.
    depth_cut: bool,
    /// The ply at which [`Solver::value`] stops and estimates (an
    /// iteration of the deepening where no position recurs), `u32::MAX`
    /// for none.
    horizon_ply: u32,
    /// Some line below the node searched stopped at `horizon_ply`: its
    /// bounds are the estimate's, not the value's.
    horizon: bool,
    started: Instant,
    /// Endgame databases, probed where a move leaves a position they hold
    /// with no history to weigh (see [`Solver::probe_kid`]).
    tablebase: Option<Arc<Tablebase>>,
    /// The game's repetition ends at a third occurrence and no position of
    /// the root's history (the root included) has occurred twice: a proof's
    /// line, which never repeats a position, then has a history no
    /// database value can be changed by (see [`Solver::probe_kid`]).
    unrepeated_history: bool,
    /// No repetition rule ends the game (`no-repetition-rule`): no history
    /// changes a database's exact value.
    no_repetition_rule: bool,
    /// The root move that last proved a lower bound.
    root_best: u8,
}

impl Solver {
    /// A solver that gives up after about `nodes` positions (checked every
    /// 256) or `time`, with a table of `2^bits` slots.
    #[must_use]
    pub fn new(nodes: u64, time: Option<Duration>, bits: u32) -> Solver {
        Solver {
            search: AlphaBeta::with_table_bits(Budget::limit(1), 0, 1),
            table: vec![Bounds::default(); 1 << bits.clamp(2, 30)],
            table_rules: None,
            history: 0,
            store_free: true,
            node_limit: nodes,
            time_limit: time,
            deadline: None,
            deepest: 0,
            depth_cut: false,
            horizon_ply: u32::MAX,
            horizon: false,
            acyclic: false,
            tablebase: None,
            unrepeated_history: false,
            no_repetition_rule: false,
            started: Instant::now(),
            root_best: NO_MOVE,
        }
    }

    /// Probes `tablebase` at the leaves: positions it holds are not
    /// searched.
    #[must_use]
    pub fn with_tablebase(mut self, tablebase: Option<Arc<Tablebase>>) -> Solver {
        self.tablebase = tablebase;
        self
    }

    /// Solves `game`: bounds of its value, met when proved, or `None` when
    /// the game is over or no move plays.
    pub fn solve(&mut self, game: &Game) -> Option<Solution> {
        let root = self.start(game)?;
        let board = root.board_seeds() as i32;
        // Where the game's history cannot change the databases' value.
        let known = self.tablebase.as_ref().and_then(|t| t.probe_game(game));
        let (lower, upper) = match known {
            Some(v) => (v, v),
            None => self.narrow(
                board,
                |s, gamma, depth| s.prove(&root, 0, gamma, depth),
                |s, alpha, beta| s.value(&root, 0, alpha, beta),
            ),
        };
        if lower == upper {
            self.root_best = self.move_worth(&root, lower);
        }
        self.finish(&root, lower, upper)
    }

    /// [`Solver::solve`] of the move `mv` in `game`: bounds of its value for
    /// the mover; `None` when it does not play (or the game is over).
    pub fn solve_move(&mut self, game: &Game, mv: Move) -> Option<Solution> {
        let root = self.start(game)?;
        let side = root.to_move();
        let mv = root.canonical_move(mv);
        let base = self.search.kids.len();
        let line = self.enter(&root);
        let lean = root.lean();
        // Where the fast lane holds no direction is due: a move's code is
        // its hole's index, as `AlphaBeta::expand` codes it.
        let (mv, code) = match lean {
            Some(_) => (Move::new(mv.hole), mv.hole.index),
            None => (mv, encode(mv)),
        };
        let played = self.search.push_kid(&root, lean.as_ref(), mv, code);
        let bounds = played.then(|| {
            let kid = self.search.kids[base];
            let board = root.board_seeds() as i32;
            self.narrow(
                board,
                |s, gamma, depth| s.prove_kid(&kid, side, 1, gamma, depth),
                |s, alpha, beta| s.kid_value(&kid, side, 1, alpha, beta),
            )
        });
        self.leave(base, line);
        let (lower, upper) = bounds?;
        self.root_best = code;
        self.finish(&root, lower, upper)
    }

    /// The move the table holds for `game`'s position under its history
    /// (the next move of a principal variation), if any; whether it plays
    /// is the caller's to check.
    #[must_use]
    pub fn table_move(&self, game: &Game) -> Option<Move> {
        let pos = game.position();
        let mut keys: Vec<u128> = game.repetition_history().collect();
        if keys.last() == Some(&pos.repetition_key()) {
            keys.pop();
        }
        let key = self.key_under(pos, history_of(&keys));
        let (_, entry) = self.find(key, 0);
        (entry.key == key).then(|| decode(entry.mv, pos.to_move()))?
    }

    /// Readies a solve of `game`: limits, the table (cleared when the rules
    /// change), and the line the game's repetition history starts.
    fn start(&mut self, game: &Game) -> Option<Position> {
        if game.outcome().is_some() {
            return None;
        }
        let root = *game.position();
        let rules = root.rules();
        let start = Instant::now();
        self.started = start;
        self.search.begin(&root);
        self.search.node_stop = self.node_limit;
        self.deadline = self.time_limit.map(|t| start + t);
        self.search.deadline = self.deadline;
        if self.table_rules != Some(rules) {
            self.table.fill(Bounds::default());
            self.table_rules = Some(rules);
        }
        self.store_free = !self.search.goal;
        self.acyclic = rules.never_repeats();
        self.horizon_ply = u32::MAX;
        self.horizon = false;
        let mut keys: Vec<u128> = game.repetition_history().collect();
        if keys.last() == Some(&root.repetition_key()) {
            keys.pop();
        }
        self.history = history_of(&keys);
        self.no_repetition_rule = rules.has(mancala_rules::Opt::NoRepetitionRule);
        // For the lines below the root, the root is history too.
        let line_history = keys.iter().copied().chain([root.repetition_key()]);
        self.unrepeated_history = mancala_tablebase::exact_values_hold(rules, line_history);
        self.search.path = keys;
        self.search.path_start = 0;
        self.search.kids.clear();
        self.search.lean = None;
        self.deepest = 0;
        self.root_best = NO_MOVE;
        Some(root)
    }

    /// Narrows the bounds `-board ..= board` of a value in seeds still to
    /// be won until they meet or a limit stops the solve. Each step asks
    /// whether the value is at least the middle of the bounds, first of
    /// `prove` (an answer that holds under any history), and where a cycle
    /// leaves that open, of `search`: a fail-soft null-window search under
    /// the line's own history.
    fn narrow(
        &mut self,
        board: i32,
        mut prove: impl FnMut(&mut Self, i32, u32) -> Proof,
        mut search: impl FnMut(&mut Self, i32, i32) -> i32,
    ) -> (i32, i32) {
        let (mut lower, mut upper) = (-board, board);
        if self.acyclic {
            return self.mtd(lower, upper, search);
        }
        while lower < upper {
            let gamma = (lower + upper + 1).div_euclid(2);
            // Deepening: short proofs are found first, and every answer a
            // shallower proof gives is kept for the deeper ones.
            let mut depth = if self.acyclic {
                MAX_PLY
            } else {
                FIRST_PROOF_DEPTH
            };
            let proof = loop {
                self.depth_cut = false;
                let proof = prove(self, gamma, depth);
                if proof != Proof::Open || !self.depth_cut || depth >= MAX_PLY {
                    break proof;
                }
                depth = (depth * 2).min(MAX_PLY);
            };
            if self.search.stopped {
                break;
            }
            match proof {
                Proof::Yes => lower = gamma,
                Proof::No => upper = gamma - 1,
                Proof::Open => {
                    let g = search(self, gamma - 1, gamma);
                    if self.search.stopped {
                        break;
                    }
                    if g >= gamma {
                        lower = g.min(upper);
                    } else {
                        upper = g.max(lower);
                    }
                }
            }
        }
        (lower, upper)
    }

    /// Iterative-deepening MTD(f) where no position recurs (Irving,
    /// Donkers and Uiterwijk's solver of Kalah): MTD(f) to a horizon
    /// [`DEEPENING`] plies deeper each time, the seeds still on the board
    /// estimated as shared evenly there, each iteration starting from the
    /// last one's value and leaving the table its best moves; then without
    /// a horizon. An iteration whose lines all ended before the horizon
    /// has proved the value.
    fn mtd(
        &mut self,
        lower: i32,
        upper: i32,
        mut search: impl FnMut(&mut Self, i32, i32) -> i32,
    ) -> (i32, i32) {
        let mut guess = 0;
        let mut horizon = DEEPENING;
        loop {
            self.horizon_ply = if horizon > LAST_HORIZON {
                u32::MAX
            } else {
                horizon
            };
            let (bounds, value, cut) = self.mtd_to_horizon(lower, upper, guess, &mut search);
            let exact = !cut || self.horizon_ply == u32::MAX;
            if exact || self.search.stopped {
                self.horizon_ply = u32::MAX;
                // Bounds to a horizon are estimates: a solve stopped there
                // has proved nothing.
                return if exact { bounds } else { (lower, upper) };
            }
            guess = value;
            horizon += DEEPENING;
        }
    }

    /// One MTD(f) iteration: fail-soft null-window searches narrow the
    /// bounds `lower ..= upper` from `guess`, each from the last one's
    /// result, until they meet or a limit stops the solve. The bounds, the
    /// last result, and whether some line stopped at the horizon.
    fn mtd_to_horizon(
        &mut self,
        mut lower: i32,
        mut upper: i32,
        mut guess: i32,
        search: &mut impl FnMut(&mut Self, i32, i32) -> i32,
    ) -> ((i32, i32), i32, bool) {
        let mut cut = false;
        while lower < upper {
            let beta = guess.clamp(lower + 1, upper);
            self.horizon = false;
            let g = search(self, beta - 1, beta);
            cut |= self.horizon;
            if self.search.stopped {
                break;
            }
            if g < beta {
                upper = g.max(lower);
            } else {
                lower = g.min(upper);
            }
            guess = g;
        }
        ((lower, upper), guess, cut)
    }

    /// The first move of `root` (the table's first) whose value, in seeds
    /// still to be won, is at least `value`: the best move once `value` is
    /// proved (its test mostly answered by the table).
    fn move_worth(&mut self, root: &Position, value: i32) -> u8 {
        let side = root.to_move();
        let key = self.key(root);
        let (_, entry) = self.find(key, 0);
        let first = if entry.key == key { entry.mv } else { NO_MOVE };
        let base = self.search.kids.len();
        let line = self.enter(root);
        let lean = root.lean();
        let order = self.search.expand(root, lean.as_ref(), NO_MOVE);
        let mut kids: Vec<usize> = order.indices().collect();
        kids.sort_by_key(|&i| self.search.kids[i].mv != first);
        let mut best = NO_MOVE;
        // Proofs that hold under any history first, then searches under
        // the root's own where a cycle leaves one open.
        let mut open = Vec::new();
        for &i in &kids {
            let kid = self.search.kids[i];
            match self.prove_kid(&kid, side, 1, value, MAX_PLY) {
                Proof::Yes => {
                    best = kid.mv;
                    break;
                }
                Proof::Open => open.push(i),
                Proof::No => {}
            }
        }
        for i in open.into_iter().filter(|_| best == NO_MOVE) {
            let kid = self.search.kids[i];
            if self.kid_value(&kid, side, 1, value - 1, value) >= value || self.search.stopped {
                best = kid.mv;
                break;
            }
        }
        self.leave(base, line);
        best
    }

    /// The solution from bounds of the root's value in seeds still to be
    /// won.
    fn finish(&mut self, root: &Position, lower: i32, upper: i32) -> Option<Solution> {
        let side = root.to_move();
        let stores = i32::from(root.store(side)) - i32::from(root.store(side.opposite()));
        let best = match decode(self.root_best, side) {
            Some(mv) => mv,
            None => {
                let lean = root.lean();
                let base = self.search.kids.len();
                let order = self.search.expand(root, lean.as_ref(), NO_MOVE);
                let first = order.indices().next().map(|i| self.search.kids[i].mv);
                self.search.kids.truncate(base);
                decode(first?, side)?
            }
        };
        Some(Solution {
            best,
            lower: stores + lower,
            upper: stores + upper,
            nodes: self.search.nodes,
            depth: self.deepest,
            elapsed: self.started.elapsed(),
        })
    }

    /// The table key of `pos` under the current history.
    fn key(&self, pos: &Position) -> u64 {
        // Where no position recurs, no history changes a value.
        let history = if self.acyclic {
            ANY_HISTORY
        } else {
            self.history
        };
        self.key_under(pos, history)
    }

    /// The table key of `pos` under the history `history` (see
    /// [`Solver::history`]).
    fn key_under(&self, pos: &Position, history: u64) -> u64 {
        let stores = if self.store_free {
            [0, 0]
        } else {
            pos.stores()
        };
        hash_with_stores(pos, stores) ^ mix(history)
    }

    /// Enhanced transposition cutoff, where no position recurs: the value
    /// and move of a kid (of those from `base` on, made by `side`) that the
    /// table, the databases or the end of the game already show to be
    /// worth at least `beta`, the node searched `depth` plies deep.
    fn transposition_cut(
        &mut self,
        base: usize,
        side: Side,
        depth: u32,
        beta: i32,
    ) -> Option<(i32, u8)> {
        for at in base..self.search.kids.len() {
            let kid = self.search.kids[at];
            let gain = i32::from(kid.gain);
            if kid.next == Next::Ended {
                let v = gain + rows_margin(&kid.pos, side);
                if v >= beta {
                    return Some((v, kid.mv));
                }
                continue;
            }
            if let Some(v) = self.probe_kid(&kid, side, false) {
                if v >= beta {
                    return Some((v, kid.mv));
                }
                continue;
            }
            let key = self.key(&kid.pos);
            let (_, entry) = self.find(key, 0);
            let exact = entry.is_exact();
            if entry.key != key || !entry.reach(depth.saturating_sub(1)) {
                continue;
            }
            let v = if kid.pos.to_move() == side {
                gain + i32::from(entry.lower)
            } else {
                gain - i32::from(entry.upper)
            };
            if v >= beta {
                self.horizon |= !exact;
                return Some((v, kid.mv));
            }
        }
        None
    }

    /// The slot of `key` in the table and its entry: of the two slots of
    /// its bucket, the one that holds `key`, else the one to replace, its
    /// entry then another position's. The first slot keeps the position
    /// with the most seeds on the board (`board`, the biggest search to
    /// redo), the second the latest.
    fn find(&self, key: u64, board: u32) -> (usize, Bounds) {
        let first = key as usize & (self.table.len() - 2);
        let (a, b) = (self.table[first], self.table[first + 1]);
        if a.key == key {
            (first, a)
        } else if b.key == key || u32::from(a.seeds) > board {
            (first + 1, b)
        } else {
            (first, a)
        }
    }

    /// Puts `pos` on the line (the node about to make its kids); the line's
    /// length before.
    fn enter(&mut self, pos: &Position) -> usize {
        let key = pos.repetition_key();
        self.history = self.history.wrapping_add(key_hash(key));
        self.search.enter_line(pos)
    }

    /// Takes a node's kids from `base` on, and its position (at `line`),
    /// off again.
    fn leave(&mut self, base: usize, line: usize) {
        let key = self.search.path[line];
        self.history = self.history.wrapping_sub(key_hash(key));
        self.search.leave(base, line);
    }

    /// A move's value for `side`, its mover, in seeds still to be won from
    /// the parent (the kid's gain counts), with the window `(alpha, beta)`.
    fn kid_value(&mut self, kid: &Kid, side: Side, ply: u32, alpha: i32, beta: i32) -> i32 {
        let gain = i32::from(kid.gain);
        if kid.next == Next::Ended {
            self.search.nodes += 1;
            return gain + rows_margin(&kid.pos, side);
        }
        if let Some(v) = self.probe_kid(kid, side, false) {
            return v;
        }
        let (start, history) = (self.search.path_start, self.history);
        if kid.next == Next::Irreversible {
            self.search.path_start = self.search.path.len();
            self.history = 0;
        }
        let v = if kid.pos.to_move() == side {
            gain + self.value(&kid.pos, ply, alpha - gain, beta - gain)
        } else {
            gain - self.value(&kid.pos, ply, gain - beta, gain - alpha)
        };
        self.search.path_start = start;
        self.history = history;
        v
    }

    /// The value a proof stored for `pos` under any history, where its
    /// bounds decide the window `(alpha, beta)`.
    fn proved_value(&self, pos: &Position, alpha: i32, beta: i32) -> Option<i32> {
        let any = self.key_under(pos, ANY_HISTORY);
        let (_, proved) = self.find(any, 0);
        if proved.key != any || !proved.is_exact() {
            return None;
        }
        proved.decides(alpha, beta)
    }

    /// The value of `pos` for its side to move in seeds still to be won,
    /// fail-soft within the window `(alpha, beta)`: a result at or below
    /// `alpha` is an upper bound, at or above `beta` a lower bound.
    fn value(&mut self, pos: &Position, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.tick(ply) {
            return 0;
        }
        let board = pos.board_seeds() as i32;
        if board <= alpha || -board >= beta {
            return if board <= alpha { board } else { -board };
        }
        // Plies the node is searched to (the table's depth of it).
        let depth = self.horizon_ply.saturating_sub(ply);
        if depth == 0 {
            // The horizon of an iteration of the deepening: an estimate.
            self.horizon = true;
            return 0;
        }
        // What a proof found holds under this history too (where no
        // position recurs, the key below is already that of any history).
        if !self.acyclic
            && let Some(v) = self.proved_value(pos, alpha, beta)
        {
            return v;
        }
        let key = self.key(pos);
        let (slot, entry) = self.find(key, board as u32);
        let mut table_move = NO_MOVE;
        if entry.key == key {
            if entry.reach(depth)
                && let Some(v) = entry.decides(alpha, beta)
            {
                self.horizon |= !entry.is_exact();
                return v;
            }
            table_move = entry.mv;
        }
        let side = pos.to_move();
        let alpha0 = alpha;
        // Whether a line below this node meets the horizon, apart from
        // the lines above it.
        let horizon_above = std::mem::replace(&mut self.horizon, false);
        let base = self.search.kids.len();
        let line = self.enter(pos);
        let lean = pos.lean();
        let mut kids = self.kid_order(pos, lean.as_ref(), table_move);
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        if self.acyclic && board >= ETC_SEEDS {
            kids.expand(&mut self.search, pos, lean.as_ref());
            if let Some((v, mv)) = self.transposition_cut(base, side, depth, beta) {
                (best, best_move, alpha) = (v, mv, v);
            }
        }
        while alpha < beta
            && let Some(at) = kids.next_at(&mut self.search, pos, lean.as_ref())
        {
            let kid = self.search.kids[at];
            let v = self.kid_value(&kid, side, ply + 1, alpha, beta);
            if self.search.stopped {
                self.leave(base, line);
                return 0;
            }
            if v > best {
                (best, best_move) = (v, kid.mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.leave(base, line);
        if best_move == NO_MOVE {
            // Cannot move: the game, or round, ends.
            best = rows_margin(pos, side);
        }
        let depth = if self.horizon {
            depth.min(u32::from(EXACT_DEPTH) - 1) as u8
        } else {
            EXACT_DEPTH
        };
        self.horizon |= horizon_above;
        self.store(
            slot,
            key,
            entry,
            best,
            best_move,
            (alpha0, beta),
            depth,
            board as u32,
        );
        if ply == 0 && best >= beta {
            self.root_best = best_move;
        }
        best
    }

    /// Whether the value of `pos` for its side to move, in seeds still to
    /// be won, is at least `gamma` under any history: [`Proof::Open`]
    /// where the answer rests on a line that returns to a position of the
    /// line (since seeds last left the board), whose value the repetition
    /// rule makes depend on the history, or one longer than `depth` plies.
    /// Yes and no are kept in the table
    /// under the position alone.
    fn prove(&mut self, pos: &Position, ply: u32, gamma: i32, depth: u32) -> Proof {
        if self.tick(ply) {
            return Proof::Open;
        }
        let board = pos.board_seeds() as i32;
        if -board >= gamma || board < gamma {
            return Proof::of(-board >= gamma);
        }
        let key = self.key_under(pos, ANY_HISTORY);
        let (slot, entry) = self.find(key, board as u32);
        let mut table_move = NO_MOVE;
        if entry.key == key {
            if entry.is_exact()
                && (i32::from(entry.lower) >= gamma || i32::from(entry.upper) < gamma)
            {
                return Proof::of(i32::from(entry.lower) >= gamma);
            }
            table_move = entry.mv;
        }
        if depth == 0 {
            self.depth_cut = true;
            return Proof::Open;
        }
        let side = pos.to_move();
        let base = self.search.kids.len();
        let line = self.enter(pos);
        let lean = pos.lean();
        let mut kids = self.kid_order(pos, lean.as_ref(), table_move);
        let (mut proof, mut best_move) = (Proof::No, NO_MOVE);
        while let Some(at) = kids.next_at(&mut self.search, pos, lean.as_ref()) {
            let kid = self.search.kids[at];
            let kid_proof = self.prove_kid(&kid, side, ply + 1, gamma, depth - 1);
            if self.search.stopped {
                self.leave(base, line);
                return Proof::Open;
            }
            if kid_proof != Proof::No {
                (proof, best_move) = (kid_proof, kid.mv);
            }
            if proof == Proof::Yes {
                break;
            }
        }
        self.leave(base, line);
        if kids.next == 0 {
            // Cannot move: the game, or round, ends.
            proof = Proof::of(rows_margin(pos, side) >= gamma);
        }
        let bound = match proof {
            Proof::Yes => gamma,
            Proof::No => gamma - 1,
            Proof::Open => return proof,
        };
        self.store(
            slot,
            key,
            entry,
            bound,
            best_move,
            (gamma - 1, gamma),
            EXACT_DEPTH,
            board as u32,
        );
        proof
    }

    /// [`Solver::prove`] of a move of `side`'s: whether its value from the
    /// parent, the kid's gain counted, is at least `gamma`.
    fn prove_kid(&mut self, kid: &Kid, side: Side, ply: u32, gamma: i32, depth: u32) -> Proof {
        let gain = i32::from(kid.gain);
        // A position of the line again: its value, or the end the rules
        // make of it (Oware's first repeat), rests on the history.
        if kid.next != Next::Irreversible {
            let path = &self.search.path[self.search.path_start..];
            if repeats(path, kid.pos.repetition_key(), 1, self.search.alternates) {
                return Proof::Open;
            }
        }
        if kid.next == Next::Ended {
            self.search.nodes += 1;
            return Proof::of(gain + rows_margin(&kid.pos, side) >= gamma);
        }
        if let Some(v) = self.probe_kid(kid, side, true) {
            return Proof::of(v >= gamma);
        }
        let start = self.search.path_start;
        if kid.next == Next::Irreversible {
            self.search.path_start = self.search.path.len();
        }
        let proof = if kid.pos.to_move() == side {
            self.prove(&kid.pos, ply, gamma - gain, depth)
        } else {
            self.prove(&kid.pos, ply, gain - gamma + 1, depth).not()
        };
        self.search.path_start = start;
        proof
    }

    /// The value of `kid`, a move of `side`'s, from the parent (its gain
    /// counted) where the databases hold it and no history can change it
    /// (spec/tablebase.md, "Games in progress"): after a move that took
    /// seeds off the board (which clears the history), anywhere in a game
    /// without cycles or without a repetition rule, and `in_proof` (a
    /// line of [`Solver::prove`], which never repeats a position) under
    /// the third-occurrence rule where the line's history since seeds last
    /// left the board has no position twice either.
    fn probe_kid(&self, kid: &Kid, side: Side, in_proof: bool) -> Option<i32> {
        let tablebase = self.tablebase.as_ref()?;
        if kid.next == Next::Ended {
            return None;
        }
        let unrepeated = in_proof && (self.unrepeated_history || self.search.path_start > 0);
        let fresh = kid.next == Next::Irreversible
            || self.acyclic
            || self.no_repetition_rule
            || (unrepeated && !kid.pos.rules().repetition_ends_at_second());
        // Most kids of a search from the start hold more seeds than the
        // databases: those are not worth ranking.
        if !fresh || kid.pos.board_seeds() > tablebase.max_seeds() {
            return None;
        }
        let v = tablebase.probe(&kid.pos)?;
        let gain = i32::from(kid.gain);
        Some(if kid.pos.to_move() == side {
            gain + v
        } else {
            gain - v
        })
    }

    /// The order a node's kids are tried in, starting with the table's move.
    fn kid_order(&mut self, pos: &Position, lean: Option<&Lean>, table_move: u8) -> KidOrder {
        let base = self.search.kids.len();
        let first = self.push_table_move(pos, lean, table_move);
        KidOrder {
            base,
            first,
            skip: if first { table_move } else { NO_MOVE },
            order: None,
            next: 0,
        }
    }

    /// Pushes the table's move of `pos` (coded `code`) as its first kid
    /// when it is a candidate and plays; whether it did.
    fn push_table_move(&mut self, pos: &Position, lean: Option<&Lean>, code: u8) -> bool {
        decode(code, pos.to_move()).is_some_and(|mv| {
            let candidate = match lean {
                Some(_) => mv.dir.is_none(),
                None => pos.candidates().contains(mv),
            };
            candidate && self.search.push_kid(pos, lean, mv, code)
        })
    }

    /// Counts a node and checks the limits (every 256 nodes) and the
    /// line's length: whether the solve is to stop.
    fn tick(&mut self, ply: u32) -> bool {
        let search = &mut self.search;
        search.nodes += 1;
        self.deepest = self.deepest.max(ply);
        if ply >= MAX_PLY
            || (search.nodes & 255 == 0
                && (search.nodes >= search.node_stop
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            search.stopped = true;
        }
        search.stopped
    }

    /// Stores what a search of a node `depth` plies deep with the window
    /// `(alpha, beta)` found: `best`, a bound or the value, merged with the
    /// slot's entry when it is the same node's to the same depth. Bounds to
    /// a horizon never replace exact ones. A move that only failed low
    /// keeps the entry's move (the one that last proved a lower bound,
    /// which orders best).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        slot: usize,
        key: u64,
        old: Bounds,
        best: i32,
        mv: u8,
        (alpha, beta): (i32, i32),
        depth: u8,
        seeds: u32,
    ) {
        let seeds = seeds.min(255) as u8;
        let node = old.key == key;
        if node && old.is_exact() && depth != EXACT_DEPTH {
            return;
        }
        let same = node && old.depth == depth;
        let mut entry = if same {
            old
        } else {
            Bounds {
                key,
                lower: i16::MIN,
                upper: i16::MAX,
                mv: if node { old.mv } else { NO_MOVE },
                depth,
                seeds,
            }
        };
        let best16 = best.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        if best > alpha {
            entry.lower = entry.lower.max(best16);
            entry.mv = mv;
        }
        if best < beta {
            entry.upper = entry.upper.min(best16);
            if entry.mv == NO_MOVE {
                entry.mv = mv;
            }
        }
        self.table[slot] = entry;
    }
}

/// What a null-window proof found: the value is at least the threshold
/// (under any history), it is not, or it is left open by a cycle (a line
/// that returns to a position of its own) or the depth limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Yes,
    No,
    Open,
}

impl Proof {
    const fn of(yes: bool) -> Proof {
        if yes { Proof::Yes } else { Proof::No }
    }

    /// The answer for the other side, asked the complementary question.
    const fn not(self) -> Proof {
        match self {
            Proof::Yes => Proof::No,
            Proof::No => Proof::Yes,
            Proof::Open => Proof::Open,
        }
    }
}

/// The depth of an entry whose bounds are the value's own (no line below
/// stopped at a horizon).
const EXACT_DEPTH: u8 = u8::MAX;

/// Plies each iteration of the deepening where no position recurs goes
/// deeper than the last, and the deepest horizon before the search
/// without one. Kalah from the start, nodes with the last horizon at 20,
/// 24 and 32 plies: (6,3) 3.96 M, 4.50 M, 4.52 M; (5,4) 4.54 M, 5.50 M,
/// 8.69 M; (6,4) empty-capture with databases to 18 seeds 22.1 M, 23.6 M,
/// 27.1 M (16: 22.2 M; 40: 27.3 M).
const DEEPENING: u32 = 4;
const LAST_HORIZON: u32 = 20;

/// Seeds on the board from which a node looks for an enhanced
/// transposition cutoff before it searches: below, the kids' subtrees are
/// too small to be worth the table lookups (Kalah(5,4) from the start:
/// 8.52 M nodes without, 8.47 M from 20 seeds, 7.79 M from 12 but slower).
const ETC_SEEDS: i32 = 20;

/// The depth of a proof's first iteration (doubled until the proof is
/// found, or only cycles leave it open).
const FIRST_PROOF_DEPTH: u32 = 8;

/// The history under which [`Solver::prove`] keeps its answers, which hold
/// under every history: a value no sum of hashes is likely to take.
const ANY_HISTORY: u64 = 0x6a09_e667_f3bc_c908;

/// The hash a position adds to a line's history.
fn key_hash(key: u128) -> u64 {
    mix(mix(key as u64 ^ 0x2545_f491_4f6c_dd1d) ^ (key >> 64) as u64)
}

/// The history of a line of positions (repetition keys): the sum of
/// their hashes, whatever their order.
fn history_of(keys: &[u128]) -> u64 {
    keys.iter().fold(0, |h, &k| h.wrapping_add(key_hash(k)))
}

/// The margin of the seeds in the rows for `side`: what the end of the
/// game, or round, in `pos` adds to the stores' margin (the rows are swept
/// to their owners).
fn rows_margin(pos: &Position, side: Side) -> i32 {
    let h = pos.holdings();
    let s = pos.stores();
    let (me, them) = (side.index(), side.opposite().index());
    (h[me] as i32 - i32::from(s[me])) - (h[them] as i32 - i32::from(s[them]))
}

/// A node's kids in the order they are tried: the table's move alone first,
/// the rest made (and ordered) only when it does not cut off.
struct KidOrder {
    base: usize,
    first: bool,
    skip: u8,
    order: Option<Order>,
    next: usize,
}

impl KidOrder {
    /// Makes every kid now (they are otherwise made when the table's move
    /// has not cut off).
    fn expand(&mut self, search: &mut AlphaBeta, pos: &Position, lean: Option<&Lean>) {
        let skip = self.skip;
        self.order.get_or_insert_with(|| {
            let order = search.expand(pos, lean, skip);
            extra_turns_first(order, &search.kids, pos.to_move())
        });
    }

    /// The index in `search.kids` of the next kid to try, or `None` when all
    /// were tried.
    fn next_at(
        &mut self,
        search: &mut AlphaBeta,
        pos: &Position,
        lean: Option<&Lean>,
    ) -> Option<usize> {
        let at = if self.first && self.next == 0 {
            self.base
        } else {
            self.expand(search, pos, lean);
            let order = self.order?;
            order.indices().nth(self.next - usize::from(self.first))?
        };
        self.next += 1;
        Some(at)
    }
}

/// `order` (a node's kids by gain) with the moves that earn another turn
/// first, the one nearest the store first (it leaves the others' counts as
/// they were, so they still reach the store), then the rest by gain, and
/// between equal gains the one nearest the store first: in Kalah a move
/// into the store costs the opponent nothing to answer, and the solvers of
/// the game try those first. Kalah from the start, nodes to prove: by gain
/// alone (6,3) not in 32 M, (5,4) not in 20 M; extra turns first 9.0 M and
/// 8.5 M (farthest from the store first: neither in 21 M); and equal gains
/// nearest the store first 4.5 M and 8.7 M.
fn extra_turns_first(order: Order, kids: &[Kid], side: Side) -> Order {
    let mut sorted = Order {
        base: order.base,
        ..Order::default()
    };
    for kid in &kids[order.base..order.base + usize::from(order.len)] {
        let again = kid.next != Next::Ended && kid.pos.to_move() == side;
        // A hole's index grows towards its owner's store (below 16).
        let hole = i16::from(kid.mv & 0x0f);
        sorted.push(if again {
            EXTRA_TURN_RANK + hole
        } else {
            kid.gain * 16 + hole
        });
    }
    sorted
}

/// Above any other move's rank (a move wins at most every seed of the
/// game, 140, and gains rank 16 apart).
const EXTRA_TURN_RANK: i16 = 16 * 256;

#[cfg(test)]
mod tests {
    use fastrand::Rng;
    use mancala_rules::{EndReason, GameId, Options};

    use super::*;
    use crate::{children, play_random};

    /// The exact value of `game` for its side to move by plain minimax over
    /// every legal move, played by the rules' own [`Game`] (its whole
    /// repetition history): no table, no window, no margin bounds. `None`
    /// past `budget` nodes. `cycled` is set when a line ended by
    /// repetition.
    fn minimax(game: &Game, budget: &mut u64, cycled: &mut bool) -> Option<i32> {
        *budget = budget.checked_sub(1)?;
        let side = game.position().to_move();
        let mut best = None;
        for child in children(game) {
            let v = if let Some(outcome) = child.game.outcome() {
                *cycled |= outcome.reason == EndReason::Repetition;
                let s = outcome.score;
                s[side.index()] as i32 - s[side.opposite().index()] as i32
            } else {
                let v = minimax(&child.game, budget, cycled)?;
                if child.game.position().to_move() == side {
                    v
                } else {
                    -v
                }
            };
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        best
    }

    /// A game played at random until at most `seeds` seeds are on the
    /// board, still going on.
    fn endgame(rules: Rules, seed: u64, seeds: u32) -> Option<Game> {
        let mut rng = Rng::with_seed(seed);
        let (mut game, _) = Game::new(Position::new(rules)).ok()?;
        while game.position().board_seeds() > seeds {
            play_random(&mut game, &mut rng)?;
            if game.outcome().is_some() {
                return None;
            }
        }
        Some(game)
    }

    fn rules(id: GameId, options: &str) -> Rules {
        Rules::new(id, options.parse::<Options>().unwrap()).unwrap()
    }

    /// Endgames of `rules` with at most `seeds` on the board that plain
    /// minimax settles: the solver proves the value minimax finds, and the
    /// move it names is worth that value. How many were compared, and how
    /// many of them had a line ended by repetition.
    fn agrees_with_minimax(
        rules: Rules,
        seeds: u32,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> (u32, u32) {
        let (mut agreed, mut cycling) = (0, 0);
        for seed in 0..40 {
            let Some(game) = endgame(rules, seed, seeds) else {
                continue;
            };
            let (mut budget, mut cycled) = (200_000, false);
            let Some(expected) = minimax(&game, &mut budget, &mut cycled) else {
                continue;
            };
            let mut solver = Solver::new(u64::MAX, None, 16).with_tablebase(tablebase.cloned());
            let solution = solver.solve(&game).unwrap();
            assert!(solution.proved(), "{rules:?} seed {seed}: {solution:?}");
            assert_eq!(solution.lower, expected, "{rules:?} seed {seed}");
            let played = solver.solve_move(&game, solution.best).unwrap();
            assert_eq!((played.lower, played.upper), (expected, expected));
            agreed += 1;
            cycling += u32::from(cycled);
        }
        (agreed, cycling)
    }

    #[test]
    fn proved_values_are_plain_minimax_values() {
        for (id, options, seeds, least) in [
            (GameId::Kalah, "holes=4 seeds=3", 10, 10),
            (GameId::Kalah, "", 9, 10),
            (GameId::Olowuka, "", 3, 3),
            (GameId::Olowuka, "play-to-end endless-ends-game", 3, 3),
        ] {
            let (agreed, _) = agrees_with_minimax(rules(id, options), seeds, None);
            assert!(
                agreed >= least,
                "{id:?} {options}: {agreed} positions compared"
            );
        }
    }

    #[test]
    fn a_cycling_relay_endgame_is_proved_as_minimax_finds_it() {
        let (agreed, cycling) = agrees_with_minimax(rules(GameId::OlindaKeliya, ""), 5, None);
        assert!(
            agreed >= 10 && cycling >= 3,
            "{agreed} compared, {cycling} cycling"
        );
    }

    #[test]
    fn values_from_the_databases_are_the_values_searched() {
        let dir = std::env::temp_dir().join(format!("mancala-solve-{}", std::process::id()));
        for (id, options, seeds, least) in [
            (GameId::Kalah, "holes=4 seeds=3", 10, 10),
            (GameId::OlindaKeliya, "", 5, 10),
        ] {
            let rules = rules(id, options);
            let built = Tablebase::build(&dir, rules, 4, 1, &mut |_| {}).unwrap();
            let (agreed, _) = agrees_with_minimax(rules, seeds, Some(&Arc::new(built)));
            assert!(
                agreed >= least,
                "{id:?} {options}: {agreed} positions compared"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
