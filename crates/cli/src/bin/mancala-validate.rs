//! `mancala-validate`: checks records and writes them canonically or as
//! JSON verdicts (the tool itself is `mancala_cli::validate`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_cli::output::main(mancala_cli::validate::run)
}
