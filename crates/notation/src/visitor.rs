//! What a reader of a game's text hands over, in the order of the text:
//! the [`Visitor`] trait (the shape of pgn-reader's), the typed value of a
//! tag ([`TagValue`]) and a visitor's answer to a variation ([`Skip`]).
//! [`crate::visit_game`] drives it over MGN, [`crate::visit_json_game`]
//! over JSON.

use std::borrow::Cow;
use std::ops::{ControlFlow, Range};

use mancala_rules::{EndReason, GameId, Move, Options, Setup};

use crate::annotation::Nag;
use crate::record::{GameResult, Item};

/// A tag's value as the notation reads it: the tags it interprets come
/// checked and typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagValue<'a> {
    Game(GameId),
    Options(Options),
    SetUp(Setup),
    Result(GameResult),
    Termination(EndReason),
    /// Any other tag, standard (`Event` … `North`) or not: free text,
    /// unescaped.
    Text {
        name: &'a str,
        value: Cow<'a, str>,
    },
}

/// Lets go of `item`. Most items are moves, which own nothing: their drop
/// glue, which `Item`'s variations keep out of line (a recursive type's),
/// is passed over for them.
#[inline(always)]
pub fn forget_move(item: Item) {
    if let Item::Move { .. } = item {
        std::mem::forget(item);
    }
}

/// Whether a visitor passes over a variation ([`Visitor::begin_variation`]),
/// as pgn-reader's visitors do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skip(pub bool);

/// What [`crate::visit_game`] hands over as it reads a game, in the order of the
/// text (the shape of pgn-reader's visitor). Every method does nothing by
/// default, so a visitor writes only those it needs. Any method may stop
/// the reading with `ControlFlow::Break`: nothing more is read or checked.
pub trait Visitor {
    /// A tag line (`line`), its value (`value`: the span inside the quotes).
    fn tag(
        &mut self,
        _tag: TagValue<'_>,
        _line: Range<usize>,
        _value: Range<usize>,
    ) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The tags are over (`header`: their span, empty when there are none);
    /// the movetext follows.
    fn movetext(&mut self, _header: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A move, round marker or comment of the movetext (of the main line,
    /// or of a variation the visitor entered).
    #[inline(always)]
    fn item(&mut self, item: Item, _span: Range<usize>) -> ControlFlow<()> {
        forget_move(item);
        ControlFlow::Continue(())
    }
    /// A move read from MGN text (the commonest item): by default handed
    /// over as an [`Item::Move`] to [`Visitor::item`]. A visitor that takes
    /// it here gets its parts as they were read, not built into an item.
    #[inline(always)]
    fn mv(&mut self, mv: Move, captured: Option<u32>, span: Range<usize>) -> ControlFlow<()> {
        self.item(Item::Move { mv, captured }, span)
    }
    /// A NAG (`!`, `$14`; `span` is its suffix or token): it annotates the
    /// move before it.
    fn nag(&mut self, _nag: Nag, _span: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A variation opens (`span`: its `(`): another line in place of the
    /// last move read, from the position before that move. `Skip(true)`,
    /// the default, passes over it: nothing inside it is handed over, nor
    /// its end, so a visitor that knows nothing of variations sees the
    /// main line alone. `Skip(false)` enters it: its items follow, then
    /// [`Visitor::end_variation`].
    fn begin_variation(&mut self, _span: Range<usize>) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }
    /// The variation last entered closes (`span`: its `)`); the line it
    /// stands in goes on.
    fn end_variation(&mut self, _span: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The result closing the movetext, once the whole text is known to be
    /// a well-formed game (so last: a syntax error anywhere comes first).
    fn result(&mut self, _result: GameResult, _span: Range<usize>) {}
}
