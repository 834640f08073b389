//! One descriptor per game: every fact that makes a game what it is, in one
//! table. Everything that asks "which game is this" reads it — the options a
//! game takes, the sowing engine, refills and the feeding rule, set-up
//! checks, the diagrams — so behaviour is chosen by these explicit values,
//! never by recognising a game from a combination of others. A fifth game is
//! a new [`GameId`] and a new row here (and a new mechanism only where it
//! brings one).

use crate::options::{GameId, Opt};

/// What makes a game what it is, before any variant option.
#[derive(Debug, PartialEq, Eq)]
pub struct Descriptor {
    pub id: GameId,
    /// The game's name as people write it.
    pub name: &'static str,
    /// Where it is played.
    pub origin: &'static str,
    /// Holes per row (`five-holes`, where the game takes it, makes 5).
    pub holes: u8,
    /// Seeds per hole without `seeds=N`.
    pub default_seeds: u8,
    /// The values `seeds=N` may take, the default among them; empty when the
    /// game has no such option.
    pub seed_choices: &'static [u8],
    /// What each side's counter holds and how it is drawn.
    pub counter: Counter,
    /// Who decides the sowing direction.
    pub direction: Direction,
    /// Which hole, if any, a lap's end relays from.
    pub relay: Relay,
    /// What happens when a drop makes a hole hold exactly four.
    pub fours: Fours,
    /// What the mover captures when the move stops.
    pub capture: EndCapture,
    /// A move must leave the opponent a seed whenever some move can.
    pub feeding: bool,
    /// The game ends as soon as a side has captured this many (unless
    /// `play-to-end`).
    pub goal: Option<u8>,
    /// A match of rounds, each row refilled from this end; `None`: a single
    /// game.
    pub refill: Option<RefillFrom>,
    /// The flag options this game takes besides those of
    /// [`Descriptor::EVERY_GAME`] (and `single-round` for a match).
    pub own_options: &'static [Opt],
}

/// Each side's counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    /// A store on the board, at the row's end, drawn as a cell.
    Store,
    /// Seeds captured and kept off the board.
    Captured,
    /// Winnings kept off the board, with the surplus kept aside between
    /// rounds.
    Winnings,
}

impl Counter {
    /// The word a diagram labels the counter with.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Counter::Store => "store",
            Counter::Captured => "captured",
            Counter::Winnings => "winnings",
        }
    }

    /// Whether the counter is a cell of the board.
    #[must_use]
    pub const fn on_board(self) -> bool {
        matches!(self, Counter::Store)
    }
}

/// Who decides the sowing direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The first move chooses (`E:ccw`, `E:cw`) and the other player sows
    /// the other way; `same-direction`: both counter-clockwise, no choice.
    ChosenByFirstMove,
    /// Both sow counter-clockwise (`clockwise`, where the game takes it:
    /// both clockwise).
    Fixed,
}

/// Which hole, if any, a lap's end relays from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relay {
    /// The hole after the lap's last, when it holds seeds; when it is empty
    /// the move stops.
    NextHole,
    /// The landing hole, when it holds at least this many seeds (the last
    /// one counted).
    LandingHoleAtLeast(u8),
    /// The landing hole, unless the last seed fell into a hole that was
    /// empty just before it dropped.
    LandingHoleUnlessEmpty,
}

/// What happens when a drop makes a hole hold exactly four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fours {
    /// Nothing.
    Kept,
    /// Pasu: the sower takes them at once and sowing goes on
    /// (`pasu-to-owner`: the row's owner takes them; `no-pasu-on-last-seed`:
    /// not on a lap's last seed).
    TakenBySower,
    /// Mid-lap the row's owner takes them and sowing goes on; made by the
    /// lap's last seed (binikh) the mover takes them and the move ends.
    OwnerMidLapMoverLast,
}

/// What the mover captures when the move stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCapture {
    /// Nothing.
    Nothing,
    /// The hole after the empty one that stopped a next-hole relay, in
    /// either row (`series-capture`: on while the holes alternate empty,
    /// non-empty).
    BeyondEmpty,
    /// Pussa: as [`EndCapture::BeyondEmpty`] (`capture-opposite`: and the
    /// hole facing it).
    Pussa,
    /// The landing hole and the holes before it holding 2 or 3, in the
    /// opponent's row only, leaving one hole when it would empty that row
    /// (grand slam).
    ChainOfTwosAndThrees,
}

/// The end of a row a refill starts from, so closed holes are at the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefillFrom {
    /// The owner's left (`A` / `a` first): closed holes are a row's last.
    Left,
    /// The owner's right: closed holes are a row's first.
    Right,
}

impl RefillFrom {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RefillFrom::Left => "left",
            RefillFrom::Right => "right",
        }
    }
}

impl Descriptor {
    /// The flag options every game takes.
    pub const EVERY_GAME: [Opt; 3] = [Opt::SkipOrigin, Opt::EndlessEndsGame, Opt::NoRepetitionRule];

    /// Whether the game takes the flag `opt`.
    #[must_use]
    pub fn allows(&self, opt: Opt) -> bool {
        Descriptor::EVERY_GAME.contains(&opt)
            || (opt == Opt::SingleRound && self.refill.is_some())
            || self.own_options.contains(&opt)
    }
}

/// The descriptors, in [`GameId::ALL`] order.
pub(crate) static DESCRIPTORS: [Descriptor; 4] = [
    Descriptor {
        id: GameId::OlindaKeliya,
        name: "Olinda Keliya",
        origin: "Sri Lanka",
        holes: 7,
        default_seeds: 4,
        seed_choices: &[4, 5, 6, 7],
        counter: Counter::Store,
        direction: Direction::ChosenByFirstMove,
        relay: Relay::NextHole,
        fours: Fours::Kept,
        capture: EndCapture::BeyondEmpty,
        feeding: false,
        goal: None,
        refill: None,
        own_options: &[Opt::SameDirection, Opt::SeriesCapture],
    },
    Descriptor {
        id: GameId::Olowuka,
        name: "Olowuka",
        origin: "Yoruba, Nigeria",
        holes: 6,
        default_seeds: 4,
        seed_choices: &[],
        counter: Counter::Captured,
        direction: Direction::Fixed,
        relay: Relay::LandingHoleAtLeast(4),
        fours: Fours::Kept,
        capture: EndCapture::ChainOfTwosAndThrees,
        feeding: true,
        goal: Some(25),
        refill: None,
        own_options: &[Opt::PlayToEnd],
    },
    Descriptor {
        id: GameId::Pallankuzhi,
        name: "Pallankuzhi",
        origin: "Tamil Nadu, Sri Lanka",
        holes: 7,
        default_seeds: 6,
        seed_choices: &[4, 5, 6],
        counter: Counter::Store,
        direction: Direction::Fixed,
        relay: Relay::NextHole,
        fours: Fours::TakenBySower,
        capture: EndCapture::Pussa,
        feeding: false,
        goal: None,
        refill: Some(RefillFrom::Left),
        own_options: &[
            Opt::PasuToOwner,
            Opt::NoPasuOnLastSeed,
            Opt::CaptureOpposite,
        ],
    },
    Descriptor {
        id: GameId::RioKadalis,
        name: "Rio Kadalis",
        origin: "Somalia",
        holes: 6,
        default_seeds: 4,
        seed_choices: &[],
        counter: Counter::Winnings,
        direction: Direction::Fixed,
        relay: Relay::LandingHoleUnlessEmpty,
        fours: Fours::OwnerMidLapMoverLast,
        capture: EndCapture::Nothing,
        feeding: false,
        goal: None,
        refill: Some(RefillFrom::Right),
        own_options: &[Opt::Clockwise, Opt::FiveHoles],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_in_game_id_order() {
        for (descriptor, id) in DESCRIPTORS.iter().zip(GameId::ALL) {
            assert_eq!(descriptor.id, id);
            assert_eq!(id.descriptor().id, id);
        }
    }

    #[test]
    fn seed_choices_hold_the_default() {
        for d in &DESCRIPTORS {
            assert!(
                d.seed_choices.is_empty() || d.seed_choices.contains(&d.default_seeds),
                "{}",
                d.name
            );
        }
    }
}
