use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_cli::output::main(mancala_cli::play::run)
}
