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
        clap_mangen::Man::new(cmd).render(&mut out)?;
    } else {
        return Ok(false);
    }
    out.flush()?;
    Ok(true)
}
