//! The two players without search.

use fastrand::Rng;
use mancala_rules::{Game, Move, Opt, PlayReport};

use crate::play::{MoveBuf, played_children};
use crate::{Played, Player};

/// Plays a uniformly random legal move.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::with_seed(seed),
        }
    }
}

impl Player for RandomPlayer {
    /// Tries the candidates in random order with [`Position::play`](mancala_rules::Position::play) (a copy,
    /// no allocation) and returns the first that plays.
    fn choose(&mut self, game: &Game) -> Option<Move> {
        if game.outcome().is_some() {
            return None;
        }
        let pos = game.position();
        let mut moves = MoveBuf::from(pos.candidates());
        while let Some(mv) = moves.take_random(&mut self.rng) {
            if pos.play(mv).is_ok() {
                return Some(mv);
            }
        }
        None
    }

    /// [`RandomPlayer::choose`]'s move, the same draws, each candidate
    /// tried with [`Game::play`] itself: the one that plays is played
    /// (sown once). A candidate refused in the position it was tried in
    /// (the error's) is one the position refuses, and the next is drawn;
    /// one refused for what follows it (the lap budget's verdict on the
    /// next position, a round that cannot begin) is the choice all the
    /// same, returned with its error, as `choose` would name it.
    fn play(&mut self, game: &mut Game) -> Option<Played> {
        if game.outcome().is_some() {
            return None;
        }
        let before = *game.position();
        let mut moves = MoveBuf::from(before.candidates());
        while let Some(mv) = moves.take_random(&mut self.rng) {
            match game.play(mv) {
                Ok(report) => {
                    return Some(Played {
                        mv,
                        report: Ok(report),
                    });
                }
                Err(e) if e.position != before => return Some(Played { mv, report: Err(e) }),
                Err(_) => {}
            }
        }
        None
    }

    /// The draws of [`RandomPlayer::play`], each move tried in the fast
    /// lane ([`Game::play_unsettled`]): the first that plays there is the
    /// one `play` plays, as the fast lane refuses only moves `Game::play`
    /// refuses, unless the game is over or `endless-ends-game` lets an
    /// endless move stand. When no move plays there (the side to move may
    /// be unable to move: only settling tells), or the game ended or may
    /// have, the generator is set back and `None` returned: the caller
    /// settles and calls `play`, which draws the same moves again.
    fn play_unsettled(&mut self, game: &mut Game) -> Option<(Move, [u32; 2])> {
        if game.ended_unsettled()
            || game.outcome().is_some()
            || game.position().rules().has(Opt::EndlessEndsGame)
        {
            return None;
        }
        let drawn_from = self.rng.clone();
        let mut moves = MoveBuf::from(game.position().candidates());
        while let Some(mv) = moves.take_random(&mut self.rng) {
            if let Some(gained) = game.play_unsettled(mv) {
                return Some((mv, gained));
            }
        }
        self.rng = drawn_from;
        None
    }

    fn name(&self) -> String {
        "random".to_owned()
    }
}

/// Plays the move with the largest immediate net gain (seeds the mover
/// gains during the move minus seeds the opponent gains), breaking ties at
/// random.
#[derive(Debug)]
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::with_seed(seed),
        }
    }

    /// The chosen move with the game after it and its report: every move
    /// is played to weigh it, so the chosen one needs no playing again.
    fn pick(&mut self, game: &Game) -> Option<(Move, Game, PlayReport)> {
        let mover = game.position().to_move();
        let mut kids = played_children(game);
        let gain = |k: &(Move, Game, PlayReport)| k.2.net_gain(mover);
        let best = kids.iter().map(gain).max()?;
        let ties = kids.iter().filter(|k| gain(k) == best).count();
        let pick = self.rng.usize(..ties);
        let (i, _) = kids
            .iter()
            .enumerate()
            .filter(|(_, k)| gain(k) == best)
            .nth(pick)?;
        // Taken out where it lies: the others are not moved.
        Some(kids.swap_remove(i))
    }
}

impl Player for Greedy {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.pick(game).map(|(mv, _, _)| mv)
    }

    fn play(&mut self, game: &mut Game) -> Option<Played> {
        let (mv, next, report) = self.pick(game)?;
        *game = next;
        Some(Played {
            mv,
            report: Ok(report),
        })
    }

    fn name(&self) -> String {
        "greedy".to_owned()
    }
}
