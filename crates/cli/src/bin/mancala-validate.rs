use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = mancala_cli::validate::Args::parse();
    mancala_cli::output::finish(mancala_cli::validate::run(&args))
}
