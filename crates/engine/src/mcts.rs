//! Monte Carlo tree search: UCT over random playouts.

use std::time::{Duration, Instant};

use fastrand::Rng;
use mancala_rules::{Game, Move, Opt, Position, Side};

use crate::play::{MoveBuf, PlayoutEnd, Playouts};
use crate::{Budget, Player, SearchInfo};

/// The record-tag form of MCTS with `budget`: `mcts playouts=1000`,
/// `mcts ms=200`, `mcts playouts=5000 ms=200`.
pub(crate) fn write_tag(budget: &Budget, f: &mut impl std::fmt::Write) -> std::fmt::Result {
    budget.write_tag(f, "mcts", "playouts")
}

/// UCT exploration constant for rewards in `[0, 1]`. 0.5, 1.0 and 1.4 won
/// the same share of 400 Olinda Keliya games against random players.
const EXPLORATION: f64 = 1.0;

/// A playout longer than this stops and is scored on holdings: with
/// `no-repetition-rule` a game can last for ever. Playouts also stop at the
/// end of a round of a match (see [`Playouts`]).
const MAX_PLAYOUT_PLIES: u32 = 1000;

/// The root's parent, and the end of a list of children.
const NONE: u32 = u32::MAX;

/// The tree grows by a node per playout up to this many nodes (about 430
/// bytes each, its game included, more where the game's history outgrows
/// the keys a game holds in itself: some 115 MB), then stops growing: later
/// playouts start from the leaves it has, so `playouts=N` of any size runs
/// in bounded memory.
pub const MAX_TREE_NODES: usize = 1 << 18;

/// A node of the tree: what selection and backing up read, some 60
/// bytes, so that the nodes a selection walks through share cache lines.
/// Its game, read only where the tree grows or a playout starts, is kept
/// apart (`games`, at the same index: some 370 bytes).
#[derive(Debug)]
struct Node {
    /// The move that led here (unused at the root).
    mv: Option<Move>,
    /// Who played `mv`: rewards are counted for this side.
    mover: Side,
    parent: u32,
    /// The children, in the order they were expanded, as a list through
    /// `next_sibling` (`NONE` ends it): no allocation a node.
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    /// Candidates not yet expanded, drawn at random.
    untried: MoveBuf,
    visits: u32,
    /// Wins plus half the draws, for `mover`.
    reward: f64,
}

/// The Monte Carlo tree search player. The tree is built afresh for every
/// move.
#[derive(Debug)]
pub struct Mcts {
    /// Its work limit counts playouts per move.
    budget: Budget,
    /// A match's clock: a time limit on top of the budget's
    /// ([`Player::limit_time`]).
    clock: Option<Duration>,
    rng: Rng,
    playouts: Playouts,
    info: Option<SearchInfo>,
    /// [`MAX_TREE_NODES`] (smaller in tests), and the last tree's size.
    max_nodes: usize,
    last_tree: usize,
    /// `ln(n)` for the visit counts `n` met so far below [`LN_CACHED`]:
    /// selection takes the logarithm of a node's visits at every step
    /// down, and the same small counts come up again and again.
    ln: Vec<f64>,
}

/// Visit counts whose logarithms [`Mcts`] keeps (512 KiB at most).
const LN_CACHED: u32 = 1 << 16;

impl Mcts {
    /// Playouts per move when no budget is given: measured to beat random
    /// players in at least 99% of games of every game (see STRENGTH.md).
    pub const DEFAULT_PLAYOUTS: u32 = 1000;

    /// A player searching within `budget`, its work limit counting
    /// playouts per move (a time limit alone allows up to `u32::MAX`).
    #[must_use]
    pub fn new(budget: Budget, seed: u64) -> Mcts {
        Mcts {
            budget,
            clock: None,
            rng: Rng::with_seed(seed),
            playouts: Playouts::default(),
            info: None,
            max_nodes: MAX_TREE_NODES,
            last_tree: 0,
            ln: Vec::new(),
        }
    }

    #[must_use]
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// Searches `game` and returns the most visited move with its search
    /// statistics (`nodes` counts playouts, `score` is the move's reward
    /// rate in thousandths), or `None` when no move can be played.
    pub fn search(&mut self, game: &Game) -> Option<SearchInfo> {
        let start = Instant::now();
        let deadline = self.budget.time_within(self.clock).map(|t| start + t);
        if game.outcome().is_some() {
            return None;
        }
        let side = game.position().to_move();
        // A node a playout, up to the bound: room for the first few
        // thousand at once rather than copying the tree as it grows.
        let room = (self.budget.limit_or(u32::MAX) as usize).clamp(1, 4096);
        let mut tree = Vec::with_capacity(room.min(self.max_nodes) + 1);
        let mut games = Vec::with_capacity(tree.capacity());
        games.push(game.clone());
        tree.push(Node {
            mv: None,
            mover: side.opposite(),
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            untried: MoveBuf::from(game.position().candidates()),
            visits: 0,
            reward: 0.0,
        });
        let mut playouts = 0u64;
        while playouts < u64::from(self.budget.limit_or(u32::MAX)) {
            // The first playout always runs, so a move is always found.
            if playouts > 0
                && let Some(deadline) = deadline
                && Instant::now() >= deadline
            {
                break;
            }
            let (leaf, reward) = self.select_and_expand(&mut tree, &mut games);
            if leaf == 0 && tree[0].first_child == NONE {
                // Nothing at the root plays.
                return None;
            }
            if playouts == 0
                && tree[0].untried.is_empty()
                && tree[0].first_child != NONE
                && tree[0].first_child == tree[0].last_child
            {
                // A single legal move needs no search.
                break;
            }
            let south = match reward {
                Some(south) => south,
                None => self.reward_south(&games[leaf as usize]),
            };
            playouts += 1;
            let mut at = leaf;
            while at != NONE {
                let node = &mut tree[at as usize];
                node.visits += 1;
                node.reward += match node.mover {
                    Side::South => south,
                    Side::North => 1.0 - south,
                };
                at = node.parent;
            }
        }
        self.last_tree = tree.len();
        // The most visited child, the last of equals.
        let mut best = None;
        let mut most = 0;
        let mut c = tree[0].first_child;
        while c != NONE {
            let child = &tree[c as usize];
            if best.is_none() || child.visits >= most {
                best = Some(c);
                most = child.visits;
            }
            c = child.next_sibling;
        }
        let best = best?;
        let node = &tree[best as usize];
        let info = SearchInfo {
            best: node.mv?,
            depth: 0,
            nodes: playouts,
            elapsed: start.elapsed(),
            score: (1000.0 * node.reward / f64::from(node.visits.max(1))) as i32,
        };
        self.info = Some(info);
        Some(info)
    }

    /// South's reward, in `[0, 1]`, for one playout from `game`.
    ///
    /// A finished game, and a playout to the end of Olinda Keliya or
    /// Olowuka, scores 1 for a win, ½ for a draw, 0 for a loss. A playout in
    /// a match of rounds stops at the end of the round, and scores South's
    /// share of the seeds: winning a round narrowly is not winning the match,
    /// and a player who only wins rounds narrowly never ends the match (with
    /// win/loss rewards, Rio Kadalis games against random players lasted 380
    /// plies instead of 60). The share does worse in the single games: 98.8%
    /// instead of 99.8% won against random players in Olinda Keliya. In the
    /// last round of a match under `rounds=N` the round's end is the
    /// match's, so a playout there scores its winner.
    fn reward_south(&mut self, game: &Game) -> f64 {
        if let Some(outcome) = game.outcome() {
            return by_winner(outcome.winner);
        }
        let end = self.playouts.run(game, &mut self.rng, MAX_PLAYOUT_PLIES);
        playout_reward(game.position(), end)
    }

    /// `ln(n)`, the same number as `f64::from(n).ln()`.
    #[inline]
    fn ln_visits(&mut self, n: u32) -> f64 {
        if n >= LN_CACHED {
            return f64::from(n).ln();
        }
        while self.ln.len() <= n as usize {
            self.ln.push(f64::from(self.ln.len() as u32).ln());
        }
        self.ln[n as usize]
    }

    /// Walks down by UCT while nodes are fully expanded, then expands one
    /// untried move (while the tree may grow). Returns the node to play out
    /// from (a finished game's node, or a leaf of a full tree, is returned
    /// as it is), with South's reward when its playout was run already.
    ///
    /// A new node's move is played through [`Game::play_unsettled`] where
    /// it can be (not under `endless-ends-game`, whose endless moves only
    /// the full rules play), and its playout run at once: a playout that
    /// plays a move proves that the node's side could move, which
    /// [`Game::play`] would have found out by sowing a move more. Where the
    /// playout plays none, or the move ended the game by itself, the node's
    /// game is settled and all goes as after [`Game::play`]: the draws of
    /// that playout undone, a move whose end the lap budget cannot decide
    /// refused, the playout run from the settled game. The nodes, the
    /// draws and the rewards are [`Game::play`]'s; a node's game is left
    /// unsettled, which a later move from it does not mind. (Not for the
    /// root's first child: a single legal move ends the search before any
    /// playout.)
    fn select_and_expand(
        &mut self,
        tree: &mut Vec<Node>,
        games: &mut Vec<Game>,
    ) -> (u32, Option<f64>) {
        let mut at = 0u32;
        let grows = tree.len() < self.max_nodes;
        let unsettled = tree.len() > 1 && !games[0].position().rules().has(Opt::EndlessEndsGame);
        loop {
            // The move is played on a copy of the node's game made where a
            // new node's game goes (`games[tree.len()]`); a refused move
            // leaves it as it was, for the next one.
            let mut copied = false;
            while grows && let Some(mv) = tree[at as usize].untried.take_random(&mut self.rng) {
                if !copied {
                    games.push(games[at as usize].clone());
                    copied = true;
                }
                let Some(game) = games.last_mut() else {
                    unreachable!("the copy was just made");
                };
                let mover = game.position().to_move();
                let mut reward = None;
                if unsettled && game.play_unsettled(mv).is_some() {
                    if !game.ended_unsettled() {
                        let drawn = self.rng.clone();
                        let end = self.playouts.run(game, &mut self.rng, MAX_PLAYOUT_PLIES);
                        if end.plies > 0 {
                            reward = Some(playout_reward(game.position(), end));
                        } else {
                            self.rng = drawn;
                        }
                    }
                    // Settled where the playout did not show the side can
                    // move; a move Game::play refuses is not expanded (and
                    // the copy, played on, is made again).
                    if reward.is_none() && game.settle().is_err() {
                        games.pop();
                        copied = false;
                        continue;
                    }
                } else if game.play(mv).is_err() {
                    continue;
                }
                let untried = if game.outcome().is_some() {
                    MoveBuf::default()
                } else {
                    MoveBuf::from(game.position().candidates())
                };
                let id = tree.len() as u32;
                tree.push(Node {
                    mv: Some(mv),
                    mover,
                    parent: at,
                    first_child: NONE,
                    last_child: NONE,
                    next_sibling: NONE,
                    untried,
                    visits: 0,
                    reward: 0.0,
                });
                let parent = &mut tree[at as usize];
                let last = std::mem::replace(&mut parent.last_child, id);
                if last == NONE {
                    parent.first_child = id;
                } else {
                    tree[last as usize].next_sibling = id;
                }
                return (id, reward);
            }
            if copied {
                games.pop();
            }
            let node = &tree[at as usize];
            if node.first_child == NONE {
                return (at, None);
            }
            let log_n = self.ln_visits(node.visits.max(1));
            let mut best = node.first_child;
            let mut best_value = f64::NEG_INFINITY;
            let mut c = node.first_child;
            while c != NONE {
                let child = &tree[c as usize];
                let n = f64::from(child.visits.max(1));
                let value = child.reward / n + EXPLORATION * (log_n / n).sqrt();
                if value > best_value {
                    best_value = value;
                    best = c;
                }
                c = child.next_sibling;
            }
            at = best;
        }
    }
}

/// A reward of 1 for a South win, ½ for a draw, 0 for a North win.
fn by_winner(winner: Option<Side>) -> f64 {
    match winner {
        None => 0.5,
        Some(Side::South) => 1.0,
        Some(Side::North) => 0.0,
    }
}

/// South's reward for a playout from `pos` that ended as `end` (see
/// [`Mcts::reward_south`]).
fn playout_reward(pos: &Position, end: PlayoutEnd) -> f64 {
    let rules = pos.rules();
    let last_round = rules.last_round().is_some_and(|last| pos.round() >= last);
    if rules.plays_rounds() && !last_round {
        let [s, n] = end.holdings;
        f64::from(s) / f64::from((s + n).max(1))
    } else {
        by_winner(end.winner())
    }
}

impl Player for Mcts {
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

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{GameId, Position, Rules};

    /// Past its bound the tree stops growing, and the search goes on.
    #[test]
    fn the_tree_stays_within_its_bound() {
        let (game, _) = Game::new(Position::new(Rules::standard(GameId::Olowuka))).unwrap();
        let mut mcts = Mcts::new(Budget::limit(3000), 1);
        mcts.max_nodes = 100;
        let info = mcts.search(&game).unwrap();
        assert_eq!(info.nodes, 3000);
        assert!(mcts.last_tree <= 100, "{} nodes", mcts.last_tree);
        let mut unbounded = Mcts::new(Budget::limit(3000), 1);
        unbounded.search(&game).unwrap();
        assert!(unbounded.last_tree > 1000, "{} nodes", unbounded.last_tree);
    }
}
