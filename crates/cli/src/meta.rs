//! Shell completions and man pages, generated from each tool's clap
//! definition (`--completions SHELL`, `--man`).

use std::io::{self, Write};

use clap::CommandFactory;

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
