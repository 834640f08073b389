//! Move helpers every engine shares: which moves can be played, a uniformly
//! random legal move without allocating, random playouts, and a compact move
//! code for the transposition table.

use fastrand::Rng;
use mancala_rules::{
    Dir, Drawn, Game, Hole, Move, MoveList, Opt, PlayError, PlayReport, RoundEnd, Side,
};

/// A move that [`Game::play`] accepted, with the game after it.
#[derive(Clone, Debug)]
pub struct Child {
    pub mv: Move,
    pub game: Game,
    /// Seeds the mover gained during the move minus those the opponent
    /// gained (Rio Kadalis gives some fours to the row's owner).
    pub gain: i32,
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
    let mover = game.position().to_move();
    played_children(game)
        .into_iter()
        .map(|(mv, game, report)| Child {
            mv,
            game,
            gain: report.net_gain(mover),
        })
        .collect()
}

/// [`children`] with the report of each move.
pub(crate) fn played_children(game: &Game) -> Vec<(Move, Game, PlayReport)> {
    if game.outcome().is_some() {
        return Vec::new();
    }
    let candidates = game.position().candidates();
    let mut out = Vec::with_capacity(candidates.len());
    for mv in candidates.iter() {
        let mut next = game.clone();
        if let Ok(report) = next.play(mv) {
            out.push((mv, next, report));
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

/// Candidates to draw from at random without replacement.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveBuf(MoveList);

impl From<MoveList> for MoveBuf {
    fn from(list: MoveList) -> MoveBuf {
        MoveBuf(list)
    }
}

impl MoveBuf {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes and returns a uniformly random move.
    #[inline]
    pub(crate) fn take_random(&mut self, rng: &mut Rng) -> Option<Move> {
        if self.0.is_empty() {
            return None;
        }
        let i = rng.usize(..self.0.len());
        Some(self.take(i))
    }

    /// Removes and returns the move at `i` (below the count), the last
    /// taking its place.
    #[inline(always)]
    pub(crate) fn take(&mut self, i: usize) -> Move {
        self.0.swap_remove(i)
    }
}

/// Plays uniformly random legal moves on `game` until it is over, or
/// `max_plies` moves have been played, and returns how many were played.
///
/// The moves are the ones [`play_random`] called again and again with the
/// same `rng` plays, and the game ends as it then does (settled, so
/// [`Game::outcome`] says how), but each move is sown once: a move is
/// played with [`Game::play_unsettled`], and the next move played proves
/// that its side could move, which [`Game::play`] would have found out by
/// sowing a move more. The one difference is the lap budget's: where
/// [`play_random`] refuses a move because what follows it cannot be
/// decided within the budget, this returns that error (the game stays
/// after the move, unsettled, and cannot go on).
pub fn play_out(game: &mut Game, rng: &mut Rng, max_plies: u32) -> Result<u32, PlayError> {
    let (plies, _) = random_moves(game, rng, max_plies, Until::GameEnds)?;
    game.settle()?;
    Ok(plies)
}

/// Where [`random_moves`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Until {
    GameEnds,
    /// The end of the game or of the current round of a match, whichever
    /// comes first: the next round is set up, but not played.
    RoundEnds,
}

/// [`play_out`]'s loop: the plies played and, under [`Until::RoundEnds`],
/// the holdings at the end of a round when the game went past it (the
/// next round set up); otherwise the holdings where it stopped are the
/// game's ([`holdings`]). `game` may be left unsettled.
///
/// To play exactly [`play_random`]'s moves it settles before it draws a
/// move when the last move ended the game or round by itself, and when
/// no move it drew played it settles and, if that shows that the last
/// move left its opponent unable to move, draws again from the next
/// round's start (the draws made from the old position undone, as
/// [`Game::play`] would never have made them).
///
/// Under [`Until::RoundEnds`] neither end is settled: the playout stops
/// there, and the position's holdings are the round's (or the game's)
/// result, as settling sweeps each row into its owner's store. Settling
/// would sow the side's moves again to see that none plays, and set up the
/// next round, sowing one of its moves to see that it can begin: in
/// Pallankuzhi a tenth of an MCTS search.
///
/// A move the fast lane refuses is one [`Game::play`] refuses too (an
/// endless move, one that starves the opponent while another feeds, one
/// the lap budget cannot decide), except an endless move under
/// `endless-ends-game`: only then is it played by the full rules, not
/// sown again to be refused again.
pub(crate) fn random_moves(
    game: &mut Game,
    rng: &mut Rng,
    max_plies: u32,
    until: Until,
) -> Result<(u32, Option<[u32; 2]>), PlayError> {
    // Decided once a playout: a game whose positions never repeat (Kalah)
    // keeps no repetition history, and the others' loop has no test for it.
    if game.position().rules().never_repeats() {
        random_moves_by(game, rng, max_plies, until, |game, rng| {
            game.play_drawn_unrepeated(|n| rng.usize(..n))
        })
    } else {
        random_moves_by(game, rng, max_plies, until, |game, rng| {
            game.play_drawn_unsettled(|n| rng.usize(..n))
        })
    }
}

/// [`random_moves`] with the fast lane `play` ([`Game::play_drawn_unsettled`]
/// or what stands for it where the rules allow, drawing from the
/// generator given), each lane its own loop.
#[inline(never)]
fn random_moves_by(
    game: &mut Game,
    rng: &mut Rng,
    max_plies: u32,
    until: Until,
    play: impl Fn(&mut Game, &mut Rng) -> Drawn,
) -> Result<(u32, Option<[u32; 2]>), PlayError> {
    let endless_legal = game.position().rules().has(Opt::EndlessEndsGame);
    let mut plies = 0;
    while plies < max_plies {
        if game.ended_unsettled() {
            if until == Until::RoundEnds {
                // Ended by itself (25, repetition): over, unsettled.
                break;
            }
            settle_ended(game)?;
        }
        if game.outcome().is_some() {
            break;
        }
        let drawn_from = rng.clone();
        // Most plies play the first move drawn: it is drawn from the
        // candidates as `MoveBuf::take_random` draws it, and only when it
        // does not play are the others copied out to draw from, out of
        // line.
        let (first, moves) = match play(game, rng) {
            Drawn::Played => {
                plies += 1;
                continue;
            }
            Drawn::NoCandidate => (None, MoveBuf::default()),
            Drawn::Refused { candidates, index } => {
                let mut moves = MoveBuf::from(candidates);
                (Some(moves.take(index)), moves)
            }
        };
        let rest = Rest {
            first,
            moves,
            drawn_from,
            endless_legal,
            until,
        };
        match rest.play(game, rng)? {
            Ply::Played => plies += 1,
            Ply::Redraw => {}
            Ply::Stop => break,
            Ply::Over { played, holdings } => {
                return Ok((plies + u32::from(played), holdings));
            }
        }
    }
    Ok((plies, None))
}

/// Settles what the last move of `game` left open; `Some` when that ended
/// the game or a round, with the round that ended.
fn settle_ended(game: &mut Game) -> Result<Option<Option<RoundEnd>>, PlayError> {
    let report = game.settle()?;
    let ended = !report.round_ends.is_empty() || report.outcome.is_some();
    Ok(ended.then(|| report.round_ends.first().copied()))
}

/// How a ply of [`random_moves`] whose first move drawn did not play went.
enum Ply {
    /// A move was played.
    Played,
    /// The draws were undone, to be drawn again from the next round's start.
    Redraw,
    /// The playout is over where it stands.
    Stop,
    /// The round or game ended (settled); `played`: by a move of this ply.
    Over {
        played: bool,
        holdings: Option<[u32; 2]>,
    },
}

/// The rest of a ply of [`random_moves`] whose first move drawn (`first`,
/// none when the side has no candidate) did not play in the fast lane, with
/// the other candidates to draw from and the generator as it was before
/// the ply's first draw. Rare, so kept out of the loop's way.
struct Rest {
    first: Option<Move>,
    moves: MoveBuf,
    drawn_from: Rng,
    endless_legal: bool,
    until: Until,
}

impl Rest {
    #[cold]
    #[inline(never)]
    fn play(mut self, game: &mut Game, rng: &mut Rng) -> Result<Ply, PlayError> {
        let until = self.until;
        let mut settled = false;
        loop {
            // The first move drawn is known not to play in the fast lane.
            let mv = match self.first.take() {
                Some(mv) => Some(mv),
                None => {
                    let mv = self.moves.take_random(rng);
                    if let Some(mv) = mv
                        && game.play_unsettled(mv).is_some()
                    {
                        return Ok(Ply::Played);
                    }
                    mv
                }
            };
            if mv.is_some() && !self.endless_legal {
                continue;
            }
            if mv.is_none() && until == Until::RoundEnds {
                // No move plays: the side cannot move, so the round or
                // game ends here, unsettled (or the lap budget leaves
                // that open); the playout is over either way, its draws
                // drawn.
                return Ok(Ply::Stop);
            }
            // An endless move to rule on, or no move left: what the last
            // move left open is settled first, as `Game::play` does.
            if !settled {
                settled = true;
                if let Some(round) = settle_ended(game)? {
                    if until == Until::RoundEnds {
                        // The playout is over: its draws stay drawn.
                        return Ok(Ply::Over {
                            played: false,
                            holdings: round.map(|r| r.holdings),
                        });
                    }
                    *rng = self.drawn_from;
                    return Ok(Ply::Redraw);
                }
            }
            let Some(mv) = mv else {
                // No move plays, though the side may move: only the lap
                // budget does that (see `play_random`).
                return Ok(Ply::Stop);
            };
            if let Ok(report) = game.play(mv) {
                if until == Until::RoundEnds
                    && let Some(end) = report.round_ends.first()
                {
                    return Ok(Ply::Over {
                        played: true,
                        holdings: Some(end.holdings),
                    });
                }
                return Ok(Ply::Played);
            }
        }
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

/// How a random playout ended: the holdings when it stopped, and the
/// plies it played (0 too where the lap budget stopped it with an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlayoutEnd {
    pub(crate) holdings: [u32; 2],
    pub(crate) plies: u32,
}

impl PlayoutEnd {
    /// The side ahead on holdings, `None` when level.
    pub(crate) fn winner(&self) -> Option<Side> {
        leader(self.holdings)
    }
}

/// Random playouts through [`Game`], with scratch space reused from one to
/// the next.
///
/// A playout plays uniformly random legal moves on a copy of the game (see
/// [`random_moves`]) until the game, or the current round of a match,
/// ends, or `max_plies` moves have been played. It then scores the
/// holdings (stores plus row seeds), which is exactly the game's score, or
/// a round's result, when the playout ended by the rules. The end checks
/// are the rules' own (the game's, played from the playout's first
/// position), with one approximation: repetitions count from that
/// position on, as the game started there knows no earlier history.
/// Stopping at the end of a round keeps playouts of Pallankuzhi and Rio
/// Kadalis short (a random match lasts 20-odd rounds and 500 to 700
/// plies); the holdings after a round say who is winning the match.
#[derive(Clone, Debug, Default)]
pub(crate) struct Playouts {
    /// The game played out, restarted for each playout: its history's
    /// space is reused.
    scratch: Option<Game>,
}

impl Playouts {
    pub(crate) fn run(&mut self, game: &Game, rng: &mut Rng, max_plies: u32) -> PlayoutEnd {
        if let Some(outcome) = game.outcome() {
            return PlayoutEnd {
                holdings: outcome.score,
                plies: 0,
            };
        }
        let start = *game.position();
        let scratch = match &mut self.scratch {
            Some(scratch) => {
                scratch.restart(start);
                scratch
            }
            None => self.scratch.insert(Game::start(start)),
        };
        match random_moves(scratch, rng, max_plies, Until::RoundEnds) {
            Ok((plies, Some(round_end))) => PlayoutEnd {
                holdings: round_end,
                plies,
            },
            // Over (settled or not: the holdings are the result either
            // way), or stopped: at `max_plies`, where no move plays (the
            // lap budget's doing), or where the budget leaves the game
            // unable to go on.
            Ok((plies, None)) => PlayoutEnd {
                holdings: holdings(scratch),
                plies,
            },
            Err(_) => PlayoutEnd {
                holdings: holdings(scratch),
                plies: 0,
            },
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
