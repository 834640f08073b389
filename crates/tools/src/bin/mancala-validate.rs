//! `mancala-validate`: checks records and writes them canonically or as
//! JSON verdicts (the tool itself is `mancala_tools::validate`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::validate::run)
}
