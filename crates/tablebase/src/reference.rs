//! A second, independent solver of the database's values, exact and by the
//! convention alike, for checking a database entry by entry. It shares
//! nothing with the build but the rules crate and [`Entry`]'s encoding of
//! a value and its flag: no layout, no index, no retrograde counting. It
//! plays each position's moves with the rules' [`Game`] (its ends of the
//! game or round, as [`search_margin`](crate::search_margin) reads them),
//! keeps the positions it meets by [`Position`] in a hash map, and solves
//! the graph of one position's layer by plain iteration to a fixpoint.
//!
//! # What it computes, and why that is the convention
//!
//! Seeds only leave the board, so from a position `p` the positions with
//! as many seeds on the board that play can reach (its *component*) form a
//! finite graph; a move that takes seeds off the board, or ends the game or
//! round, is an *exit* whose value is known before the component is
//! solved (the position after it is met afresh: the repetition history
//! restarts there, so its value is the one this solver gives it, without
//! history). Per position it finds four numbers, each a least fixpoint
//! reached by iterating from "nothing forced":
//!
//! - `lo`: the most the mover forces in finitely many moves, counting only
//!   exits whose value is exact; `hi`: the least the opponent holds the
//!   mover to, the same way. An unending play counts against the side
//!   forcing, so no repetition rule can change what is forced. The entry
//!   is exact when `lo == hi` (bounds taken within the seeds on the board).
//! - `lo'`, `hi'`: the same with every exit's value counted, exact or not.
//!   An entry that is not exact has the value `0` clamped into
//!   `[lo', hi']`.
//!
//! That value is the value of the *first-cycle game*: play from `p` as a
//! fresh game, where a move back to a position already on the line since
//! seeds last left the board ends the game with 0 for the seeds on the
//! board. Take a threshold `s ≥ 1` and an exit's value as fixed (the
//! history restarts there). Whether the first-cycle game's value is at
//! least `s` is then a reachability game on the component: the mover wins
//! by reaching an exit worth at least `s`, and a closed cycle (0) or any
//! other exit loses. Reachability games are determined with positional
//! strategies. If the mover wins (`lo' ≥ s`), its attractor strategy
//! lowers the rank (moves left to the target) at every move, so no
//! position recurs before the target: it wins the first-cycle game too. If
//! not, the opponent has a positional strategy that never lets the play
//! into the target: along it the play closes a cycle (0) or leaves by an
//! exit worth less than `s`, so the first-cycle game's value is below `s`.
//! The same holds for the opponent and `-s`. When neither side can force
//! `1`, each holds the other to at least 0 (a closed cycle scores 0), so
//! the value is 0: it is the largest `s ≥ 1` the mover forces, else `-s`
//! for the largest the opponent forces, else 0, which is `0` clamped into
//! `[lo', hi']`.

use std::collections::HashMap;

use mancala_rules::{EndReason, Game, PlayReport, Position};

use crate::Entry;
use crate::search::ended_margin;

/// Beyond any margin: "nothing forced" for `lo` (and, negated, `hi`).
const NONE: i32 = 1_000;

/// A position's four bounds: `[lo, hi, lo', hi']` (see the module's
/// documentation), `[-NONE, NONE, -NONE, NONE]` when nothing is forced.
type Bounds = [i32; 4];

/// Nothing forced by either side.
const OPEN: Bounds = [-NONE, NONE, -NONE, NONE];

/// A position solved: its bounds, or `None` when its moves could not all
/// be decided within the lap budget (no value, as the database has none).
type Solved = Option<Bounds>;

/// Where a move of a component's position leads.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// The game (or round) ended, or seeds left the board: the move's
    /// value for the mover and whether it is exact; `None`, no value.
    Exit(Option<(i32, bool)>),
    /// Within the component: the position's number, and whether the mover
    /// moves again.
    Inner { to: usize, same: bool },
}

/// One position of a component being solved.
#[derive(Debug)]
enum Node {
    /// Solved before (an earlier component reached it): fixed bounds.
    Fixed(Solved),
    /// Its moves could not all be decided: never forced by anyone.
    Unknown,
    /// Its moves.
    Moves(Vec<Edge>),
}

/// Positions the reference keeps at most: past this many it forgets them
/// all before its next question. A kept position takes 80 bytes, and the
/// map up to twice the room, so at most about 340 MB a solver (a checking
/// thread has its own), where keeping every one grew by about a kilobyte
/// for each Oware entry checked. What is forgotten is solved again when
/// met again.
const KEEP_AT_MOST: usize = 1 << 21;

/// The reference solver: positions solved so far, kept for the next
/// questions (a component is solved whole, so checking many positions of
/// one layer explores it once), up to [`KEEP_AT_MOST`].
#[derive(Debug)]
pub struct Reference {
    solved: HashMap<Position, Solved>,
    keep_at_most: usize,
}

impl Default for Reference {
    fn default() -> Reference {
        Reference::keeping(KEEP_AT_MOST)
    }
}

impl Reference {
    #[must_use]
    pub fn new() -> Reference {
        Reference::default()
    }

    /// A reference that forgets every position it has solved once it
    /// keeps more than `at_most` (before its next question).
    #[must_use]
    pub fn keeping(at_most: usize) -> Reference {
        Reference {
            solved: HashMap::new(),
            keep_at_most: at_most,
        }
    }

    /// Positions solved and kept so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.solved.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.solved.is_empty()
    }

    /// The entry the database should hold for `pos` met afresh (a game's
    /// start, or right after seeds left the board): the value and whether
    /// it is exact, or [`Entry::UNKNOWN`].
    pub fn entry(&mut self, pos: &Position) -> Entry {
        if self.solved.len() > self.keep_at_most {
            self.solved = HashMap::new();
        }
        let mut game = Game::start(*pos);
        let Ok(report) = game.settle() else {
            return Entry::UNKNOWN;
        };
        if let Some(v) = ended_margin(pos, &report) {
            return Entry::exact(v);
        }
        let solved = self.solve(pos);
        entry_of(pos, solved)
    }

    /// The bounds of `pos` (a game going on), its component solved first
    /// if it is new.
    fn solve(&mut self, pos: &Position) -> Solved {
        if let Some(&solved) = self.solved.get(pos) {
            return solved;
        }
        let (positions, nodes) = self.explore(pos);
        let bounds = fixpoint(&nodes);
        for (p, (node, b)) in positions.iter().zip(nodes.iter().zip(bounds)) {
            let solved = match node {
                Node::Fixed(_) => continue,
                Node::Unknown => None,
                Node::Moves(_) => Some(b),
            };
            self.solved.insert(*p, solved);
        }
        self.solved.get(pos).copied().flatten()
    }

    /// The component of `pos`: its positions and their moves, exits
    /// valued (their own components solved first), positions solved
    /// before taken as they are.
    fn explore(&mut self, pos: &Position) -> (Vec<Position>, Vec<Node>) {
        let mut number: HashMap<Position, usize> = HashMap::new();
        let mut positions = vec![*pos];
        let mut nodes = vec![];
        number.insert(*pos, 0);
        while nodes.len() < positions.len() {
            let p = positions[nodes.len()];
            if let Some(&solved) = self.solved.get(&p) {
                nodes.push(Node::Fixed(solved));
                continue;
            }
            let node = match self.moves(&p) {
                Some(moves) => {
                    let edges = moves
                        .into_iter()
                        .map(|m| match m {
                            Step::Exit(v) => Edge::Exit(v),
                            Step::Within(next, same) => {
                                let fresh = positions.len();
                                let to = *number.entry(next).or_insert(fresh);
                                if to == fresh {
                                    positions.push(next);
                                }
                                Edge::Inner { to, same }
                            }
                        })
                        .collect();
                    Node::Moves(edges)
                }
                None => Node::Unknown,
            };
            nodes.push(node);
        }
        (positions, nodes)
    }

    /// The moves of `p` (a game going on, not solved), played on a fresh
    /// game: `None` when one cannot be decided within the lap budget.
    fn moves(&mut self, p: &Position) -> Option<Vec<Step>> {
        let mut fresh = Game::start(*p);
        fresh.settle().ok()?;
        let mover = p.to_move();
        let mut steps = Vec::new();
        let mut game = fresh.clone();
        for mv in p.legal_moves().ok()?.iter() {
            game.clone_from(&fresh);
            let report = game.play(mv).ok()?;
            if ended_by_repetition(&report) {
                // Only a move back to `p` itself can repeat in a fresh
                // game: a cycle, as any other. No game has one today: it
                // takes a move that keeps the turn (Kalah's extra turn)
                // under a repetition rule (Kalah has none, as no Kalah
                // position recurs); the branch keeps a rule that combined
                // them from scoring the cycle as the rows swept.
                let next = match p.play(mv).ok()? {
                    mancala_rules::Played::Finite { position, .. } => position,
                    mancala_rules::Played::Endless { .. } => return None,
                };
                steps.push(Step::Within(next, next.to_move() == mover));
                continue;
            }
            if let Some(v) = ended_margin(p, &report) {
                steps.push(Step::Exit(Some((v, true))));
                continue;
            }
            let next = *game.position();
            let same = next.to_move() == mover;
            if next.board_seeds() == p.board_seeds() {
                steps.push(Step::Within(next, same));
                continue;
            }
            let gained = report.net_gain(mover);
            let entry = self.entry_after_exit(&next);
            let exit = entry.value().map(|v| {
                let v = if same { v } else { -v };
                (gained + v, entry.is_exact())
            });
            steps.push(Step::Exit(exit));
        }
        Some(steps)
    }

    /// The entry of `next`, met right after seeds left the board (the
    /// game goes on there).
    fn entry_after_exit(&mut self, next: &Position) -> Entry {
        let solved = self.solve(next);
        entry_of(next, solved)
    }
}

/// A move of a position being explored, before its component is numbered.
enum Step {
    Exit(Option<(i32, bool)>),
    /// Within the layer: the position after it, and whether the mover
    /// moves again.
    Within(Position, bool),
}

/// Whether `report`'s move ended the game or round by repetition.
fn ended_by_repetition(report: &PlayReport) -> bool {
    let reason = report
        .round_ends
        .first()
        .map(|r| r.reason)
        .or(report.outcome.map(|o| o.reason));
    reason == Some(EndReason::Repetition)
}

/// The entry of a position (a game going on) from its bounds: exact when
/// both sides force the same value within the seeds on the board, else the
/// convention's value.
fn entry_of(pos: &Position, solved: Solved) -> Entry {
    let Some([lo, hi, lo_all, hi_all]) = solved else {
        return Entry::UNKNOWN;
    };
    let k = pos.board_seeds() as i32;
    let (lo, hi) = (lo.max(-k), hi.min(k));
    if lo == hi {
        Entry::exact(lo)
    } else {
        Entry::by_convention(0.max(lo_all.max(-k)).min(hi_all.min(k)))
    }
}

/// The bounds of every node of a component: the least fixpoint of
/// [`bounds_by_moves`] from "nothing forced", by a worklist (a node is
/// looked at again when one of its successors changed). Every bound only
/// rises (`lo`) or falls (`hi`), within the seeds on the board, so the
/// work ends.
fn fixpoint(nodes: &[Node]) -> Vec<Bounds> {
    let mut bounds: Vec<Bounds> = nodes
        .iter()
        .map(|n| match n {
            Node::Fixed(Some(b)) => *b,
            _ => OPEN,
        })
        .collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (p, node) in nodes.iter().enumerate() {
        if let Node::Moves(edges) = node {
            for e in edges {
                if let Edge::Inner { to, .. } = e {
                    preds[*to].push(p);
                }
            }
        }
    }
    let mut queued = vec![false; nodes.len()];
    let mut queue = Vec::new();
    for (p, node) in nodes.iter().enumerate() {
        if matches!(node, Node::Moves(_)) {
            queued[p] = true;
            queue.push(p);
        }
    }
    while let Some(p) = queue.pop() {
        queued[p] = false;
        let Node::Moves(edges) = &nodes[p] else {
            continue;
        };
        let new = bounds_by_moves(edges, &bounds);
        if new == bounds[p] {
            continue;
        }
        bounds[p] = new;
        for &q in &preds[p] {
            if !queued[q] && matches!(nodes[q], Node::Moves(_)) {
                queued[q] = true;
                queue.push(q);
            }
        }
    }
    bounds
}

/// One step of the fixpoint: what the mover of a position with moves
/// `edges` forces given its successors' `bounds`. The mover forces at
/// least `x` when some move does; the opponent holds it to `x` when every
/// move does. A successor with the other side to move counts negated,
/// its bounds swapped.
fn bounds_by_moves(edges: &[Edge], bounds: &[Bounds]) -> Bounds {
    let mut out = [-NONE; 4];
    for e in edges {
        let b: Bounds = match *e {
            Edge::Exit(Some((v, true))) => [v, v, v, v],
            Edge::Exit(Some((v, false))) => [-NONE, NONE, v, v],
            Edge::Exit(None) => OPEN,
            Edge::Inner { to, same: true } => bounds[to],
            Edge::Inner { to, same: false } => {
                let [lo, hi, lo_all, hi_all] = bounds[to];
                [-hi, -lo, -hi_all, -lo_all]
            }
        };
        for (o, b) in out.iter_mut().zip(b) {
            *o = (*o).max(b);
        }
    }
    if edges.is_empty() { OPEN } else { out }
}
