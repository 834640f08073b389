//! Retrograde analysis of one layer (every position with `k` seeds on the
//! board), the lower layers done.
//!
//! Seeds leave the board only into the stores, so a move either keeps the
//! layer (gaining nothing) or leaves it for a lower layer, whose values are
//! known: an *exit* with a known value. Within the layer moves may cycle
//! (Oware, the seed games). The layer is solved threshold by threshold:
//! for each `s`, the positions whose mover can force a result of at least
//! `s` (set A) and those whose opponent can force the mover's result down
//! to at most `-s` (set B) are found as attractors, by counting down each
//! position's moves from its predecessors, as retrograde analysis does. A
//! position enters a set only with a strategy that reaches an exit in
//! finitely many moves, each move to a position that entered earlier: no
//! position of the layer recurs on the way, so no repetition rule can
//! interfere. A value forced from both sides this way is *exact*; the rest
//! depend on what an unending play is worth and get the convention's value
//! (an unending play scores 0: the seeds left on the board are shared
//! evenly), marked as such.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use mancala_rules::{Played, Position, Side};

use crate::layout::Layout;
use crate::{BuildStage, Entry};
/// A move's edge: an exit (bit 0 set, the entry code of its value in bits
/// 8..16) or a move within the layer (the child's index in bits 32..,
/// bit 1 set when the mover moves again).
type Edge = u64;

const EXIT: u64 = 1;
const SAME_MOVER: u64 = 2;

fn exit(entry: Entry) -> Edge {
    EXIT | u64::from(entry.code()) << 8
}

fn exit_entry(edge: Edge) -> Entry {
    Entry::from_code((edge >> 8) as u8)
}

/// Seeds in a side's row.
fn row(pos: &Position, side: Side) -> i32 {
    pos.row_seeds(side) as i32
}

/// What the game makes of `pos` for its mover: its exit (when the game is
/// over there or no move is possible, the rows swept to their owners),
/// its moves' edges, or `None` when a move's legality cannot be decided
/// within the lap budget.
fn edges_of(
    layout: &Layout,
    lower: &[Vec<u8>],
    k: u32,
    pos: &Position,
    out: &mut Vec<Edge>,
) -> Option<()> {
    let mover = pos.to_move();
    let other = mover.opposite();
    let sweep = row(pos, mover) - row(pos, other);
    let moves = pos.legal_moves().ok()?;
    if moves.is_empty() {
        out.push(exit(Entry::exact(sweep)));
        return Some(());
    }
    for mv in moves.iter() {
        let child = match pos.play(mv).ok()? {
            Played::Finite { position, .. } => position,
            // `endless-ends-game`: the game ends with the board as it is.
            Played::Endless { .. } => {
                out.push(exit(Entry::exact(sweep)));
                continue;
            }
        };
        let gains = pos.gains_to(child.stores());
        let gained = gains[mover.index()] as i32 - gains[other.index()] as i32;
        if child.reaches_twenty_five() {
            let swept = row(&child, mover) - row(&child, other);
            out.push(exit(Entry::exact(gained + swept)));
            continue;
        }
        let Some((child_k, index)) = layout.key(&child) else {
            // A position the layout cannot hold has no value here.
            out.push(exit(Entry::UNKNOWN));
            continue;
        };
        let same = child.to_move() == mover;
        if child_k == k {
            out.push((index << 32) | if same { SAME_MOVER } else { 0 });
        } else {
            let entry = Entry::from_code(lower[child_k as usize][index as usize]);
            let entry = match entry.value() {
                Some(v) => {
                    let v = if same { v } else { -v };
                    entry.with_value(gained + v)
                }
                None => Entry::UNKNOWN,
            };
            out.push(exit(entry));
        }
    }
    Some(())
}

/// A layer's moves, by position.
struct Graph {
    len: usize,
    /// Positions whose moves could not all be decided.
    unknown: Vec<bool>,
    /// `edges[edge_start[p]..edge_start[p + 1]]`: position `p`'s moves.
    edge_start: Vec<u64>,
    edges: Vec<Edge>,
    /// `preds[pred_start[c]..pred_start[c + 1]]`: the moves within the
    /// layer into `c`, as the mover's index, top bit set when the mover
    /// moves again.
    pred_start: Vec<u64>,
    preds: Vec<u32>,
}

const PRED_SAME: u32 = 1 << 31;

/// Where a layer's build stands: its stage, and the work of the stage
/// done and in all, read by the thread that reports progress.
#[derive(Debug)]
pub(crate) struct Tracker(Mutex<(BuildStage, u64, u64)>);

/// Positions whose moves a thread plays between two reports of them.
const REPORT_EVERY: usize = 4096;

impl Tracker {
    /// A build about to play the moves of `positions` positions.
    pub(crate) fn new(positions: u64) -> Tracker {
        Tracker(Mutex::new((BuildStage::Moves, 0, positions)))
    }

    /// The stage, and its work done and in all.
    pub(crate) fn get(&self) -> (BuildStage, u64, u64) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn start(&self, stage: BuildStage, total: u64) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = (stage, 0, total);
    }

    fn add(&self, done: u64) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).1 += done;
    }
}

impl Graph {
    fn new(layout: &Layout, lower: &[Vec<u8>], k: u32, threads: usize, tracker: &Tracker) -> Graph {
        let len = layout.layer_len(k) as usize;
        let threads = threads.clamp(1, 64);
        let chunk = len.div_ceil(threads).max(1);
        let parts: Vec<(Vec<bool>, Vec<u64>, Vec<Edge>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..len)
                .step_by(chunk)
                .map(|from| {
                    let to = (from + chunk).min(len);
                    scope.spawn(move || {
                        let mut unknown = vec![false; to - from];
                        let mut counts = Vec::with_capacity(to - from);
                        let mut edges = Vec::with_capacity(6 * (to - from));
                        for (i, index) in (from..to).enumerate() {
                            let before = edges.len();
                            let decided = layout
                                .position(k, index as u64)
                                .and_then(|pos| edges_of(layout, lower, k, &pos, &mut edges));
                            if decided.is_none() {
                                edges.truncate(before);
                                unknown[i] = true;
                            }
                            counts.push((edges.len() - before) as u64);
                            if i % REPORT_EVERY == REPORT_EVERY - 1 {
                                tracker.add(REPORT_EVERY as u64);
                            }
                        }
                        tracker.add(((to - from) % REPORT_EVERY) as u64);
                        (unknown, counts, edges)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| match w.join() {
                    Ok(part) => part,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .collect()
        });
        let mut unknown = Vec::with_capacity(len);
        let mut edge_start = Vec::with_capacity(len + 1);
        let mut edges = Vec::new();
        edge_start.push(0);
        for (part_unknown, counts, part_edges) in parts {
            unknown.extend(part_unknown);
            for c in counts {
                let last = *edge_start.last().unwrap_or(&0);
                edge_start.push(last + c);
            }
            edges.extend(part_edges);
        }
        let mut pred_start = vec![0u64; len + 1];
        for &e in &edges {
            if e & EXIT == 0 {
                pred_start[(e >> 32) as usize + 1] += 1;
            }
        }
        for i in 0..len {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut preds = vec![0u32; pred_start[len] as usize];
        for p in 0..len {
            for &e in &edges[edge_start[p] as usize..edge_start[p + 1] as usize] {
                if e & EXIT == 0 {
                    let c = (e >> 32) as usize;
                    let same = if e & SAME_MOVER != 0 { PRED_SAME } else { 0 };
                    preds[fill[c] as usize] = p as u32 | same;
                    fill[c] += 1;
                }
            }
        }
        Graph {
            len,
            unknown,
            edge_start,
            edges,
            pred_start,
            preds,
        }
    }

    fn moves(&self, p: usize) -> &[Edge] {
        &self.edges[self.edge_start[p] as usize..self.edge_start[p + 1] as usize]
    }

    /// Threshold `s`: marks `in_a` (the mover forces at least `s`) and
    /// `in_b` (the opponent forces the mover to at most `-s`), counting
    /// only exact exits when `exact`, else every known exit's value.
    fn attract(&self, s: i32, exact: bool, work: &mut Work) {
        let Work {
            in_a,
            in_b,
            left,
            queue,
        } = work;
        in_a.fill(false);
        in_b.fill(false);
        queue.clear();
        for p in 0..self.len {
            if self.unknown[p] {
                left[p] = u8::MAX;
                continue;
            }
            let mut open = 0u8;
            let mut good = false;
            for &e in self.moves(p) {
                if e & EXIT == 0 {
                    open += 1;
                    continue;
                }
                let entry = exit_entry(e);
                let value = match entry.value() {
                    Some(v) if entry.is_exact() || !exact => Some(v),
                    _ => None,
                };
                good |= value.is_some_and(|v| v >= s);
                if value.is_none_or(|v| v > -s) {
                    open += 1;
                }
            }
            left[p] = open;
            if good {
                in_a[p] = true;
                queue.push(p as u32);
            }
            if open == 0 {
                in_b[p] = true;
                queue.push(p as u32 | PRED_SAME);
            }
        }
        while let Some(item) = queue.pop() {
            let c = (item & !PRED_SAME) as usize;
            let c_in_b = item & PRED_SAME != 0;
            for &pred in &self.preds[self.pred_start[c] as usize..self.pred_start[c + 1] as usize] {
                let p = (pred & !PRED_SAME) as usize;
                if self.unknown[p] {
                    continue;
                }
                let same = pred & PRED_SAME != 0;
                // The move is good for p's mover when the child is in A
                // with the same mover, or in B with the other one.
                if same != c_in_b {
                    if !in_a[p] {
                        in_a[p] = true;
                        queue.push(p as u32);
                    }
                } else {
                    left[p] -= 1;
                    if left[p] == 0 && !in_b[p] {
                        in_b[p] = true;
                        queue.push(p as u32 | PRED_SAME);
                    }
                }
            }
        }
    }
}

/// Scratch space of [`Graph::attract`].
struct Work {
    in_a: Vec<bool>,
    in_b: Vec<bool>,
    left: Vec<u8>,
    queue: Vec<u32>,
}

/// What a layer's build did.
#[derive(Clone, Copy, Debug, Default)]
pub struct LayerStats {
    pub positions: u64,
    /// Positions whose value depends on the convention for unending play.
    pub by_convention: u64,
    /// Positions whose moves could not be decided within the lap budget.
    pub unknown: u64,
    pub moves: u64,
    pub elapsed: Duration,
}

/// Solves layer `k`: the entry codes of its positions.
pub(crate) fn solve_layer(
    layout: &Layout,
    lower: &[Vec<u8>],
    k: u32,
    threads: usize,
    tracker: &Tracker,
) -> (Vec<u8>, LayerStats) {
    let graph = Graph::new(layout, lower, k, threads, tracker);
    let len = graph.len;
    assert!(len < PRED_SAME as usize, "a layer of {len} positions");
    let mut work = Work {
        in_a: vec![false; len],
        in_b: vec![false; len],
        left: vec![0; len],
        queue: Vec::new(),
    };
    let k = k as i32;
    // Forced bounds: lo, the most the mover forces; hi, the least the
    // opponent holds it to.
    let mut lo = vec![-k as i8; len];
    let mut hi = vec![k as i8; len];
    tracker.start(BuildStage::Values, 2 * k as u64);
    for s in (-k + 1)..=k {
        graph.attract(s, true, &mut work);
        tracker.add(1);
        for p in 0..len {
            if work.in_a[p] {
                lo[p] = lo[p].max(s as i8);
            }
            if work.in_b[p] {
                hi[p] = hi[p].min(-s as i8);
            }
        }
    }
    let mut codes: Vec<u8> = (0..len)
        .map(|p| {
            if graph.unknown[p] {
                Entry::UNKNOWN.code()
            } else if lo[p] == hi[p] {
                Entry::exact(i32::from(lo[p])).code()
            } else {
                // Settled below.
                Entry::UNKNOWN.code()
            }
        })
        .collect();
    let open: Vec<usize> = (0..len)
        .filter(|&p| !graph.unknown[p] && lo[p] != hi[p])
        .collect();
    let mut stats = LayerStats {
        positions: len as u64,
        by_convention: open.len() as u64,
        unknown: graph.unknown.iter().filter(|&&u| u).count() as u64,
        moves: graph.edges.len() as u64,
        elapsed: Duration::ZERO,
    };
    if !open.is_empty() {
        let mut value = vec![0i8; len];
        tracker.start(BuildStage::Convention, k as u64);
        for s in 1..=k {
            graph.attract(s, false, &mut work);
            tracker.add(1);
            for &p in &open {
                if work.in_a[p] {
                    value[p] = s as i8;
                } else if work.in_b[p] {
                    value[p] = -s as i8;
                }
            }
        }
        for &p in &open {
            codes[p] = Entry::by_convention(i32::from(value[p])).code();
        }
    }
    stats.positions = len as u64;
    (codes, stats)
}
