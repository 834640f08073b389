//! Every first move from the start position, per game and main option, as
//! recorded in `fixtures/rules/openings/*.txt`. The `#` lines at the top of
//! each file are written by hand (what was checked by hand, and how); the
//! other lines are compared with what the crate produces now.
//!
//! On a mismatch the test fails with a diff. `UPDATE_FIXTURES=1 cargo test
//! -p mancala-rules --test openings` rewrites the files, keeping their `#`
//! header.

mod common;
mod reference;

use std::fmt::Write as _;
use std::path::PathBuf;

use mancala_rules::{
    Event, GameId, Opt, Options, PlayErrorKind, Played, Position, Rules, Side, Trace,
};

fn configs() -> Vec<(GameId, Options)> {
    let o = Options::new;
    vec![
        (GameId::OlindaKeliya, o()),
        (GameId::OlindaKeliya, o().with_seeds(5)),
        (GameId::OlindaKeliya, o().with_seeds(6)),
        (GameId::OlindaKeliya, o().with_seeds(7)),
        (GameId::OlindaKeliya, o().with(Opt::SameDirection)),
        (GameId::OlindaKeliya, o().with(Opt::SeriesCapture)),
        (GameId::OlindaKeliya, o().with(Opt::SkipOrigin)),
        (GameId::Olowuka, o()),
        (GameId::Olowuka, o().with(Opt::SkipOrigin)),
        (GameId::Pallankuzhi, o()),
        (GameId::Pallankuzhi, o().with_seeds(4)),
        (GameId::Pallankuzhi, o().with_seeds(5)),
        (GameId::Pallankuzhi, o().with(Opt::PasuToOwner)),
        (GameId::Pallankuzhi, o().with(Opt::NoPasuOnLastSeed)),
        (GameId::Pallankuzhi, o().with(Opt::CaptureOpposite)),
        (GameId::Pallankuzhi, o().with(Opt::SkipOrigin)),
        (GameId::RioKadalis, o()),
        (GameId::RioKadalis, o().with(Opt::Clockwise)),
        (GameId::RioKadalis, o().with(Opt::FiveHoles)),
        (GameId::RioKadalis, o().with(Opt::SkipOrigin)),
    ]
}

fn file_name(game: GameId, options: Options) -> String {
    if options.is_empty() {
        format!("{game}.txt")
    } else {
        format!("{game}.{}.txt", options.to_string().replace(' ', "."))
    }
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/rules/openings")
}

/// One line per first move:
/// `E:ccw  laps E4>b c4>g …  captures S:f6(two-ahead)  board A1 … | a7 …  stores 6 0`.
fn opening_lines(rules: Rules) -> String {
    let start = Position::new(rules);
    let mut out = String::new();
    for mv in start.candidates().iter() {
        let mut trace = Trace::default();
        write!(out, "{:<6}", mv.to_string()).unwrap();
        match start.play_traced(mv, &mut trace) {
            Ok(Played::Finite { position, laps }) => {
                let mut lap_text = Vec::new();
                let mut captures = Vec::new();
                let mut kept = None;
                let mut lifted = None;
                for e in &trace.events {
                    match e {
                        Event::LapStart { hole, seeds } => lifted = Some((*hole, *seeds)),
                        Event::LapEnd { last, .. } => {
                            let (hole, seeds) = lifted.take().unwrap();
                            lap_text.push(format!("{hole}{seeds}>{last}"));
                        }
                        Event::Capture(c) => captures.push(format!(
                            "{}:{}{}({})",
                            c.taker.letter(),
                            c.hole,
                            c.seeds,
                            c.kind.as_str()
                        )),
                        Event::GrandSlamLeft { hole, seeds } => {
                            kept = Some(format!("{hole}{seeds}"))
                        }
                        Event::Sow { .. } => {}
                    }
                }
                assert_eq!(lap_text.len() as u64, laps);
                write!(out, "laps {}", lap_text.join(" ")).unwrap();
                if captures.is_empty() {
                    out.push_str("  captures -");
                } else {
                    write!(out, "  captures {}", captures.join(" ")).unwrap();
                }
                if let Some(kept) = kept {
                    write!(out, "  kept {kept}").unwrap();
                }
                write!(
                    out,
                    "  board {}  stores {} {}",
                    common::board_text(&position),
                    position.store(Side::South),
                    position.store(Side::North)
                )
                .unwrap();
            }
            Ok(Played::Endless {
                first_repeat,
                cycle,
            }) => write!(out, "endless at lap {first_repeat}, cycle {cycle}").unwrap(),
            Err(e) => match e.kind {
                PlayErrorKind::Endless {
                    first_repeat,
                    cycle,
                    ..
                } => write!(out, "endless at lap {first_repeat}, cycle {cycle}").unwrap(),
                other => write!(out, "error: {other}").unwrap(),
            },
        }
        out.push('\n');
    }
    out
}

/// A line diff good enough for short files: every line that differs.
fn diff(expected: &str, got: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    let mut out = String::new();
    for i in 0..e.len().max(g.len()) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                if let Some(a) = a {
                    writeln!(out, "-{a}").unwrap();
                }
                if let Some(b) = b {
                    writeln!(out, "+{b}").unwrap();
                }
            }
        }
    }
    out
}

#[test]
fn openings_match_the_fixtures() {
    let update = std::env::var_os("UPDATE_FIXTURES").is_some_and(|v| v == "1");
    let mut failures = String::new();
    for (game, options) in configs() {
        let rules = Rules::new(game, options).unwrap();
        let got = opening_lines(rules);
        let path = dir().join(file_name(game, options));
        let existing = std::fs::read_to_string(&path).unwrap_or_default();
        let header: String = existing
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let body: String = existing
            .lines()
            .skip_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        if body == got {
            continue;
        }
        if update {
            let header = if header.is_empty() {
                let name = format!("{game} {options}");
                format!(
                    "# {}: every first move from the start position.\n",
                    name.trim_end()
                )
            } else {
                header
            };
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, header + &got).unwrap();
        } else {
            writeln!(
                failures,
                "{} differs (run with UPDATE_FIXTURES=1 to rewrite):\n{}",
                path.display(),
                diff(&body, &got)
            )
            .unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// The fixture generator itself reproduces rules.md's worked example 1.
#[test]
fn olinda_opening_line_is_worked_example_1() {
    let lines = opening_lines(Rules::standard(GameId::OlindaKeliya));
    let line = lines.lines().find(|l| l.starts_with("E:ccw")).unwrap();
    assert_eq!(
        line,
        "E:ccw laps E4>b c4>g A4>E F5>d e5>C D5>b c1>d  captures S:f6(two-ahead)  \
         board A1 B6 C6 D0 E2 F1 G7 | a7 b7 c0 d7 e0 f0 g6  stores 6 0"
    );
}
