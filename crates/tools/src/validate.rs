//! `mancala-validate`: checks recorded games and passes the valid ones on.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

use clap::Parser;
use mancala_notation::{Record, StandardTags, Tag, format_setup};
use mancala_prose::plural;
use mancala_rules::{Game, GameId, Options, Outcome, RoundEnd};
use serde::Serialize;

use crate::diagnostic;
use crate::driver::{self, Driver, Tally, Writer};
use crate::flags::{ColorFlag, JobsFlag, LapBudgetFlag, MaxErrorsFlag, QuietFlag, RecordFilesFlag};
use crate::input::{self, InputName, SourcedGame};
use crate::output::{self, EXIT_FAILURE, EXIT_OK, Format};
use crate::progress::Progress;
use mancala_check::{self as check, Problem};

const EXAMPLES: &str = "\
Examples:
  mancala-validate games.mgn                 check a file; valid games go to stdout
  mancala-validate --no-output a.mgn b.mgn   only report errors (exit 1 if any)
  mancala-play --games 100 | mancala-validate | mancala-render
  mancala-validate --format json games.mgn   one JSON verdict per game (NDJSON)
  mancala-validate records/                  every *.mgn, *.json, *.jsonl under records/
  mancala-validate --max-errors 5 big.mgn    stop after 5 invalid games
  mancala-play --format json | mancala-validate   JSON records in, canonical MGN out

Exit status: 0 every game valid, 1 some game invalid (or its canonical record over the
4 MiB the tools read, not written), 2 usage or I/O error.";

/// Check recorded mancala games: syntax, rules, annotations, results.
#[derive(Debug, Parser)]
#[command(
    name = "mancala-validate",
    version,
    after_help = EXAMPLES,
)]
pub struct Args {
    #[command(flatten)]
    pub input: RecordFilesFlag,
    /// `text`: valid games in canonical notation on stdout; `json`: one
    /// verdict per game (valid or not) as NDJSON.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Write each valid game's own text instead of its canonical form.
    #[arg(long, conflicts_with = "format")]
    pub keep_text: bool,
    /// Write nothing to stdout: check only (errors still go to stderr,
    /// and the exit status tells). Not with `--format json`, whose verdicts
    /// are stdout's.
    #[arg(long, conflicts_with = "keep_text")]
    pub no_output: bool,
    #[command(flatten)]
    pub quiet: QuietFlag,
    #[command(flatten)]
    pub color: ColorFlag,
    #[command(flatten)]
    pub jobs: JobsFlag,
    #[command(flatten)]
    pub lap_budget: LapBudgetFlag,
    #[command(flatten)]
    pub max_errors: MaxErrorsFlag,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

/// A verdict as `--format json` writes it (documented in spec/json.md).
#[derive(Debug, Serialize)]
struct JsonVerdict<'a> {
    file: &'a str,
    /// The game's number in the whole stream, from 1.
    index: usize,
    line: u64,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<String>,
    plies: usize,
    errors: Vec<JsonProblem<'a>>,
    /// The last position reached, as a SetUp value.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    /// Final seeds of South and North, when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rounds: Vec<RoundEnd>,
    /// The record's Event, Site, Date, Round, South and North tags, as the
    /// JSON record form writes them (when its text parses).
    #[serde(skip_serializing_if = "Option::is_none")]
    tags: Option<&'a StandardTags>,
    /// Its other tags, in order.
    #[serde(skip_serializing_if = "<[Tag]>::is_empty")]
    extra: &'a [Tag],
}

#[derive(Debug, Serialize)]
struct JsonProblem<'a> {
    line: u64,
    column: u64,
    #[serde(flatten)]
    problem: &'a Problem,
}

/// What checking one game produced, ready to write.
#[derive(Debug, Default)]
struct Checked {
    valid: bool,
    plies: usize,
    stdout: String,
    stderr: String,
    /// Its canonical record would not read back (over the record limit):
    /// not written.
    refused: bool,
}

struct Settings<'a> {
    names: &'a [InputName],
    format: Format,
    keep_text: bool,
    no_output: bool,
    color: bool,
    lap_budget: Option<u32>,
}

fn check_game(game: &SourcedGame, settings: &Settings<'_>) -> Checked {
    // Canonical text needs the record, and JSON verdicts its tags.
    let canonical = settings.format == Format::Text && !settings.no_output && !settings.keep_text;
    let build = if canonical {
        check::Build::Record
    } else if settings.format == Format::Json {
        check::Build::Tags
    } else {
        check::Build::Nothing
    };
    let checked = game.check(settings.lap_budget, build, None);
    let plies = checked.replay.as_ref().map_or(0, |r| r.plies);
    // A valid game with nothing to write (`--no-output`) is only counted.
    if settings.no_output && checked.problems.is_empty() {
        return Checked {
            valid: true,
            plies,
            ..Checked::default()
        };
    }
    let tags = checked.tags();
    let check::Checked {
        parsed,
        replay,
        problems,
        ..
    } = &checked;
    let findings = Findings {
        game: replay.as_ref().map(|r| r.game_id),
        options: replay.as_ref().map(|r| r.options),
        plies,
        replayed: replay.as_ref().and_then(|r| r.game.as_ref()),
        round_ends: replay.as_ref().map_or(&[], |r| &r.round_ends),
        problems,
        record: parsed.as_ref().map(|p| &p.record),
        tags,
    };
    write_checked(game, settings, &findings)
}

/// What checking a game found, as the outputs need it.
struct Findings<'a> {
    /// The record's game and options, when its text parses.
    game: Option<GameId>,
    options: Option<Options>,
    plies: usize,
    /// The game as far as it could be replayed.
    replayed: Option<&'a Game>,
    round_ends: &'a [RoundEnd],
    problems: &'a [Problem],
    /// The record, for canonical text (built only for that output).
    record: Option<&'a Record>,
    /// The record's descriptive tags, for JSON verdicts.
    tags: Option<(&'a StandardTags, &'a [Tag])>,
}

fn write_checked(game: &SourcedGame, settings: &Settings<'_>, findings: &Findings<'_>) -> Checked {
    let file = settings.names[game.input].display();
    let text = &game.text;
    let problems = findings.problems;
    let valid = problems.is_empty();
    let mut out = Checked {
        valid,
        plies: findings.plies,
        ..Checked::default()
    };
    diagnostic::render_problems(&mut out.stderr, file, text, problems, settings.color);
    match settings.format {
        Format::Json => {
            let outcome: Option<Outcome> = findings.replayed.and_then(Game::outcome);
            let mut locator = text.locator();
            let verdict = JsonVerdict {
                file: settings.names[game.input].name(),
                index: game.number,
                line: text.first_line,
                valid,
                game: findings.game.map(GameId::as_str),
                options: findings.options.map(|o| o.to_string()),
                plies: out.plies,
                errors: problems
                    .iter()
                    .map(|p| {
                        let (line, column) = locator.line_col(p.span.start);
                        JsonProblem {
                            line,
                            column,
                            problem: p,
                        }
                    })
                    .collect(),
                position: findings
                    .replayed
                    .map(|g| format_setup(&g.position().to_setup())),
                score: outcome.map(|o| o.score),
                winner: outcome.map(|o| o.winner.map_or("draw", |w| w.name())),
                end: outcome.map(|o| o.reason.as_str()),
                rounds: findings.round_ends.to_vec(),
                tags: findings.tags.map(|(standard, _)| standard),
                extra: findings.tags.map_or(&[], |(_, extra)| extra),
            };
            // Serializing plain data to a String cannot fail.
            out.stdout = serde_json::to_string(&verdict).unwrap_or_default();
            out.stdout.push('\n');
        }
        Format::Text if valid && !settings.no_output => {
            out.stdout = if settings.keep_text {
                // As written, line endings included.
                let own = text.text().unwrap_or_default().trim_end();
                let eol = if own.contains("\r\n") { "\r\n" } else { "\n" };
                format!("{}{eol}", own.trim_start())
            } else if let Some(record) = findings.record {
                // Canonical text is about as long as the text read:
                // reserving that spares growing the string as it is written.
                let mut canonical = String::with_capacity(text.bytes.len() + 64);
                let _ = write!(canonical, "{record}");
                canonical
            } else {
                String::new()
            };
            // Canonical text may be longer than the text read (move
            // numbers, spaces, a `Result` tag): near the limit it may pass.
            let at = || format!("{file}:{}:1", text.first_line);
            if let Some(error) = output::record_over_limit(out.stdout.len(), at) {
                out.stdout.clear();
                out.stderr.push_str(&error);
                out.stderr.push('\n');
                out.refused = true;
            }
        }
        Format::Text => {}
    }
    out
}

/// Runs the tool; returns the exit code.
pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    if args.no_output && args.format == Format::Json {
        // Either choice would break a promise: "nothing on stdout", or the
        // verdicts asked for.
        output::error_line(
            "error: --no-output writes nothing to stdout, where --format json writes its verdicts: \
             use one or the other",
        );
        return Ok(EXIT_FAILURE);
    }
    let names = input::inputs(&args.input.files, !args.quiet.quiet);
    let settings = Settings {
        names: &names,
        format: args.format,
        keep_text: args.keep_text,
        no_output: args.no_output,
        color: args.color.color.for_stderr(),
        lap_budget: args.lap_budget.lap_budget,
    };
    // A count of the games checked while the output goes elsewhere (at the
    // terminal the output itself shows the progress).
    let progress = Progress::new(
        None,
        "games checked",
        !args.quiet.quiet && !io::stdout().is_terminal(),
    );
    let mut tool = Tool {
        out: output::stdout(),
        progress,
    };
    let mut plies = 0usize;
    let mut driver = Driver::new(&names, Some(args.max_errors));
    driver.map(
        &mut tool,
        args.jobs.threads(),
        // A game weighs its bytes.
        |game| game.text.bytes.len(),
        |game| check_game(game, &settings),
        |run, tool, checked| {
            plies += checked.plies;
            tool.progress.inc();
            if !checked.stderr.is_empty() {
                tool.out.flush()?;
                tool.progress
                    .aside(|| crate::output::diagnostics(&checked.stderr));
            }
            let blank_lines = args.format == Format::Text;
            run.write_record(&mut tool.out, &checked.stdout, blank_lines)?;
            Ok(driver::Verdict::of(checked.valid, checked.refused))
        },
    )?;
    let Tally {
        games,
        valid,
        refused,
        unreadable: io_errors,
        stopped,
    } = driver.tally;
    if !args.quiet.quiet {
        // With JSON verdicts the summary is JSON too (on stderr, as play's).
        let summary = match args.format {
            Format::Json => format!(
                "{{\"games\":{games},\"valid\":{valid},\"invalid\":{},\"plies\":{plies},\"unreadable_inputs\":{io_errors}{}}}",
                games - valid,
                if stopped {
                    ",\"stopped_at_max_errors\":true"
                } else {
                    ""
                }
            ),
            Format::Text => format!(
                "checked {}: {valid} valid, {} invalid ({}){}",
                plural(games as u64, "game"),
                games - valid,
                plural(plies as u64, "ply"),
                output::not_written(refused)
            ),
        };
        output::error_line(&summary);
    }
    Ok(driver.tally.exit_status())
}

/// Validate's stdout and progress bar, for the driver.
struct Tool {
    out: output::Stdout,
    progress: Progress,
}

impl Writer for Tool {
    fn stdout(&mut self) -> &mut output::Stdout {
        &mut self.out
    }

    fn progress(&self) -> Option<&Progress> {
        Some(&self.progress)
    }
}
