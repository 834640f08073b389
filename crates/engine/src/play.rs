//! Move helpers every engine shares: which moves can be played, a uniformly
//! random legal move without allocating, random playouts, and a compact move
//! code for the transposition table.

use fastrand::Rng;
use mancala_rules::{Dir, Game, Hole, Move, MoveList, Opt, PlayReport, Played, Side};

/// A move that [`Game::play`] accepted, with the game after it.
#[derive(Clone, Debug)]
pub struct Child {
    pub mv: Move,
    pub game: Game,
    /// Seeds the mover gained during the move minus those the opponent
    /// gained (Rio Kadalis gives some fours to the row's owner).
    pub gain: i32,
}

/// The mover's net gain of a move, from its report.
pub(crate) fn net_gain(report: &PlayReport, mover: Side) -> i32 {
    report.gained[mover.index()] as i32 - report.gained[mover.opposite().index()] as i32
}

/// Every move of `game` that [`Game::play`] accepts, in candidate (hole)
/// order, each with the game after it.
///
/// "Legal" here means exactly what a caller playing the move will see:
/// endless moves (unless `endless-ends-game`), moves that starve the opponent
/// while a feeding move exists, and moves whose verdict (or the next
/// position's "cannot move" check) is undecided within the lap budget are
/// left out. This is why it uses [`Game::play`] rather than
/// [`mancala_rules::Position::legal_moves`], which fails as a whole on a
/// single undecided candidate.
#[must_use]
pub fn children(game: &Game) -> Vec<Child> {
    let mut out = Vec::new();
    if game.outcome().is_some() {
        return out;
    }
    let mover = game.position().to_move();
    for mv in game.position().candidates().iter() {
        let mut next = game.clone();
        if let Ok(report) = next.play(mv) {
            out.push(Child {
                mv,
                game: next,
                gain: net_gain(&report, mover),
            });
        }
    }
    out
}

/// Every move of `game` that [`Game::play`] accepts (see [`children`]).
#[must_use]
pub fn playable_moves(game: &Game) -> Vec<Move> {
    children(game).into_iter().map(|c| c.mv).collect()
}

/// Plays a uniformly random legal move on `game` in place and returns it, or
/// `None` (game unchanged) when no move can be played.
///
/// Candidates are tried in random order and the first one [`Game::play`]
/// accepts is kept; every legal move is equally likely to come first. A
/// failed [`Game::play`] leaves the game as it was, so nothing is cloned and
/// nothing is allocated.
pub fn play_random(game: &mut Game, rng: &mut Rng) -> Option<(Move, PlayReport)> {
    if game.outcome().is_some() {
        return None;
    }
    let mut moves = MoveBuf::from(game.position().candidates());
    while let Some(mv) = moves.take_random(rng) {
        if let Ok(report) = game.play(mv) {
            return Some((mv, report));
        }
    }
    None
}

/// A small stack buffer of moves to draw from at random without replacement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveBuf {
    moves: [Move; 14],
    len: usize,
}

impl Default for MoveBuf {
    fn default() -> MoveBuf {
        MoveBuf {
            moves: [Move::new(Hole::new(Side::South, 0)); 14],
            len: 0,
        }
    }
}

impl From<MoveList> for MoveBuf {
    fn from(list: MoveList) -> MoveBuf {
        let mut buf = MoveBuf::default();
        for mv in list.iter() {
            buf.moves[buf.len] = mv;
            buf.len += 1;
        }
        buf
    }
}

impl MoveBuf {
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes and returns a uniformly random move.
    pub(crate) fn take_random(&mut self, rng: &mut Rng) -> Option<Move> {
        if self.len == 0 {
            return None;
        }
        let i = rng.usize(..self.len);
        let mv = self.moves[i];
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
        Some(mv)
    }
}

/// Each side's holdings: store (or captures, or winnings) plus the seeds in
/// its own row, which is what it would score if the game ended now.
#[must_use]
pub fn holdings(game: &Game) -> [u32; 2] {
    if let Some(outcome) = game.outcome() {
        return outcome.score;
    }
    game.position().holdings()
}

/// The winner by holdings (`None` for equal holdings).
pub(crate) fn leader(score: [u32; 2]) -> Option<Side> {
    match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// How a random playout ended: the holdings when it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlayoutEnd {
    pub(crate) holdings: [u32; 2],
}

impl PlayoutEnd {
    /// The side ahead on holdings, `None` when level.
    pub(crate) fn winner(&self) -> Option<Side> {
        leader(self.holdings)
    }
}

/// Random playouts, with scratch space reused from one to the next.
///
/// A playout plays uniformly random legal moves on a copy of the position
/// until the game, or the current round of a match, ends, or `max_plies`
/// moves have been played. It then scores the holdings (stores plus row
/// seeds), which is exactly the game's score, or a round's result, when the
/// playout ended by the rules.
///
/// Playouts work on [`Position`](mancala_rules::Position)s rather than [`Game`]s, which halves their
/// cost: [`Game::play`] sows every move once more to decide whether the
/// next player can move, while here that is found out by trying the next
/// move. The end checks are the rules' own (endless move under
/// `endless-ends-game`, Olowuka's 25, repetition, cannot move), with one
/// approximation: repetitions are counted from the playout's first position
/// only, since a game's history is not visible from outside. Stopping at the
/// end of a round keeps playouts of Pallankuzhi and Rio Kadalis short (a
/// random match lasts 20-odd rounds and 500 to 700 plies), and refilling is
/// not needed; the holdings after a round say who is winning the match.
#[derive(Clone, Debug, Default)]
pub(crate) struct Playouts {
    keys: Vec<u128>,
}

impl Playouts {
    pub(crate) fn run(&mut self, game: &Game, rng: &mut Rng, max_plies: u32) -> PlayoutEnd {
        if let Some(outcome) = game.outcome() {
            return PlayoutEnd {
                holdings: outcome.score,
            };
        }
        let mut pos = *game.position();
        let rules = pos.rules();
        let repetition = !rules.has(Opt::NoRepetitionRule);
        self.keys.clear();
        self.keys.push(pos.repetition_key());
        'plies: for _ in 0..max_plies {
            let mut moves = MoveBuf::from(pos.candidates());
            let next = loop {
                let Some(mv) = moves.take_random(rng) else {
                    // Cannot move.
                    break 'plies;
                };
                match pos.play(mv) {
                    Ok(Played::Finite { position, .. }) => break position,
                    // `endless-ends-game`: over, the board as it was.
                    Ok(Played::Endless { .. }) => break 'plies,
                    Err(_) => {}
                }
            };
            let irreversible = next.board_seeds() != pos.board_seeds();
            pos = next;
            if pos.reaches_twenty_five() {
                break;
            }
            if irreversible {
                self.keys.clear();
            }
            let key = pos.repetition_key();
            if repetition && self.keys.iter().filter(|&&k| k == key).count() >= 2 {
                break;
            }
            self.keys.push(key);
        }
        PlayoutEnd {
            holdings: pos.holdings(),
        }
    }
}

/// A move in one byte: hole index, plus a direction when one is named.
pub(crate) fn encode(mv: Move) -> u8 {
    let dir = match mv.dir {
        None => 0,
        Some(Dir::Ccw) => 1,
        Some(Dir::Cw) => 2,
    };
    mv.hole.index | (dir << 4)
}

/// The move a code stands for, for the side to move. The code `0xff` means
/// "no move".
pub(crate) fn decode(code: u8, side: Side) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    let hole = Hole::new(side, code & 0x0f);
    Some(match code >> 4 {
        1 => Move::with_dir(hole, Dir::Ccw),
        2 => Move::with_dir(hole, Dir::Cw),
        _ => Move::new(hole),
    })
}

pub(crate) const NO_MOVE: u8 = 0xff;
