//! How the tools describe themselves: shell completions and man pages,
//! generated from each tool's clap definition (`--completions SHELL`,
//! `--man`), and help text written from the rules themselves, so that it
//! lists what the rules accept.

use std::fmt::Write as _;
use std::io::{self, Write};

use clap::CommandFactory;
use mancala_rules::{GameId, Opt};

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
        "  seeds=N [{}]\n      seeds per hole (and per refilled hole)",
        seed_counts.join("; ")
    );
    let _ = writeln!(
        help,
        "  rounds=N [{}; not with single-round]\n      the match also ends after round N (N >= 1), won on holdings",
        games(&GameId::has_rounds)
    );
    for opt in Opt::ALL {
        let _ = writeln!(
            help,
            "  {opt} [{}]\n      {}",
            games(&|g| g.allows(opt)),
            opt.meaning()
        );
    }
    help.push_str("Several options: one -o each, or one -o with the words separated by spaces.");
    help
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
