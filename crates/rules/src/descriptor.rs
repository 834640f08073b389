//! One descriptor per game: every fact that makes a game what it is, in one
//! table. Everything that asks "which game is this" reads it — the options a
//! game takes, the sowing engine, refills and the feeding rule, set-up
//! checks, the diagrams — so behaviour is chosen by these explicit values,
//! never by recognising a game from a combination of others.
//!
//! # What "a game is one row" covers
//!
//! A new game is a new [`GameId`] and a new row here, and nothing else,
//! when every rule it has is a value of a field below that the code
//! already acts on: a row of 1 to 7 holes, the seeds per hole, a counter
//! kept as a store, captures or winnings, a store on the sowing track and
//! another turn for a last seed there (Kalah), who chooses the direction,
//! relay sowing from the last hole or the next ([`Relay`]) or single laps,
//! skipping the emptied hole, what a hole of four does ([`Fours`]), the
//! capture kinds of [`EndCapture`] and [`GrandSlam`], the feeding rule of
//! [`Feeding`], the end on an empty row, at the third occurrence or the
//! first repeat of a position, at a goal, and a match of rounds refilled
//! from either end ([`RefillFrom`]), with the options of [`Opt`].
//!
//! It does not cover a new mechanism: a rule no field expresses needs code
//! where the game is played, as Kalah's store on the track and its turn that
//! continues did, in the sower (`sow.rs`: the track that passes the stores,
//! the fast lanes a rule must leave), the board (`position.rs`: the side to
//! move after a move, `earns_another_turn`), the engines (`mancala-engine`'s
//! alpha-beta negates a child's value only when the side changes and counts
//! repetitions where turns do not alternate), the notation's printer (a turn
//! that continues is written under the same move number), the checker (a
//! move's `+N` is the mover's) and the diagrams (`mancala-diagram`: stores on
//! the track are drawn as cells). Examples of rules that would need such code
//! today: more than two rows, holes of different kinds (a Bao's nyumba),
//! sowing from several holes at once, captures that choose where to sow the
//! captured seeds, or a row of more than 7 holes.

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
    /// The values `holes=M` may take, the default among them; empty when
    /// the game has no such option.
    pub hole_choices: &'static [u8],
    /// Seeds per hole without `seeds=N`.
    pub default_seeds: u8,
    /// The values `seeds=N` may take, the default among them; empty when the
    /// game has no such option.
    pub seed_choices: &'static [u8],
    /// What each side's counter holds and how it is drawn.
    pub counter: Counter,
    /// Each side's store lies on the sowing track, after its own row: the
    /// mover sows into their own store and passes the opponent's.
    pub store_on_track: bool,
    /// A move whose last seed falls in the mover's own store earns the
    /// mover another turn (with [`Descriptor::store_on_track`]).
    pub extra_turn: bool,
    /// Who decides the sowing direction.
    pub direction: Direction,
    /// Which hole, if any, a lap's end relays from.
    pub relay: Relay,
    /// Every lap skips the hole it started from (as `skip-origin` makes
    /// any game do).
    pub skip_origin: bool,
    /// What happens when a drop makes a hole hold exactly four.
    pub fours: Fours,
    /// What the mover captures when the move stops.
    pub capture: EndCapture,
    /// What a chain of twos and threes does when it would take the
    /// opponent's every seed.
    pub grand_slam: GrandSlam,
    /// Whether, and how, a move must leave the opponent seeds.
    pub feeding: Feeding,
    /// The game ends as soon as either row is empty, whoever is to move.
    pub ends_on_empty_row: bool,
    /// The occurrence of a position that ends the game: 3 (the third) or
    /// 2 (the first repeat).
    pub repetition_at: u8,
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
    /// None: every move is a single lap.
    Never,
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
    /// (grand slam, see [`GrandSlam`]).
    ChainOfTwosAndThrees,
    /// The last seed fell into an empty house of the mover's own row: it
    /// and the seeds of the house facing it go to the mover's store, when
    /// that house holds any (`empty-capture`: the last seed alone
    /// otherwise).
    OppositeOfEmptyOwn,
}

/// What a capture chain does when it would take every seed of the
/// opponent's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// It leaves the chain's furthest hole (`grand-slam-leaves-one`).
    LeavesOne,
    /// It captures nothing (the move is played).
    CapturesNothing,
}

/// Whether, and how, a move must leave the opponent seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feeding {
    /// No rule.
    None,
    /// A move must leave the opponent a seed whenever some move can; when
    /// none can, any move is played.
    WhenPossible,
    /// When the opponent's row is empty, only a move that gives them seeds
    /// is legal; when none does, the player cannot move (the game ends).
    OrGameEnds,
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
pub(crate) static DESCRIPTORS: [Descriptor; GameId::ALL.len()] = [
    Descriptor {
        id: GameId::OlindaKeliya,
        name: "Olinda Keliya",
        origin: "Sri Lanka",
        holes: 7,
        hole_choices: &[],
        default_seeds: 4,
        seed_choices: &[4, 5, 6, 7],
        counter: Counter::Store,
        store_on_track: false,
        extra_turn: false,
        direction: Direction::ChosenByFirstMove,
        relay: Relay::NextHole,
        skip_origin: false,
        fours: Fours::Kept,
        capture: EndCapture::BeyondEmpty,
        grand_slam: GrandSlam::LeavesOne,
        feeding: Feeding::None,
        ends_on_empty_row: false,
        repetition_at: 3,
        goal: None,
        refill: None,
        own_options: &[Opt::SameDirection, Opt::SeriesCapture],
    },
    Descriptor {
        id: GameId::Olowuka,
        name: "Olowuka",
        origin: "Yoruba, Nigeria",
        holes: 6,
        hole_choices: &[],
        default_seeds: 4,
        seed_choices: &[],
        counter: Counter::Captured,
        store_on_track: false,
        extra_turn: false,
        direction: Direction::Fixed,
        relay: Relay::LandingHoleAtLeast(4),
        skip_origin: false,
        fours: Fours::Kept,
        capture: EndCapture::ChainOfTwosAndThrees,
        grand_slam: GrandSlam::LeavesOne,
        feeding: Feeding::WhenPossible,
        ends_on_empty_row: false,
        repetition_at: 3,
        goal: Some(25),
        refill: None,
        own_options: &[Opt::PlayToEnd],
    },
    Descriptor {
        id: GameId::Pallankuzhi,
        name: "Pallankuzhi",
        origin: "Tamil Nadu, Sri Lanka",
        holes: 7,
        hole_choices: &[],
        default_seeds: 6,
        seed_choices: &[4, 5, 6],
        counter: Counter::Store,
        store_on_track: false,
        extra_turn: false,
        direction: Direction::Fixed,
        relay: Relay::NextHole,
        skip_origin: false,
        fours: Fours::TakenBySower,
        capture: EndCapture::Pussa,
        grand_slam: GrandSlam::LeavesOne,
        feeding: Feeding::None,
        ends_on_empty_row: false,
        repetition_at: 3,
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
        hole_choices: &[],
        default_seeds: 4,
        seed_choices: &[],
        counter: Counter::Winnings,
        store_on_track: false,
        extra_turn: false,
        direction: Direction::Fixed,
        relay: Relay::LandingHoleUnlessEmpty,
        skip_origin: false,
        fours: Fours::OwnerMidLapMoverLast,
        capture: EndCapture::Nothing,
        grand_slam: GrandSlam::LeavesOne,
        feeding: Feeding::None,
        ends_on_empty_row: false,
        repetition_at: 3,
        goal: None,
        refill: Some(RefillFrom::Right),
        own_options: &[Opt::Clockwise, Opt::FiveHoles],
    },
    Descriptor {
        id: GameId::Kalah,
        name: "Kalah",
        origin: "United States, 1940s",
        holes: 6,
        hole_choices: &[1, 2, 3, 4, 5, 6, 7],
        default_seeds: 4,
        seed_choices: &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        counter: Counter::Store,
        store_on_track: true,
        extra_turn: true,
        direction: Direction::Fixed,
        relay: Relay::Never,
        skip_origin: false,
        fours: Fours::Kept,
        capture: EndCapture::OppositeOfEmptyOwn,
        grand_slam: GrandSlam::LeavesOne,
        feeding: Feeding::None,
        ends_on_empty_row: true,
        repetition_at: 3,
        goal: None,
        refill: None,
        own_options: &[Opt::EmptyCapture],
    },
    Descriptor {
        id: GameId::Oware,
        name: "Oware",
        origin: "Ghana and West Africa, Abapa rules",
        holes: 6,
        hole_choices: &[],
        default_seeds: 4,
        seed_choices: &[],
        counter: Counter::Captured,
        store_on_track: false,
        extra_turn: false,
        direction: Direction::Fixed,
        relay: Relay::Never,
        skip_origin: true,
        fours: Fours::Kept,
        capture: EndCapture::ChainOfTwosAndThrees,
        grand_slam: GrandSlam::CapturesNothing,
        feeding: Feeding::OrGameEnds,
        ends_on_empty_row: false,
        repetition_at: 2,
        goal: Some(25),
        refill: None,
        own_options: &[Opt::GrandSlamTakesAll, Opt::GrandSlamLeavesOne],
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
