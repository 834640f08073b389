//! Runs the floor probe ([`mancala_bench::pass`]) on a file of Olowuka
//! records and reports its median and best speed in plies per second:
//! `cargo bench -p mancala-bench --bench floor -- FILE [RUNS]`.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mancala_bench::{Tally, pass};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(path) = args.first() else {
        let _ = writeln!(
            std::io::stderr(),
            "usage: cargo bench -p mancala-bench --bench floor -- FILE [RUNS]"
        );
        return ExitCode::from(2);
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(7);
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut times: Vec<Duration> = Vec::new();
    let mut tally = Tally::default();
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        tally = std::hint::black_box(pass(std::hint::black_box(&text)));
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    let best = times[0].as_secs_f64();
    let _ = writeln!(
        std::io::stdout(),
        "{} games, {} plies ({} games unsettled: the full check's); median {:.3} s = {:.1} M plies/s, best {:.3} s = {:.1} M plies/s",
        tally.games,
        tally.plies,
        tally.unsettled,
        median,
        tally.plies as f64 / median / 1e6,
        best,
        tally.plies as f64 / best / 1e6
    );
    ExitCode::SUCCESS
}
