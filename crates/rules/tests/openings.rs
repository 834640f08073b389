//! Every first move from the start position, per game and main option, as
//! recorded in `fixtures/rules/openings/*.txt`. The `#` lines at the top of
//! each file are written by hand (what was checked by hand, and how); the
//! other lines are compared with what the crate produces now.
//!
//! On a mismatch the test fails with a diff. `UPDATE_FIXTURES=1 cargo test
//! -p mancala-rules --test tests openings::` rewrites the files, keeping their `#`
//! header.

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;

use mancala_rules::{Event, GameId, Opt, Options, Position, Rules, Side, Trace, Verdict};

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
        (GameId::Kalah, o()),
        (GameId::Kalah, o().with_seeds(6)),
        (GameId::Kalah, o().with_holes(4).with_seeds(3)),
        (GameId::Kalah, o().with(Opt::EmptyCapture)),
        (GameId::Oware, o()),
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
        match start.verdict_traced(mv, &mut trace).unwrap() {
            Verdict::Finite { position, laps } => {
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
                        Event::GrandSlamForgone { hole } => {
                            kept = Some(format!("none from {hole}"))
                        }
                        Event::Sow { .. } | Event::SowStore { .. } => {}
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
                if position.to_move() == start.to_move() {
                    out.push_str("  moves again");
                }
            }
            Verdict::Endless {
                first_repeat,
                cycle,
            } => write!(out, "endless at lap {first_repeat}, cycle {cycle}").unwrap(),
            Verdict::Undecided { budget } => write!(out, "undecided (budget {budget})").unwrap(),
        }
        out.push('\n');
    }
    out
}

#[test]
fn openings_match_the_fixtures() {
    let mut failures = Vec::new();
    for (game, options) in configs() {
        let rules = Rules::new(game, options).unwrap();
        let path = dir().join(file_name(game, options));
        let name = format!("{game} {options}");
        let header = format!(
            "# {}: every first move from the start position.\n",
            name.trim_end()
        );
        if let Err(e) = common::check_fixture(&path, &opening_lines(rules), &header) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
