//! A player that plays an endgame database's best move wherever the
//! database proves one for the game as it stands (its repetition history
//! included: [`mancala_tablebase::Tablebase::best_move`]), and its inner
//! player's move everywhere else.

use std::sync::Arc;
use std::time::Duration;

use mancala_rules::{Game, Move, Position};
use mancala_tablebase::{Tablebase, TablebaseDir};

use crate::{Played, Player, SearchInfo};

/// `inner`, playing perfectly where the databases under a directory
/// prove a best move. Positions with more seeds on the board than a
/// database holds are not probed (their moves are the inner player's).
/// Its name, and so its record tag, is the inner player's: the databases
/// change no move but to one proved best.
#[derive(Debug)]
pub struct Tablebased<P> {
    inner: P,
    databases: Arc<TablebaseDir>,
    /// Whether the last move chosen came from a database.
    from_database: bool,
}

impl<P: Player> Tablebased<P> {
    #[must_use]
    pub fn new(inner: P, databases: Arc<TablebaseDir>) -> Tablebased<P> {
        Tablebased {
            inner,
            databases,
            from_database: false,
        }
    }

    /// The move the databases prove best in `game`, if any.
    #[must_use]
    pub fn proved_move(&self, game: &Game) -> Option<Move> {
        let tablebase = self.holding(game.position())?;
        tablebase.best_move(game).map(|best| best.mv)
    }

    /// The database of `pos`'s rules, where it holds as many seeds as
    /// `pos` has on the board.
    fn holding(&self, pos: &Position) -> Option<Arc<Tablebase>> {
        self.databases
            .get(pos.rules())
            .filter(|tablebase| pos.board_seeds() <= tablebase.max_seeds())
    }
}

impl<P: Player> Player for Tablebased<P> {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let proved = self.proved_move(game);
        self.from_database = proved.is_some();
        proved.or_else(|| self.inner.choose(game))
    }

    fn play(&mut self, game: &mut Game) -> Option<Played> {
        match self.proved_move(game) {
            Some(mv) => {
                self.from_database = true;
                Some(Played {
                    mv,
                    report: game.play(mv),
                })
            }
            None => {
                self.from_database = false;
                self.inner.play(game)
            }
        }
    }

    /// The inner player's, where no database holds the position; else
    /// `None`, for the caller to settle the game and call
    /// [`Player::play`].
    fn play_unsettled(&mut self, game: &mut Game) -> Option<(Move, [u32; 2])> {
        if self.holding(game.position()).is_some() {
            return None;
        }
        self.from_database = false;
        self.inner.play_unsettled(game)
    }

    fn name(&self) -> String {
        self.inner.name()
    }

    fn limit_time(&mut self, time: Option<Duration>) {
        self.inner.limit_time(time);
    }

    /// The inner player's last search; `None` after a database's move.
    fn info(&self) -> Option<SearchInfo> {
        if self.from_database {
            None
        } else {
            self.inner.info()
        }
    }
}

/// A boxed player is a player: [`Tablebased`] wraps the players
/// [`crate::PlayerSpec::build`] makes.
impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        (**self).choose(game)
    }

    fn play(&mut self, game: &mut Game) -> Option<Played> {
        (**self).play(game)
    }

    fn play_unsettled(&mut self, game: &mut Game) -> Option<(Move, [u32; 2])> {
        (**self).play_unsettled(game)
    }

    fn name(&self) -> String {
        (**self).name()
    }

    fn limit_time(&mut self, time: Option<Duration>) {
        (**self).limit_time(time);
    }

    fn info(&self) -> Option<SearchInfo> {
        (**self).info()
    }
}
