//! The tools' flags, each declared once (ripgrep's way), with its help and
//! its relations to other flags: the game and its variant options (one
//! group for each meaning: play's new games, render's drawn game, filter's
//! selection), the lap budget, the colour, the jobs. A tool flattens the
//! groups it takes into its own `Args`; help, man pages and completions
//! come from here.

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use mancala_engine::{ENGINES, Engine, ParseSpecError, PlayerSpec};
use mancala_prose::{did_you_mean, shorten};
use mancala_rules::{
    DEFAULT_LAP_BUDGET, GameId, Opt, Options, OptionsError, ParseOptionError, Rules,
};

use crate::output::ColorChoice;
use std::io;

/// The game a tool plays or draws when `--game` names none.
pub const DEFAULT_GAME: GameId = GameId::Olowuka;

/// The long help of `-o` in play and render: the option words, with the
/// games they apply to (filter's says what it selects).
fn option_long_help() -> String {
    crate::meta::option_help("A variant option (repeatable), e.g. `-o seeds=5 -o series-capture`.")
}

/// `--game` and `-o` of play: the game of new games and its variant
/// options (a record to go on from names its own). The help of these
/// flags is an attribute, not a doc comment: clap drops a doc comment's
/// last full stop, and the help has kept it.
#[derive(Debug, Clone, clap::Args)]
pub struct NewGameFlags {
    #[arg(
        long,
        short,
        help = "The game of new games (records carry their own).",
        value_parser = game_ids(),
        default_value = DEFAULT_GAME.as_str(),
        conflicts_with = "records"
    )]
    pub game: Option<GameId>,
    #[arg(
        help = "A variant option of new games (repeatable): e.g. `seeds=5`, `series-capture`, \
                `rounds=5`; --help lists them.",
        long = "option",
        short = 'o',
        value_name = "OPTION",
        value_parser = OPTION_WORDS,
        // The long help lists them with the games they apply to;
        // completions still offer them.
        hide_possible_values = true,
        long_help = option_long_help(),
        conflicts_with = "records"
    )]
    pub options: Vec<String>,
}

/// `--game` and `-o` of render: one game to draw instead of records.
#[derive(Debug, Clone, clap::Args)]
pub struct DrawnGameFlags {
    #[arg(
        long,
        short,
        value_parser = game_ids(),
        help = "Draw one game of this id instead of records: its start, or --setup, then --moves."
    )]
    pub game: Option<GameId>,
    #[arg(
        help = "A variant option of --game (repeatable); --help lists them.",
        long = "option",
        short = 'o',
        value_name = "OPTION",
        value_parser = OPTION_WORDS,
        hide_possible_values = true,
        long_help = option_long_help(),
        requires = "game"
    )]
    pub options: Vec<String>,
}

/// `--game` and `-o` of filter: the games selected by id and options.
#[derive(Debug, Clone, clap::Args)]
pub struct GameFilterFlags {
    #[arg(long, short, value_parser = game_ids(), help = "Only games of this id.")]
    pub game: Option<GameId>,
    #[arg(
        help = "Only games whose Options tag has this word (repeatable: every word given).",
        long = "option",
        short = 'o',
        value_name = "OPTION",
        value_parser = OPTION_WORDS,
        hide_possible_values = true,
        long_help = crate::meta::option_help(
            "Only games whose Options tag has this option word (repeatable: every word given \
             must be there), e.g. `-o seeds=5`."
        )
    )]
    pub options: Vec<String>,
}

/// `--game` and `-o` of mancala-tablebase: the game a database is of.
#[derive(Debug, Clone, clap::Args)]
pub struct TabledGameFlags {
    #[arg(
        long,
        short,
        help = "The game of the database.",
        value_parser = game_ids(),
        default_value = DEFAULT_GAME.as_str()
    )]
    pub game: Option<GameId>,
    #[arg(
        help = "A variant option of the game (repeatable): a database holds one set of options; \
                --help lists them.",
        long = "option",
        short = 'o',
        value_name = "OPTION",
        value_parser = OPTION_WORDS,
        hide_possible_values = true,
        long_help = option_long_help()
    )]
    pub options: Vec<String>,
}

/// `--tablebase`: where the endgame databases are. Play and analyze probe
/// them only when given it; mancala-tablebase has a default location
/// (`mancala_tablebase::Tablebase::default_dir`).
#[derive(Debug, Clone, clap::Args)]
pub struct TablebaseFlag {
    /// Endgame databases under DIR, as `mancala-tablebase build` writes
    /// them (one subdirectory per game and options): play's engines play
    /// the moves they prove best, analyze writes their exact values, and
    /// mancala-tablebase builds and checks them there (by default in
    /// $XDG_DATA_HOME/mancala/tablebases, else
    /// ~/.local/share/mancala/tablebases; play and analyze read none
    /// unless given DIR).
    #[arg(long = "tablebase", value_name = "DIR")]
    pub tablebase: Option<std::path::PathBuf>,
}

/// The database of `rules` under `dir`, if it opens; the first time it
/// does not, a note on stderr (when `notes`) says why and that the tool
/// goes on without it.
pub fn open_tablebase(
    dir: &mancala_tablebase::TablebaseDir,
    rules: Rules,
    notes: bool,
) -> Option<std::sync::Arc<mancala_tablebase::Tablebase>> {
    match dir.open(rules) {
        Ok(opened) => opened,
        Err(e) => {
            if notes {
                crate::output::error_line(&format!(
                    "note: {e}: going on without an endgame database for {}",
                    rules.game()
                ));
            }
            None
        }
    }
}

/// The rules of `game` (or [`DEFAULT_GAME`]) with the `-o` values
/// `options`, under `lap_budget` (the default budget when `None`): every
/// value read as one list of option words, so that an option given twice
/// is refused wherever it stands.
pub fn rules_of(
    game: Option<GameId>,
    options: &[String],
    lap_budget: Option<u32>,
) -> Result<Rules, RulesOfError> {
    let options: Options = options.join(" ").parse().map_err(RulesOfError::Options)?;
    Rules::new(game.unwrap_or(DEFAULT_GAME), options)
        .and_then(|r| r.with_lap_budget(lap_budget.unwrap_or(DEFAULT_LAP_BUDGET)))
        .map_err(RulesOfError::Rules)
}

/// Why [`rules_of`] makes no rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesOfError {
    /// An option word that is none.
    Options(ParseOptionError),
    /// Options the game does not take, or a lap budget of 0.
    Rules(OptionsError),
}

impl std::fmt::Display for RulesOfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesOfError::Options(e) => e.fmt(f),
            RulesOfError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RulesOfError {}

/// The game ids as clap's possible values, so that help, man pages and
/// shell completions list them.
fn game_ids() -> impl TypedValueParser<Value = GameId> {
    clap::builder::PossibleValuesParser::new(GameId::ALL.map(GameId::as_str)).map(|id| {
        id.parse::<GameId>()
            .unwrap_or_else(|_| unreachable!("a possible value is a game id"))
    })
}

/// Text whose usual words clap offers as possible values (so that help,
/// man pages and completions give them) while it accepts any text that
/// `check` accepts: a player with its settings, several option words in
/// one `-o`.
#[derive(Debug, Clone, Copy)]
struct Completed {
    check: fn(&str) -> Result<(), PlayerError>,
    values: fn() -> Vec<PossibleValue>,
}

impl TypedValueParser for Completed {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let check = self.check;
        StringValueParser::new()
            .try_map(move |text| check(&text).map(|()| text))
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.values)().into_iter()))
    }
}

/// `-o`'s values: any text (a value may hold several words, which
/// [`rules_of`] reads), completed with every flag option and
/// `seeds=N` for each seed count some game is played with.
const OPTION_WORDS: Completed = Completed {
    check: |_| Ok(()),
    values: option_words,
};

fn option_words() -> Vec<PossibleValue> {
    let mut counts: Vec<u8> = GameId::ALL
        .iter()
        .flat_map(|g| g.seed_choices().iter().copied())
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let seeds = counts.into_iter().map(|n| {
        let games: Vec<&str> = GameId::ALL
            .into_iter()
            .filter(|g| g.seed_choices().contains(&n))
            .map(GameId::as_str)
            .collect();
        PossibleValue::new(format!("seeds={n}"))
            .help(format!("{n} seeds per hole ({})", games.join(", ")))
    });
    let holes = GameId::ALL.into_iter().flat_map(|g| {
        g.descriptor().hole_choices.iter().map(move |n| {
            PossibleValue::new(format!("holes={n}")).help(format!("{n} holes per row ({g})"))
        })
    });
    let flags = Opt::ALL
        .into_iter()
        .map(|opt| PossibleValue::new(opt.as_str()).help(mancala_messages::option_meaning(opt)));
    seeds.chain(holes).chain(flags).collect()
}

/// The player a seat names for a person at the terminal.
pub const HUMAN: &str = "human";
/// What [`HUMAN`] is, for help and listings.
pub const HUMAN_ABOUT: &str = "a person, typing moves at the terminal";

/// The names `--south` and `--north` take: the engines, then [`HUMAN`].
pub fn player_names() -> impl Iterator<Item = &'static str> + Clone {
    ENGINES.iter().map(|e| e.name).chain([HUMAN])
}

/// `--south` and `--north`: play's seats.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayerFlags {
    /// South's player: an engine, with settings after `:` (e.g.
    /// `alphabeta:depth=4,ms=500`), or human.
    #[arg(long, default_value = "random", value_parser = PLAYERS, value_name = "PLAYER")]
    pub south: String,
    /// North's player, as --south.
    #[arg(long, default_value = "random", value_parser = PLAYERS, value_name = "PLAYER")]
    pub north: String,
}

/// A player as the command line names it: an engine's name with any
/// settings (checked by the engine's own parser), or [`HUMAN`], completed
/// with the names, each with what it is and its settings.
const PLAYERS: Completed = Completed {
    check: check_player,
    values: players,
};

fn players() -> Vec<PossibleValue> {
    let engines = ENGINES
        .iter()
        .map(|engine| PossibleValue::new(engine.name).help(engine_help(engine)));
    let human = PossibleValue::new(HUMAN).help(HUMAN_ABOUT);
    engines.chain([human]).collect()
}

/// Text that names no player: the engine's word on it, which for a name
/// no player has is said with the name it may have meant.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PlayerError(ParseSpecError);

impl std::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            ParseSpecError::UnknownPlayer(name) => write!(
                f,
                "unknown player `{}`{}",
                shorten(name),
                did_you_mean(name, player_names())
            ),
            e => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayerError {}

/// Whether `text` names a player, or why not.
fn check_player(text: &str) -> Result<(), PlayerError> {
    if text == HUMAN {
        return Ok(());
    }
    text.parse::<PlayerSpec>().map(|_| ()).map_err(PlayerError)
}

/// An engine in a line: what it does and its settings with their
/// defaults, e.g. `alpha-beta search; settings: depth=N (default 9, at
/// most 64), ms=N, seed=N`.
#[must_use]
pub fn engine_help(engine: &Engine) -> String {
    let settings: Vec<String> = engine
        .settings
        .iter()
        .map(|s| {
            let mut bounds = Vec::new();
            if let Some(default) = s.default {
                bounds.push(format!("default {default}"));
            }
            if let Some(max) = s.max.filter(|&m| m < u64::from(u32::MAX)) {
                bounds.push(format!("at most {max}"));
            }
            if bounds.is_empty() {
                format!("{}=N", s.key)
            } else {
                format!("{}=N ({})", s.key, bounds.join(", "))
            }
        })
        .collect();
    format!("{}; settings: {}", engine.about, settings.join(", "))
}

/// `--lap-budget`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LapBudgetFlag {
    /// Laps a single move may sow before it is ruled undecided: a move
    /// that neither ends nor repeats a lap's starting state within this
    /// many laps is an error that names the budget, never a ruling.
    /// Default: a record's LapBudget tag, else 1000000.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub lap_budget: Option<u32>,
}

/// `-q`, `--quiet`: one meaning in every tool.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct QuietFlag {
    /// Nothing on stderr but errors: no notes, summaries or progress.
    /// Stdout's data is written as usual.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--color` of validate, analyze and filter: their error reports.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ColorFlag {
    #[arg(
        long,
        value_enum,
        default_value_t,
        help = "When to colour the error reports."
    )]
    pub color: ColorChoice,
}

/// `--color` of render: its diagrams.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct DiagramColorFlag {
    #[arg(
        long,
        value_enum,
        default_value_t,
        help = "Colour the lifted, last sown and captured holes."
    )]
    pub color: ColorChoice,
}

/// `--color` of play: the diagrams and error reports it writes on stderr.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct PlayColorFlag {
    #[arg(
        long,
        value_enum,
        default_value_t,
        help = "When to colour diagrams and error reports on stderr."
    )]
    pub color: ColorChoice,
}

/// `--max-errors`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct MaxErrorsFlag {
    /// Stop after N invalid games (say, a file whose every game fails the
    /// same way): the rest of the input is not checked, a note on stderr
    /// says so, and the exit status is 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_errors: Option<u64>,
}

impl MaxErrorsFlag {
    /// Whether `invalid` games are as many as the flag allows.
    #[must_use]
    pub fn reached(&self, invalid: usize) -> bool {
        self.max_errors.is_some_and(|n| invalid as u64 >= n)
    }

    /// For a sink of [`mancala_parallel::map_ordered`]: an error that stops
    /// the run once `invalid` games are as many as the flag allows, which
    /// [`MaxErrorsFlag::stopped`] tells from a real failure.
    pub fn stop_at(&self, invalid: usize) -> io::Result<()> {
        if self.reached(invalid) {
            Err(io::Error::other(MaxErrorsReached))
        } else {
            Ok(())
        }
    }

    /// Whether a run ended by [`MaxErrorsFlag::stop_at`]'s stop (`Ok(true)`)
    /// or went to the end (`Ok(false)`); any other error is passed on.
    pub fn stopped(ran: io::Result<()>) -> io::Result<bool> {
        match ran {
            Ok(()) => Ok(false),
            Err(e)
                if e.get_ref()
                    .is_some_and(|inner| inner.is::<MaxErrorsReached>()) =>
            {
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }

    /// What a tool says when it stops there, having checked `games` games.
    #[must_use]
    pub fn note(&self, games: usize) -> String {
        let n = self.max_errors.unwrap_or_default();
        format!(
            "stopped after {} (--max-errors {n}): {} checked; the rest of the input was not checked",
            mancala_prose::plural(n, "invalid game"),
            mancala_prose::plural(games as u64, "game"),
        )
    }
}

/// The stop [`MaxErrorsFlag::stop_at`] makes.
#[derive(Debug)]
struct MaxErrorsReached;

impl std::fmt::Display for MaxErrorsReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("--max-errors reached")
    }
}

impl std::error::Error for MaxErrorsReached {}

/// The record files a tool reads (validate, render, analyze).
#[derive(Debug, Clone, clap::Args)]
pub struct RecordFilesFlag {
    /// Record files, MGN or JSON records (told apart by their first
    /// character); a directory reads the *.mgn, *.json and *.jsonl files
    /// under it (the extension in any case), in path order; `-` or
    /// nothing reads stdin.
    pub files: Vec<std::path::PathBuf>,
}

/// `--jobs`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct JobsFlag {
    /// Worker threads, 1 to 256 (default: all cores). Output keeps the
    /// input's order.
    #[arg(short, long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
}

impl JobsFlag {
    /// The number of worker threads to run.
    #[must_use]
    pub fn threads(self) -> usize {
        mancala_parallel::jobs(self.jobs.map(usize::from))
    }
}

/// `--jobs` of play: the threads of an engine match.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct MatchJobsFlag {
    /// Worker threads of a match, 1 to 256 (default: all cores); the records keep the pairs' order
    #[arg(
        short,
        long,
        value_parser = clap::value_parser!(u16).range(1..=256),
        requires = "pairs",
        help_heading = "Engine matches"
    )]
    pub jobs: Option<u16>,
}

impl MatchJobsFlag {
    /// The number of worker threads to run.
    #[must_use]
    pub fn threads(self) -> usize {
        mancala_parallel::jobs(self.jobs.map(usize::from))
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Clap checks a command's flags (a relation naming a flag the tool
    /// lacks, say) only in debug builds, as it parses: every tool here,
    /// whatever the command line, so that a group flattened into a tool
    /// it was not written for fails a test rather than a user's debug
    /// build.
    #[test]
    fn every_tool_passes_clap_s_own_checks() {
        crate::analyze::Args::command().debug_assert();
        crate::filter::Args::command().debug_assert();
        crate::play::Args::command().debug_assert();
        crate::render::Args::command().debug_assert();
        crate::tablebase::Args::command().debug_assert();
        crate::validate::Args::command().debug_assert();
    }
}
