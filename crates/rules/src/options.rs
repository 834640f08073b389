//! Which game is played and how: the game ids, the variant options and the
//! rules they make together.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::MAX_HOLES;
use crate::descriptor::{DESCRIPTORS, Descriptor, Direction, Feeding};
use crate::game::EndReason;
use crate::side::{Dir, Hole, Side};
use crate::sow::{DEFAULT_LAP_BUDGET, SowRules, next_open};
use mancala_prose::{closest, did_you_mean, shorten};

/// The games, by the ids records and tools spell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GameId {
    #[serde(rename = "olinda-keliya")]
    OlindaKeliya,
    #[serde(rename = "olowuka")]
    Olowuka,
    #[serde(rename = "pallankuzhi")]
    Pallankuzhi,
    #[serde(rename = "rio-kadalis")]
    RioKadalis,
    #[serde(rename = "kalah")]
    Kalah,
    #[serde(rename = "oware")]
    Oware,
}

impl GameId {
    /// Every game, in the order of the descriptor table; every per-game
    /// array takes its length from this one.
    pub const ALL: [GameId; 6] = [
        GameId::OlindaKeliya,
        GameId::Olowuka,
        GameId::Pallankuzhi,
        GameId::RioKadalis,
        GameId::Kalah,
        GameId::Oware,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameId::OlindaKeliya => "olinda-keliya",
            GameId::Olowuka => "olowuka",
            GameId::Pallankuzhi => "pallankuzhi",
            GameId::RioKadalis => "rio-kadalis",
            GameId::Kalah => "kalah",
            GameId::Oware => "oware",
        }
    }

    /// What makes the game what it is.
    #[must_use]
    pub fn descriptor(self) -> &'static Descriptor {
        &DESCRIPTORS[self as usize]
    }

    /// Whether the game is a match of rounds with refills and closed holes.
    #[must_use]
    pub fn has_rounds(self) -> bool {
        self.descriptor().refill.is_some()
    }

    /// Whether captured seeds go to stores on the board (the diagram draws them)
    /// rather than being kept off the board.
    #[must_use]
    pub fn has_stores(self) -> bool {
        self.descriptor().counter.on_board()
    }

    /// The seed-count values a `seeds=N` option may take (the default included).
    #[must_use]
    pub fn seed_choices(self) -> &'static [u8] {
        self.descriptor().seed_choices
    }

    #[must_use]
    pub fn default_seeds(self) -> u8 {
        self.descriptor().default_seeds
    }

    /// The flag options that apply to this game.
    #[must_use]
    pub fn allows(self, opt: Opt) -> bool {
        self.descriptor().allows(opt)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGameIdError(pub String);

impl fmt::Display for ParseGameIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game id `{}`{}",
            shorten(&self.0),
            did_you_mean(&self.0, GameId::ALL.map(GameId::as_str))
        )
    }
}

impl std::error::Error for ParseGameIdError {}

impl FromStr for GameId {
    type Err = ParseGameIdError;

    fn from_str(s: &str) -> Result<GameId, ParseGameIdError> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| ParseGameIdError(s.to_owned()))
    }
}

/// A variant option that is on or off (seed counts are separate: `seeds=N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opt {
    SameDirection,
    SeriesCapture,
    SkipOrigin,
    EndlessEndsGame,
    NoRepetitionRule,
    PlayToEnd,
    PasuToOwner,
    NoPasuOnLastSeed,
    CaptureOpposite,
    SingleRound,
    Clockwise,
    FiveHoles,
    EmptyCapture,
    GrandSlamTakesAll,
    GrandSlamLeavesOne,
}

impl Opt {
    /// Every flag, in canonical (printing) order.
    pub const ALL: [Opt; 15] = [
        Opt::SameDirection,
        Opt::SeriesCapture,
        Opt::SkipOrigin,
        Opt::EndlessEndsGame,
        Opt::NoRepetitionRule,
        Opt::PlayToEnd,
        Opt::PasuToOwner,
        Opt::NoPasuOnLastSeed,
        Opt::CaptureOpposite,
        Opt::SingleRound,
        Opt::Clockwise,
        Opt::FiveHoles,
        Opt::EmptyCapture,
        Opt::GrandSlamTakesAll,
        Opt::GrandSlamLeavesOne,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Opt::SameDirection => "same-direction",
            Opt::SeriesCapture => "series-capture",
            Opt::SkipOrigin => "skip-origin",
            Opt::EndlessEndsGame => "endless-ends-game",
            Opt::NoRepetitionRule => "no-repetition-rule",
            Opt::PlayToEnd => "play-to-end",
            Opt::PasuToOwner => "pasu-to-owner",
            Opt::NoPasuOnLastSeed => "no-pasu-on-last-seed",
            Opt::CaptureOpposite => "capture-opposite",
            Opt::SingleRound => "single-round",
            Opt::Clockwise => "clockwise",
            Opt::FiveHoles => "five-holes",
            Opt::EmptyCapture => "empty-capture",
            Opt::GrandSlamTakesAll => "grand-slam-takes-all",
            Opt::GrandSlamLeavesOne => "grand-slam-leaves-one",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of variant options as a record writes them, e.g. `seeds=5 series-capture`.
/// Parsing knows every option name but not which game it applies to:
/// [`Rules::new`] checks that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    flags: u16,
    /// `seeds=N` (0: not given); with `holes`, two bytes, as an
    /// `Option<u8>` alone would take: a [`crate::Position`] holds the
    /// options, and is copied on every move a search tries.
    seeds: u8,
    /// `holes=M`: holes per row (0: not given), where the game takes it.
    holes: u8,
    /// `rounds=N`: the match also ends after round N.
    rounds: Option<u32>,
}

impl Options {
    #[must_use]
    pub const fn new() -> Options {
        Options {
            flags: 0,
            seeds: 0,
            holes: 0,
            rounds: None,
        }
    }

    #[must_use]
    pub const fn has(self, opt: Opt) -> bool {
        self.flags & opt.bit() != 0
    }

    #[must_use]
    pub const fn with(mut self, opt: Opt) -> Options {
        self.flags |= opt.bit();
        self
    }

    #[must_use]
    pub const fn with_seeds(mut self, seeds: u8) -> Options {
        self.seeds = seeds;
        self
    }

    /// The `seeds=N` option, if given.
    #[must_use]
    pub const fn seeds(self) -> Option<u8> {
        if self.seeds == 0 {
            None
        } else {
            Some(self.seeds)
        }
    }

    /// Sets `holes=M` (at least 1; [`Rules::new`] checks the game's range).
    #[must_use]
    pub const fn with_holes(mut self, holes: u8) -> Options {
        self.holes = holes;
        self
    }

    /// The `holes=M` option, if given.
    #[must_use]
    pub const fn holes(self) -> Option<u8> {
        if self.holes == 0 {
            None
        } else {
            Some(self.holes)
        }
    }

    /// Sets `rounds=N`; `rounds` must be at least 1 ([`Rules::new`] refuses 0).
    #[must_use]
    pub const fn with_rounds(mut self, rounds: u32) -> Options {
        self.rounds = Some(rounds);
        self
    }

    /// The `rounds=N` option, if given: the last round of a match.
    #[must_use]
    pub const fn rounds(self) -> Option<u32> {
        self.rounds
    }

    pub fn flags(self) -> impl Iterator<Item = Opt> {
        Opt::ALL.into_iter().filter(move |o| self.has(*o))
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.flags == 0 && self.seeds == 0 && self.holes == 0 && self.rounds.is_none()
    }

    /// Adds one option word (`series-capture`, `seeds=5`, `holes=7`, `rounds=3`).
    pub fn insert_word(&mut self, word: &str) -> Result<(), ParseOptionError> {
        if let Some(n) = word.strip_prefix("holes=") {
            let n: u8 = match count(n) {
                Some(n) if (1..=MAX_HOLES as u8).contains(&n) => n,
                _ => return Err(ParseOptionError::BadHoles(word.to_owned())),
            };
            if self.holes != 0 {
                return Err(ParseOptionError::Repeated("holes".to_owned()));
            }
            self.holes = n;
            return Ok(());
        }
        if let Some(n) = word.strip_prefix("seeds=") {
            let n: u8 = match count(n) {
                Some(n) if (1..=99).contains(&n) => n,
                _ => return Err(ParseOptionError::BadSeeds(word.to_owned())),
            };
            if self.seeds != 0 {
                return Err(ParseOptionError::Repeated("seeds".to_owned()));
            }
            self.seeds = n;
            return Ok(());
        }
        if let Some(n) = word.strip_prefix("rounds=") {
            let n: u32 = match count(n) {
                Some(n) if n >= 1 => n,
                _ => return Err(ParseOptionError::BadRounds(word.to_owned())),
            };
            if self.rounds.is_some() {
                return Err(ParseOptionError::Repeated("rounds".to_owned()));
            }
            self.rounds = Some(n);
            return Ok(());
        }
        let opt = Opt::ALL
            .into_iter()
            .find(|o| o.as_str() == word)
            .ok_or_else(|| ParseOptionError::Unknown(word.to_owned()))?;
        if self.has(opt) {
            return Err(ParseOptionError::Repeated(word.to_owned()));
        }
        *self = self.with(opt);
        Ok(())
    }
}

/// The number of a `seeds=N` or `rounds=N` word: decimal digits only (no
/// sign), or `None`.
fn count<T: FromStr>(digits: &str) -> Option<T> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl fmt::Display for Options {
    /// Canonical form: `holes=M` first, then `seeds=N`, then `rounds=N`,
    /// then the flags in [`Opt::ALL`] order, separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if self.holes != 0 {
            write!(f, "holes={}", self.holes)?;
            sep = " ";
        }
        if let Some(n) = self.seeds() {
            write!(f, "{sep}seeds={n}")?;
            sep = " ";
        }
        if let Some(n) = self.rounds {
            write!(f, "{sep}rounds={n}")?;
            sep = " ";
        }
        for opt in self.flags() {
            write!(f, "{sep}{opt}")?;
            sep = " ";
        }
        Ok(())
    }
}

impl FromStr for Options {
    type Err = ParseOptionError;

    /// Whitespace-separated option words, in any order.
    fn from_str(s: &str) -> Result<Options, ParseOptionError> {
        let mut options = Options::new();
        for word in s.split_whitespace() {
            options.insert_word(word)?;
        }
        Ok(options)
    }
}

impl Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Options, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The option words that take a count, `seeds=N` and `rounds=N`.
const COUNTED: [&str; 2] = ["seeds", "rounds"];

/// The option word an unknown `word` was likely meant to be: a misspelt
/// flag option, a misspelt counted word with its count kept (`seedz=5`:
/// `seeds=5`), or a counted word without its count (`seeds`: `seeds=N`).
fn near_option(word: &str) -> Option<String> {
    if let Some((key, count)) = word.split_once('=') {
        return closest(key, COUNTED).map(|near| format!("{near}={count}"));
    }
    closest(word, Opt::ALL.iter().map(|o| o.as_str()))
        .map(str::to_owned)
        .or_else(|| closest(word, COUNTED).map(|near| format!("{near}=N")))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseOptionError {
    Unknown(String),
    BadSeeds(String),
    BadHoles(String),
    BadRounds(String),
    Repeated(String),
}

impl fmt::Display for ParseOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseOptionError::Unknown(w) => {
                write!(f, "unknown option `{}`", shorten(w))?;
                match near_option(w) {
                    Some(near) => write!(f, " (did you mean `{}`?)", shorten(&near)),
                    None => {
                        let names: Vec<&str> = Opt::ALL.iter().map(|o| o.as_str()).collect();
                        write!(
                            f,
                            " (options: seeds=N, holes=M, rounds=N, {})",
                            names.join(", ")
                        )
                    }
                }
            }
            ParseOptionError::BadSeeds(w) => {
                write!(
                    f,
                    "bad seed count in `{}` (expected seeds=N with N from 1 to 99)",
                    shorten(w)
                )
            }
            ParseOptionError::BadHoles(w) => {
                write!(
                    f,
                    "bad hole count in `{}` (expected holes=M with M from 1 to {MAX_HOLES})",
                    shorten(w)
                )
            }
            ParseOptionError::BadRounds(w) => {
                write!(
                    f,
                    "bad round count in `{}` (expected rounds=N with N from 1 to 4294967295: the match ends after round N)",
                    shorten(w)
                )
            }
            ParseOptionError::Repeated(w) => write!(f, "option `{}` given twice", shorten(w)),
        }
    }
}

impl std::error::Error for ParseOptionError {}

/// An option that does not apply to the game it was given for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    NotForGame {
        game: GameId,
        option: String,
    },
    Seeds {
        game: GameId,
        seeds: u8,
    },
    Holes {
        game: GameId,
        holes: u8,
    },
    /// `rounds=0` (built with [`Options::with_rounds`]; parsing refuses it).
    ZeroRounds,
    /// `rounds=N` with `single-round`.
    RoundsWithSingleRound {
        rounds: u32,
    },
    ZeroBudget,
    /// Two options that say different things about the same rule.
    Conflicting {
        first: Opt,
        second: Opt,
    },
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionsError::NotForGame { game, option } => {
                write!(f, "option `{option}` does not apply to {game}")
            }
            OptionsError::Seeds { game, seeds } => {
                let choices = game.seed_choices();
                if choices.is_empty() {
                    write!(f, "{game} has no seed-count option (seeds={seeds} given)")
                } else {
                    let list: Vec<String> = choices.iter().map(u8::to_string).collect();
                    write!(
                        f,
                        "{game} is played with {} seeds per hole, not {seeds}",
                        list.join(", ")
                    )
                }
            }
            OptionsError::Holes { game, holes } => {
                let choices = game.descriptor().hole_choices;
                match (choices.first(), choices.last()) {
                    (Some(low), Some(high)) => write!(
                        f,
                        "{game} is played with {low} to {high} holes a row, not {holes}"
                    ),
                    _ => write!(f, "{game} has no hole-count option (holes={holes} given)"),
                }
            }
            OptionsError::ZeroRounds => {
                f.write_str("option `rounds=0`: a match has at least one round (rounds=N, N >= 1)")
            }
            OptionsError::RoundsWithSingleRound { rounds } => write!(
                f,
                "options `rounds={rounds}` and `single-round` cannot go together: single-round plays one round and no match, rounds={rounds} a match of at most {rounds} rounds"
            ),
            OptionsError::ZeroBudget => f.write_str("the lap budget must be at least 1"),
            OptionsError::Conflicting { first, second } => write!(
                f,
                "options `{first}` and `{second}` cannot go together: each says what a grand slam does"
            ),
        }
    }
}

impl std::error::Error for OptionsError {}

/// A game with its options checked: everything the sowing engine needs to know
/// about the rules, small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    game: GameId,
    options: Options,
    seeds: u8,
    lap_budget: u32,
    /// What sowing needs, the holes per row among it.
    sowing: SowRules,
    /// The game ends once a side has captured this many; 0: never (no
    /// goal, or `play-to-end`).
    goal: u8,
    /// [`Rules::CHOOSES_DIRECTION`], [`Rules::CLOCKWISE`], [`Rules::FEEDING`]:
    /// one byte, so that a [`crate::Position`] stays 60 bytes.
    traits: u8,
}

impl Rules {
    pub fn new(game: GameId, options: Options) -> Result<Rules, OptionsError> {
        for opt in options.flags() {
            if !game.allows(opt) {
                return Err(OptionsError::NotForGame {
                    game,
                    option: opt.as_str().to_owned(),
                });
            }
        }
        if options.has(Opt::GrandSlamTakesAll) && options.has(Opt::GrandSlamLeavesOne) {
            return Err(OptionsError::Conflicting {
                first: Opt::GrandSlamTakesAll,
                second: Opt::GrandSlamLeavesOne,
            });
        }
        if let Some(rounds) = options.rounds() {
            if !game.has_rounds() {
                return Err(OptionsError::NotForGame {
                    game,
                    option: format!("rounds={rounds}"),
                });
            }
            if rounds == 0 {
                return Err(OptionsError::ZeroRounds);
            }
            if options.has(Opt::SingleRound) {
                return Err(OptionsError::RoundsWithSingleRound { rounds });
            }
        }
        let seeds = match options.seeds() {
            None => game.default_seeds(),
            Some(n) if game.seed_choices().contains(&n) => n,
            Some(n) => return Err(OptionsError::Seeds { game, seeds: n }),
        };
        let descriptor = game.descriptor();
        let holes = match options.holes() {
            Some(n) if descriptor.hole_choices.contains(&n) => n,
            Some(n) => return Err(OptionsError::Holes { game, holes: n }),
            None if options.has(Opt::FiveHoles) => 5,
            None => descriptor.holes,
        };
        let goal = match descriptor.goal {
            Some(goal) if !options.has(Opt::PlayToEnd) => goal,
            _ => 0,
        };
        let mut traits = 0;
        if descriptor.direction == Direction::ChosenByFirstMove && !options.has(Opt::SameDirection)
        {
            traits |= Rules::CHOOSES_DIRECTION;
        }
        if options.has(Opt::Clockwise) {
            traits |= Rules::CLOCKWISE;
        }
        match descriptor.feeding {
            Feeding::None => {}
            Feeding::WhenPossible => traits |= Rules::FEEDING,
            Feeding::OrGameEnds => traits |= Rules::FEEDING | Rules::FEED_OR_END,
        }
        if descriptor.ends_on_empty_row {
            traits |= Rules::ENDS_ON_EMPTY_ROW;
        }
        if descriptor.repetition_at == 2 {
            traits |= Rules::REPEAT_ENDS_AT_SECOND;
        }
        if descriptor.extra_turn {
            traits |= Rules::EXTRA_TURN;
        }
        Ok(Rules {
            game,
            options,
            seeds,
            lap_budget: DEFAULT_LAP_BUDGET,
            sowing: SowRules::new(descriptor, options, holes),
            goal,
            traits,
        })
    }

    /// The first move chooses the direction.
    const CHOOSES_DIRECTION: u8 = 1;
    /// Every move sows clockwise when no choice is made.
    const CLOCKWISE: u8 = 2;
    /// The feeding rule applies.
    const FEEDING: u8 = 4;
    /// The feeding rule is [`Feeding::OrGameEnds`].
    const FEED_OR_END: u8 = 8;
    /// The game ends as soon as either row is empty.
    const ENDS_ON_EMPTY_ROW: u8 = 16;
    /// A position's second occurrence ends the game (not its third).
    const REPEAT_ENDS_AT_SECOND: u8 = 32;
    /// The last seed in the mover's own store earns another turn.
    const EXTRA_TURN: u8 = 64;

    /// The standard rules of a game, no options.
    #[must_use]
    pub fn standard(game: GameId) -> Rules {
        match Rules::new(game, Options::new()) {
            Ok(rules) => rules,
            Err(_) => unreachable!("no options always apply"),
        }
    }

    /// Sets the lap budget B (spec/rules/common.md §4).
    pub fn with_lap_budget(mut self, laps: u32) -> Result<Rules, OptionsError> {
        if laps == 0 {
            return Err(OptionsError::ZeroBudget);
        }
        self.lap_budget = laps;
        Ok(self)
    }

    #[must_use]
    pub const fn game(self) -> GameId {
        self.game
    }

    #[must_use]
    pub const fn options(self) -> Options {
        self.options
    }

    #[must_use]
    pub const fn has(self, opt: Opt) -> bool {
        self.options.has(opt)
    }

    /// Holes per row.
    #[must_use]
    pub const fn holes(self) -> usize {
        self.sowing.holes() as usize
    }

    /// Seeds per hole at the start (and per refilled hole between rounds).
    #[must_use]
    pub const fn seeds_per_hole(self) -> u8 {
        self.seeds
    }

    /// All the seeds of the game.
    #[must_use]
    pub const fn total_seeds(self) -> u32 {
        2 * self.sowing.holes() as u32 * self.seeds as u32
    }

    /// What sowing needs of these rules.
    pub(crate) const fn sowing(&self) -> &SowRules {
        &self.sowing
    }

    #[must_use]
    pub const fn lap_budget(self) -> u32 {
        self.lap_budget
    }

    /// Whether the first player chooses a direction with the first move
    /// (Olinda Keliya without `same-direction`).
    #[must_use]
    pub const fn chooses_direction(self) -> bool {
        self.traits & Rules::CHOOSES_DIRECTION != 0
    }

    /// Whether the feeding rule applies: a move must leave the opponent a
    /// seed whenever some move can.
    #[must_use]
    pub const fn feeding(self) -> bool {
        self.traits & Rules::FEEDING != 0
    }

    /// Whether a player whose opponent's row is empty must give them seeds,
    /// and the game ends when they cannot ([`Feeding::OrGameEnds`]).
    #[must_use]
    pub const fn feeds_or_ends(self) -> bool {
        self.traits & Rules::FEED_OR_END != 0
    }

    /// Whether the game ends as soon as either row is empty (Kalah).
    #[must_use]
    pub const fn ends_on_empty_row(self) -> bool {
        self.traits & Rules::ENDS_ON_EMPTY_ROW != 0
    }

    /// Whether a position's second occurrence ends the game (Oware), not
    /// its third.
    #[must_use]
    pub const fn repetition_ends_at_second(self) -> bool {
        self.traits & Rules::REPEAT_ENDS_AT_SECOND != 0
    }

    /// Whether a move whose last seed falls in the mover's own store earns
    /// the mover another turn (Kalah).
    #[must_use]
    pub const fn extra_turn(self) -> bool {
        self.traits & Rules::EXTRA_TURN != 0
    }

    /// Whether no position can occur twice in a game (Kalah), so that no
    /// history need be kept for the repetition rule. The stores lie on
    /// the track and every move is a single lap: a move that puts no seed
    /// into a store (none sown there, none captured) only moves seeds
    /// forward along the mover's own row, as a longer lap would pass the
    /// store. The seeds in the stores never fall, and while they stay the
    /// same every move moves a seed forward, so no position comes back.
    #[must_use]
    #[inline]
    pub const fn never_repeats(self) -> bool {
        self.sowing.store_track()
    }

    /// The game's goal (Olowuka's 25, unless `play-to-end`): whether a move that left
    /// `stores` (South's, North's) ends the game.
    #[must_use]
    #[inline]
    pub fn ends_at_twenty_five(self, stores: [u8; 2]) -> bool {
        self.goal != 0 && stores[0].max(stores[1]) >= self.goal
    }

    /// Whether the game is played in rounds that continue after the first.
    #[must_use]
    pub fn plays_rounds(self) -> bool {
        self.game.has_rounds() && !self.options.has(Opt::SingleRound)
    }

    /// The last round of a match under `rounds=N`, if any.
    #[must_use]
    pub const fn last_round(self) -> Option<u32> {
        self.options.rounds()
    }

    /// How a match (see [`Rules::plays_rounds`]) ends after round `round`
    /// ended with `holdings` (South's, North's), in the rules' order: a
    /// player who cannot fill a single hole ends it first
    /// ([`EndReason::CannotRefill`]), then `rounds=N` after round N
    /// ([`EndReason::RoundsPlayed`]). `None` when the next round starts.
    #[must_use]
    pub fn match_end(self, round: u32, holdings: [u32; 2]) -> Option<EndReason> {
        let per = u32::from(self.seeds);
        if holdings.iter().any(|&held| held < per) {
            Some(EndReason::CannotRefill)
        } else if self.last_round().is_some_and(|last| round >= last) {
            Some(EndReason::RoundsPlayed)
        } else {
            None
        }
    }

    /// The open hole after `hole` on the track sown in `dir`, where
    /// `is_closed` tells the closed holes: the hole a seed sown from `hole`
    /// falls into, and the "next hole" of a next-hole relay. (`hole` itself
    /// when every other hole is closed.)
    #[must_use]
    pub fn next_open(self, hole: Hole, dir: Dir, is_closed: impl Fn(Hole) -> bool) -> Hole {
        let n = self.sowing.holes();
        let hole_at = |i: u8| {
            if i < n {
                Hole::new(Side::South, i)
            } else {
                Hole::new(Side::North, i - n)
            }
        };
        let closed = (0..2 * n)
            .filter(|&i| is_closed(hole_at(i)))
            .fold(0u16, |bits, i| bits | 1 << i);
        let track = match hole.side {
            Side::South => hole.index,
            Side::North => n + hole.index,
        };
        // `hole` counts as open, so that the search ends.
        hole_at(next_open(track, 2 * n, dir, closed & !(1 << track)))
    }

    /// The direction every move sows in when no choice is made.
    #[must_use]
    pub const fn fixed_dir(self) -> Dir {
        if self.traits & Rules::CLOCKWISE != 0 {
            Dir::Cw
        } else {
            Dir::Ccw
        }
    }
}
