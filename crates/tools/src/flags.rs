//! The flags the tools share, each declared once (ripgrep's way): the game
//! and its variant options, the lap budget and the colour. A tool flattens
//! the groups it takes into its own `Args` and adds the relations that are
//! its own (play's game conflicts with records, render's options need a
//! game) with `mut_arg`; help, man pages and completions come from here.

use mancala_rules::{DEFAULT_LAP_BUDGET, GameId, Options, Rules};

use crate::output::ColorChoice;

/// The game a tool plays or draws when `--game` names none.
pub const DEFAULT_GAME: GameId = GameId::Olowuka;

/// `--game` and `-o`: a game and its variant options.
#[derive(Debug, Clone, clap::Args)]
pub struct GameFlags {
    /// The game, for a game given on the command line (a record names its
    /// own).
    #[arg(long, short, value_parser = game_ids())]
    pub game: Option<GameId>,
    /// A variant option of --game (repeatable): e.g. `seeds=5`,
    /// `series-capture`, `rounds=5`; --help lists them.
    #[arg(
        long = "option",
        short = 'o',
        value_name = "OPTION",
        long_help = crate::meta::option_help(
            "A variant option (repeatable), e.g. `-o seeds=5 -o series-capture`."
        )
    )]
    pub options: Vec<String>,
}

impl GameFlags {
    /// The game named, or [`DEFAULT_GAME`].
    #[must_use]
    pub fn game_or_default(&self) -> GameId {
        self.game.unwrap_or(DEFAULT_GAME)
    }

    /// The rules of the game named (or [`DEFAULT_GAME`]) with the options given,
    /// under `lap_budget` (the default budget when `None`): every `-o`
    /// value read as one list of option words, so that an option given
    /// twice is refused wherever it stands.
    pub fn rules(&self, lap_budget: Option<u32>) -> Result<Rules, String> {
        let options: Options = self.options.join(" ").parse().map_err(|e| format!("{e}"))?;
        Rules::new(self.game_or_default(), options)
            .and_then(|r| r.with_lap_budget(lap_budget.unwrap_or(DEFAULT_LAP_BUDGET)))
            .map_err(|e| e.to_string())
    }
}

/// The game ids as clap's possible values, so that help, man pages and
/// shell completions list them.
fn game_ids() -> impl clap::builder::TypedValueParser<Value = GameId> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(GameId::ALL.map(GameId::as_str)).map(|id| {
        id.parse::<GameId>()
            .unwrap_or_else(|_| unreachable!("a possible value is a game id"))
    })
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

/// `--color`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ColorFlag {
    /// When to colour diagrams and error reports.
    #[arg(long, value_enum, default_value_t)]
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

    /// What a tool says when it stops there, having checked `games` games.
    #[must_use]
    pub fn note(&self, games: usize) -> String {
        let n = self.max_errors.unwrap_or_default();
        format!(
            "stopped after {} (--max-errors {n}): {} checked; the rest of the input was not checked",
            mancala_rules::plural(n, "invalid game"),
            mancala_rules::plural(games as u64, "game"),
        )
    }
}
