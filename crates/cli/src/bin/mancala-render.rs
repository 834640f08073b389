use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = mancala_cli::render::Args::parse();
    mancala_cli::output::finish(mancala_cli::render::run(&args))
}
