//! The tags' phase: what a record's tags say, and the start of the game
//! they make ([`Start`]), the one way into the movetext's phase.

use std::cell::Cell;
use std::ops::{ControlFlow, Range};

use mancala_notation::{ParsedGame, Record, Spans, StandardTags, Tag, TagValue, Visitor};
use mancala_rules::{EndReason, GameId, Options, OptionsError, Position, Rules, Setup, SetupError};

use crate::problem::{Problem, ProblemDetail};

/// The tag in which a record says the lap budget it was played under
/// (spec/notation.md §3.3): the tools read it under that budget.
pub const LAP_BUDGET_TAG: &str = mancala_notation::Record::LAP_BUDGET_TAG;

/// The lap budget a record is read under: `flag` (`--lap-budget`) when
/// given, else the record's `LapBudget` tag (`tag`), else the default.
/// `Err` holds the tag's value when it is not a lap budget.
pub fn lap_budget_of(flag: Option<u32>, tag: Option<&str>) -> Result<u32, BadLapBudget> {
    match (flag, tag) {
        (Some(budget), _) => Ok(budget),
        (None, None) => Ok(mancala_rules::DEFAULT_LAP_BUDGET),
        (None, Some(value)) => value
            .parse()
            .ok()
            .filter(|&b| b >= 1)
            .ok_or_else(|| BadLapBudget(value.to_owned())),
    }
}

/// A `LapBudget` tag's value that is not a number of laps from 1 to
/// `u32::MAX` (the value, to be quoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLapBudget(pub String);

impl std::fmt::Display for BadLapBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {LAP_BUDGET_TAG} tag must be a number of laps from 1 to {}, not `{}`",
            u32::MAX,
            mancala_prose::shorten(&self.0)
        )
    }
}

impl std::error::Error for BadLapBudget {}

/// The rules of `game` under `options` and `lap_budget`, checked. The
/// last rules made are kept, with what they were made of: the records of
/// a file mostly share them, and making them again cost some 100
/// instructions a record.
fn rules_of(game: GameId, options: Options, lap_budget: u32) -> Result<Rules, OptionsError> {
    thread_local! {
        static LAST: Cell<Option<(GameId, Options, u32, Rules)>> = const { Cell::new(None) };
    }
    if let Some((last_game, last_options, last_budget, rules)) = LAST.get()
        && (last_game, last_options, last_budget) == (game, options, lap_budget)
    {
        return Ok(rules);
    }
    let rules = Rules::new(game, options).and_then(|rules| rules.with_lap_budget(lap_budget))?;
    LAST.set(Some((game, options, lap_budget, rules)));
    Ok(rules)
}

/// The position a game under `rules` starts from: `setup`, or the standard
/// start.
fn start_of(setup: Option<&Setup>, rules: Rules) -> Result<Position, SetupError> {
    match setup {
        None => Ok(Position::new(rules)),
        Some(setup) => Position::from_setup(rules, setup),
    }
}

/// The position a record starts from.
pub fn start_position(parsed: &ParsedGame, rules: Rules) -> Result<Position, Problem> {
    start_of(parsed.record.setup.as_ref(), rules).map_err(|e| {
        let span = parsed.spans.setup.clone().unwrap_or(0..0);
        Problem::new(span, ProblemDetail::Setup(e))
    })
}

/// What a record's tags say, and where: all that its movetext is checked
/// under. The tags' phase fills it; the movetext's phase reads it, and
/// starts the replay only from the [`Start`] it makes.
#[derive(Debug, Default)]
pub(crate) struct TagsSeen {
    pub(crate) game_id: Option<GameId>,
    pub(crate) options: Options,
    setup: Option<Setup>,
    /// The `Game` tag's line.
    game_line: Option<Range<usize>>,
    /// The `Options` and `SetUp` tags' values.
    options_span: Option<Range<usize>>,
    pub(crate) setup_span: Option<Range<usize>>,
    /// The `Termination` tag's reason and line.
    pub(crate) termination: Option<(EndReason, Option<Range<usize>>)>,
    /// The `LapBudget` tag's value and line.
    lap_budget_tag: Option<(String, Range<usize>)>,
}

/// The position a game starts from (under its rules), as its tags make
/// it: made by [`TagsSeen::start`] alone, so that no move of the movetext
/// is replayed before the tags are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    pub(crate) position: Position,
}

impl TagsSeen {
    /// What a record given as values says in its tags (`spans`: where).
    pub(crate) fn of_record(record: &Record, spans: &Spans) -> TagsSeen {
        TagsSeen {
            game_id: Some(record.game),
            options: record.options,
            setup: record.setup.clone(),
            game_line: spans.tag("Game"),
            options_span: spans.options.clone(),
            setup_span: spans.setup.clone(),
            termination: record
                .termination
                .map(|reason| (reason, spans.tag("Termination"))),
            lap_budget_tag: record
                .tag(LAP_BUDGET_TAG)
                .map(|value| (value.to_owned(), spans.tag(LAP_BUDGET_TAG).unwrap_or(0..0))),
        }
    }

    /// Notes what a tag says. Inlined into the parser's tag loop: most tags
    /// are matched away (their values are the parser's to check), and a
    /// call for each costs more than that. Taken apart and put together
    /// again, not matched by reference: the tag then stays in registers.
    #[inline(always)]
    pub(crate) fn read<'t>(
        &mut self,
        tag: TagValue<'t>,
        line: &Range<usize>,
        value: &Range<usize>,
    ) -> TagValue<'t> {
        match tag {
            TagValue::Game(game) => {
                self.game_id = Some(game);
                self.game_line = Some(line.clone());
                TagValue::Game(game)
            }
            TagValue::Options(options) => {
                self.options = options;
                self.options_span = Some(value.clone());
                TagValue::Options(options)
            }
            TagValue::SetUp(setup) => {
                self.setup = Some(setup.clone());
                self.setup_span = Some(value.clone());
                TagValue::SetUp(setup)
            }
            TagValue::Termination(reason) => {
                self.termination = Some((reason, Some(line.clone())));
                TagValue::Termination(reason)
            }
            TagValue::Text { name, value } => {
                if name == LAP_BUDGET_TAG {
                    self.lap_budget_tag = Some((value.to_string(), line.clone()));
                }
                TagValue::Text { name, value }
            }
            // The parser checks the Result tag against the movetext.
            TagValue::Result(result) => TagValue::Result(result),
        }
    }

    /// The rules the tags make, `lap_budget` (`--lap-budget`) overriding
    /// theirs: `None` without a Game tag (the text is then not a game, and
    /// the reader says so), else the rules or what is wrong with them.
    pub(crate) fn rules(&self, lap_budget: Option<u32>) -> Option<Result<Rules, Problem>> {
        let game_id = self.game_id?;
        // The options' value when there is one (an option the game does
        // not take, or a bad seed count), else the game's tag.
        let tag = self.lap_budget_tag.as_ref();
        let lap_budget = match lap_budget_of(lap_budget, tag.map(|(value, _)| value.as_str())) {
            Ok(budget) => budget,
            Err(bad) => {
                let span = tag.map_or(0..0, |(_, line)| line.clone());
                return Some(Err(Problem::new(span, ProblemDetail::LapBudget(bad))));
            }
        };
        Some(rules_of(game_id, self.options, lap_budget).map_err(|e| {
            let span = self.options_span.clone().or_else(|| self.game_line.clone());
            Problem::new(span.unwrap_or(0..0), ProblemDetail::Options(e))
        }))
    }

    /// The start of the game under `rules` (the tags' own, from
    /// [`TagsSeen::rules`]): the set-up's position, or the standard one.
    pub(crate) fn start(&self, rules: Rules) -> Result<Start, Problem> {
        match start_of(self.setup.as_ref(), rules) {
            Ok(position) => Ok(Start { position }),
            Err(e) => {
                let span = self.setup_span.clone().unwrap_or(0..0);
                Err(Problem::new(span, ProblemDetail::Setup(e)))
            }
        }
    }
}

/// The descriptive tags of a game, kept as a record keeps them.
#[derive(Debug, Default)]
pub struct Tags {
    pub standard: StandardTags,
    /// The others, in order (the parser has made their names unique).
    pub extra: Vec<Tag>,
}

impl Visitor for Tags {
    fn tag(&mut self, tag: TagValue<'_>, _: Range<usize>, _: Range<usize>) -> ControlFlow<()> {
        if let TagValue::Text { name, value } = tag {
            match self.standard.get_mut(name) {
                Some(slot) => *slot = Some(value.into_owned()),
                None => self.extra.push(Tag {
                    name: name.to_owned(),
                    value: value.into_owned(),
                }),
            }
        }
        ControlFlow::Continue(())
    }
}
