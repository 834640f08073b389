//! Variations: the line as it stood before a move, kept only where a
//! variation follows it, and the line a variation branches from.

use std::ops::Range;

use mancala_notation::{Form, Visitor};
use mancala_rules::{Game, Opt};

use super::{Check, Lane};

/// A line as it stood before a move.
#[derive(Clone, Debug)]
pub(super) struct Before {
    pub(super) game: Game,
    pub(super) plies: usize,
    pub(super) markers_due: Vec<u32>,
}

/// Whether a variation opens after a move, `after` being the text that
/// follows the move's token: only NAGs and comments may stand between.
/// Each stretch of text between two moves is scanned once.
fn variation_follows(after: &[u8]) -> bool {
    let mut at = 0;
    loop {
        while after.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        match after.get(at) {
            Some(b'(') => return true,
            Some(b'{') => match after[at..].iter().position(|&b| b == b'}') {
                Some(close) => at += close + 1,
                None => return false,
            },
            Some(b'$' | b'!' | b'?') => {
                while after
                    .get(at)
                    .is_some_and(|&b| !b.is_ascii_whitespace() && !matches!(b, b'{' | b'(' | b')'))
                {
                    at += 1;
                }
            }
            _ => return false,
        }
    }
}

/// What [`Check`] was reading when a variation began, taken up again at
/// its end.
#[derive(Debug)]
pub(super) struct Branch {
    /// The variation's `(`.
    pub(super) at: Range<usize>,
    pub(super) game: Option<Game>,
    pub(super) before_last: Option<Before>,
    pub(super) plies: usize,
    pub(super) markers_due: Vec<u32>,
    pub(super) round_ends: usize,
    pub(super) stopped: bool,
    pub(super) lane: Lane,
}

impl<R: Visitor> Check<'_, '_, R> {
    /// Keeps the line as it stands before a move is played, when a
    /// variation follows the move (whose token ends at `move_end`): only
    /// then, as a copy costs as much as the game's repetition history is
    /// long. Under `no-repetition-rule` the history counts for nothing, and
    /// the copy is a game started from the position, which the line then
    /// is in all else (the move is played from a game neither over nor
    /// ended, so nothing else is pending).
    pub(super) fn keep(&mut self, move_end: usize) {
        self.before_last = None;
        let (true, Some(game), Some(rules)) = (self.keep_before, &self.game, self.rules) else {
            return;
        };
        // In MGN the text after the move says whether a variation follows;
        // JSON is not looked into (its variations are rare beside MGN's).
        if let Some((Form::Mgn, source)) = self.source
            && !variation_follows(source.as_bytes().get(move_end..).unwrap_or_default())
        {
            return;
        }
        let game = if rules.has(Opt::NoRepetitionRule) {
            Game::start(*game.position())
        } else {
            game.clone()
        };
        self.before_last = Some(Before {
            game,
            plies: self.plies,
            markers_due: self.markers_due.clone(),
        });
    }
}
