//! How the tools describe themselves: shell completions and man pages,
//! generated from each tool's clap definition (`--completions SHELL`,
//! `--man`), help text written from the rules themselves, so that it lists
//! what the rules accept, and play's listings of the games and players
//! (`--list games|players`), from the same tables.

use std::fmt::Write as _;
use std::io::{self, Write};

use clap::CommandFactory;
use mancala_engine::ENGINES;
use mancala_rules::{GameId, Opt, Rules};
use serde::Serialize;

use crate::flags::{HUMAN, HUMAN_ABOUT};
use crate::output::Format;

/// What `seeds=N` does.
const SEEDS_MEANING: &str = "seeds per hole (and per refilled hole)";
/// What `rounds=N` does.
const HOLES_MEANING: &str = "holes per row";
const ROUNDS_MEANING: &str = "the match also ends after round N (N >= 1), won on holdings";

/// The flags every tool shares for describing itself.
#[derive(Debug, Clone, clap::Args)]
pub struct MetaArgs {
    /// Print a completion script for SHELL (bash, zsh, fish, elvish,
    /// powershell) and exit.
    #[arg(long, value_name = "SHELL", help_heading = "Installation")]
    pub completions: Option<clap_complete::Shell>,
    /// Print the man page (roff) and exit.
    #[arg(long, help_heading = "Installation")]
    pub man: bool,
}

/// Writes what `meta` asks for to stdout; returns whether it asked for
/// anything (the tool then stops).
pub fn handle<T: CommandFactory>(meta: &MetaArgs) -> io::Result<bool> {
    let mut cmd = T::command();
    let name = cmd.get_name().to_owned();
    let mut out = crate::output::stdout();
    if let Some(shell) = meta.completions {
        clap_complete::generate(shell, &mut cmd, name, &mut out);
    } else if meta.man {
        man_page(cmd, &mut out)?;
    } else {
        return Ok(false);
    }
    out.flush()?;
    Ok(true)
}

/// The man page: clap_mangen's sections, but the text after the options
/// (each tool's `Examples:` and `Exit status:` paragraphs) as sections of
/// their own with their lines kept, where clap_mangen would run it together
/// under `EXTRA`.
fn man_page(cmd: clap::Command, out: &mut impl Write) -> io::Result<()> {
    let after = cmd
        .get_after_help()
        .map(ToString::to_string)
        .unwrap_or_default();
    let man = clap_mangen::Man::new(cmd);
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    for paragraph in after.split("\n\n").filter(|p| !p.trim().is_empty()) {
        let (heading, body) = paragraph.split_once(':').unwrap_or(("Notes", paragraph));
        writeln!(out, ".SH \"{}\"", heading.trim().to_uppercase())?;
        writeln!(out, ".nf")?;
        for line in body.trim_start_matches([' ', '\n']).lines() {
            writeln!(out, "{}", roff_line(line.trim_start()))?;
        }
        writeln!(out, ".fi")?;
    }
    man.render_version_section(out)
}

/// A line of text as roff prints it literally: backslashes and minus signs
/// escaped, and a leading `.` or `'` kept from reading as a request.
fn roff_line(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The long help of an `-o OPTION` flag: `summary`, then every variant
/// option the rules know, what it does and the games it applies to.
#[must_use]
pub fn option_help(summary: &str) -> String {
    let mut help = format!("{summary}\n\nVariant options, as records write them [games]:\n");
    let games = |applies: &dyn Fn(GameId) -> bool| {
        let ids: Vec<&str> = GameId::ALL
            .into_iter()
            .filter(|g| applies(*g))
            .map(GameId::as_str)
            .collect();
        if ids.len() == GameId::ALL.len() {
            "every game".to_owned()
        } else {
            ids.join(", ")
        }
    };
    let seed_counts: Vec<String> = GameId::ALL
        .into_iter()
        .filter(|g| !g.seed_choices().is_empty())
        .map(|g| {
            let counts: Vec<String> = g.seed_choices().iter().map(u8::to_string).collect();
            format!("{} {} (default {})", g, counts.join("|"), g.default_seeds())
        })
        .collect();
    let _ = writeln!(
        help,
        "  seeds=N [{}]\n      {SEEDS_MEANING}",
        seed_counts.join("; ")
    );
    let hole_counts: Vec<String> = GameId::ALL
        .into_iter()
        .filter(|g| !g.descriptor().hole_choices.is_empty())
        .map(|g| {
            let choices = g.descriptor().hole_choices;
            let counts: Vec<String> = choices.iter().map(u8::to_string).collect();
            format!(
                "{} {} (default {})",
                g,
                counts.join("|"),
                g.descriptor().holes
            )
        })
        .collect();
    let _ = writeln!(
        help,
        "  holes=M [{}]\n      {HOLES_MEANING}",
        hole_counts.join("; ")
    );
    let _ = writeln!(
        help,
        "  rounds=N [{}; not with single-round]\n      {ROUNDS_MEANING}",
        games(&GameId::has_rounds)
    );
    for opt in Opt::ALL {
        let _ = writeln!(
            help,
            "  {opt} [{}]\n      {}",
            games(&|g| g.allows(opt)),
            mancala_messages::option_meaning(opt)
        );
    }
    help.push_str("Several options: one -o each, or one -o with the words separated by spaces.");
    help
}

/// What `--list` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Listing {
    /// The games: board, seeds per hole and variant options.
    Games,
    /// The players: the engines with their settings, and human.
    Players,
}

/// A game as `--list games` gives it.
#[derive(Debug, Serialize)]
struct GameEntry {
    game: GameId,
    name: &'static str,
    origin: &'static str,
    rows: u8,
    holes: usize,
    /// The counts `holes=M` takes (left out where the game has no such
    /// option).
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    hole_choices: &'static [u8],
    seeds_per_hole: u8,
    /// The counts `seeds=N` takes (empty: the game has no such option).
    seed_choices: &'static [u8],
    /// Whether a game is a match of rounds.
    rounds: bool,
    options: Vec<OptionEntry>,
}

/// A variant option of a game, with what it does.
#[derive(Debug, Serialize)]
struct OptionEntry {
    option: &'static str,
    meaning: &'static str,
}

/// A player as `--list players` gives it.
#[derive(Debug, Serialize)]
struct PlayerEntry {
    player: &'static str,
    about: &'static str,
    settings: Vec<SettingEntry>,
}

/// One `key=N` setting of an engine.
#[derive(Debug, Serialize)]
struct SettingEntry {
    setting: &'static str,
    meaning: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<u64>,
    min: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<u64>,
}

fn game_entries() -> Vec<GameEntry> {
    GameId::ALL
        .into_iter()
        .map(|game| {
            let rules = Rules::standard(game);
            let descriptor = game.descriptor();
            let mut options = Vec::new();
            if !game.seed_choices().is_empty() {
                options.push(OptionEntry {
                    option: "seeds=N",
                    meaning: SEEDS_MEANING,
                });
            }
            if !descriptor.hole_choices.is_empty() {
                options.push(OptionEntry {
                    option: "holes=M",
                    meaning: HOLES_MEANING,
                });
            }
            if game.has_rounds() {
                options.push(OptionEntry {
                    option: "rounds=N",
                    meaning: ROUNDS_MEANING,
                });
            }
            options.extend(
                Opt::ALL
                    .into_iter()
                    .filter(|opt| game.allows(*opt))
                    .map(|opt| OptionEntry {
                        option: opt.as_str(),
                        meaning: mancala_messages::option_meaning(opt),
                    }),
            );
            GameEntry {
                game,
                name: descriptor.name,
                origin: descriptor.origin,
                rows: 2,
                holes: rules.holes(),
                hole_choices: descriptor.hole_choices,
                seeds_per_hole: rules.seeds_per_hole(),
                seed_choices: game.seed_choices(),
                rounds: game.has_rounds(),
                options,
            }
        })
        .collect()
}

fn player_entries() -> Vec<PlayerEntry> {
    let engines = ENGINES.iter().map(|engine| PlayerEntry {
        player: engine.name,
        about: engine.about,
        settings: engine
            .settings
            .iter()
            .map(|s| SettingEntry {
                setting: s.key,
                meaning: s.meaning,
                default: s.default,
                min: s.min,
                max: s.max,
            })
            .collect(),
    });
    let human = PlayerEntry {
        player: HUMAN,
        about: HUMAN_ABOUT,
        settings: Vec::new(),
    };
    engines.chain([human]).collect()
}

/// Writes `listing` to `out`: aligned text, or one JSON object a line.
pub fn write_listing(listing: Listing, format: Format, out: &mut impl Write) -> io::Result<()> {
    match (listing, format) {
        (Listing::Games, Format::Json) => json_lines(&game_entries(), out),
        (Listing::Players, Format::Json) => json_lines(&player_entries(), out),
        (Listing::Games, Format::Text) => {
            for game in game_entries() {
                let mut seeds = format!("{} seeds per hole", game.seeds_per_hole);
                if !game.seed_choices.is_empty() {
                    let counts: Vec<String> = game.seed_choices.iter().map(u8::to_string).collect();
                    let _ = write!(seeds, " (seeds={})", counts.join("|"));
                }
                let mut holes = format!("{} holes", game.holes);
                if let (Some(low), Some(high)) =
                    (game.hole_choices.first(), game.hole_choices.last())
                {
                    let _ = write!(holes, " (holes={low}..{high})");
                }
                let kind = if game.rounds {
                    "a match of rounds"
                } else {
                    "a single game"
                };
                writeln!(
                    out,
                    "{}  {} ({}): {} x {holes}, {seeds}, {kind}",
                    game.game, game.name, game.origin, game.rows
                )?;
                let width = game.options.iter().map(|o| o.option.len()).max();
                for option in &game.options {
                    let width = width.unwrap_or(0);
                    writeln!(out, "  -o {:width$}  {}", option.option, option.meaning)?;
                }
            }
            Ok(())
        }
        (Listing::Players, Format::Text) => {
            let players = player_entries();
            let width = players.iter().map(|p| p.player.len()).max().unwrap_or(0);
            for player in players {
                writeln!(out, "{:width$}  {}", player.player, player.about)?;
                let keys = player.settings.iter().map(|s| s.setting.len() + 2).max();
                for s in &player.settings {
                    let mut bounds = match s.max.filter(|&max| max < u64::from(u32::MAX)) {
                        Some(max) => format!("{} to {max}", s.min),
                        None => format!("at least {}", s.min),
                    };
                    if let Some(default) = s.default {
                        let _ = write!(bounds, ", default {default}");
                    }
                    let key = format!("{}=N", s.setting);
                    let keys = keys.unwrap_or(0);
                    writeln!(out, "  {key:keys$}  {} [{bounds}]", s.meaning)?;
                }
            }
            Ok(())
        }
    }
}

fn json_lines<T: Serialize>(entries: &[T], out: &mut impl Write) -> io::Result<()> {
    for entry in entries {
        serde_json::to_writer(&mut *out, entry)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_help_names_every_option_and_its_games() {
        let help = option_help("Summary.");
        assert!(help.starts_with("Summary.\n\n"));
        for opt in Opt::ALL {
            assert!(help.contains(&format!("  {opt} [")), "{opt}: {help}");
        }
        assert!(help.contains("olinda-keliya 4|5|6|7 (default 4)"), "{help}");
        assert!(help.contains("pallankuzhi 4|5|6 (default 6)"), "{help}");
        assert!(
            help.contains("skip-origin [every game]\n      a lap skips the hole it started from\n")
        );
        assert!(help.contains("[pallankuzhi, rio-kadalis]"), "{help}");
        assert!(
            help.contains("  rounds=N [pallankuzhi, rio-kadalis; not with single-round]\n"),
            "{help}"
        );
    }
}
