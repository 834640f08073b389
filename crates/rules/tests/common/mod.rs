//! Helpers shared by the integration tests: option combinations, fixtures,
//! and the bridge between the crate and the reference model (random rules
//! and set-ups come from `mancala-testkit`).

#![allow(dead_code)]

use mancala_rules::{
    Dir, Event, GameId, Hole, Move, Opt, Options, Position, Rules, Setup, Side, Trace, Verdict,
};

use mancala_testkit::seed_options;

use crate::reference::{
    Lap, NORTH, RefBoard, RefMatch, RefMove, RefRules, RefVerdict, SOUTH, Take,
};

/// The flags that change how a move is sown, per game.
pub fn sowing_flags(game: GameId) -> &'static [Opt] {
    match game {
        GameId::OlindaKeliya => &[Opt::SkipOrigin, Opt::SeriesCapture, Opt::SameDirection],
        GameId::Olowuka => &[Opt::SkipOrigin],
        GameId::Pallankuzhi => &[
            Opt::SkipOrigin,
            Opt::PasuToOwner,
            Opt::NoPasuOnLastSeed,
            Opt::CaptureOpposite,
        ],
        GameId::RioKadalis => &[Opt::SkipOrigin, Opt::Clockwise, Opt::FiveHoles],
        GameId::Kalah => &[Opt::SkipOrigin, Opt::EmptyCapture],
        GameId::Oware => &[Opt::GrandSlamTakesAll],
    }
}

fn with_flags(mut options: Options, flags: &[Opt], mask: usize) -> Options {
    for (i, opt) in flags.iter().enumerate() {
        if mask & (1 << i) != 0 {
            options = options.with(*opt);
        }
    }
    options
}

/// Every combination of seed count and sowing flags, for every game the
/// reference model plays.
pub fn sowing_configs() -> Vec<Rules> {
    let mut out = Vec::new();
    for game in mancala_testkit::REFERENCE_GAMES {
        let flags = sowing_flags(game);
        for seeds in seed_options(game) {
            let base = match seeds {
                Some(s) => Options::new().with_seeds(s),
                None => Options::new(),
            };
            for mask in 0..1 << flags.len() {
                out.push(Rules::new(game, with_flags(base, flags, mask)).unwrap());
            }
        }
    }
    out
}

pub fn ref_rules(rules: Rules) -> RefRules {
    RefRules::parse(rules.game().as_str(), &rules.options().to_string())
}

pub fn side_index(side: Side) -> usize {
    match side {
        Side::South => SOUTH,
        Side::North => NORTH,
    }
}

pub fn index_of(rules: Rules, hole: Hole) -> usize {
    match hole.side {
        Side::South => hole.index as usize,
        Side::North => rules.holes() + hole.index as usize,
    }
}

pub fn hole_at(rules: Rules, index: usize) -> Hole {
    let n = rules.holes();
    if index < n {
        Hole::new(Side::South, index as u8)
    } else {
        Hole::new(Side::North, (index - n) as u8)
    }
}

pub fn ref_move(rules: Rules, mv: Move) -> RefMove {
    RefMove {
        hole: index_of(rules, mv.hole),
        ccw: mv.dir.map(|d| d == Dir::Ccw),
    }
}

pub fn crate_move(rules: Rules, mv: RefMove) -> Move {
    let hole = hole_at(rules, mv.hole);
    match mv.ccw {
        Some(true) => Move::with_dir(hole, Dir::Ccw),
        Some(false) => Move::with_dir(hole, Dir::Cw),
        None => Move::new(hole),
    }
}

/// The reference's view of a position's board, read through `to_setup`.
pub fn ref_board(pos: &Position) -> RefBoard {
    let setup = pos.to_setup();
    let cells: Vec<Option<u32>> = setup.south.iter().chain(&setup.north).copied().collect();
    RefBoard {
        holes: cells.iter().map(|c| c.unwrap_or(0)).collect(),
        closed: cells.iter().map(Option::is_none).collect(),
        stores: setup.stores,
    }
}

/// The reference game standing at `pos` (no end check made).
pub fn ref_match(pos: &Position) -> RefMatch {
    let setup = pos.to_setup();
    RefMatch::at(
        ref_rules(pos.rules()),
        u64::from(pos.rules().lap_budget()),
        ref_board(pos),
        side_index(setup.to_move),
        setup.south_dir.map(|d| d == Dir::Ccw),
        setup.round,
        side_index(setup.round_starter.unwrap_or(setup.to_move)),
    )
}

/// Laps and captures of a crate trace, in the reference's terms.
pub fn trace_laps(rules: Rules, trace: &Trace) -> Vec<Lap> {
    let mut out = Vec::new();
    let mut open = None;
    for e in &trace.events {
        match e {
            Event::LapStart { hole, seeds } => open = Some((index_of(rules, *hole), *seeds)),
            Event::LapEnd { last, .. } => {
                let (from, lifted) = open.take().expect("lap end without a start");
                out.push(Lap {
                    from,
                    lifted: u32::from(lifted),
                    last: index_of(rules, *last),
                });
            }
            _ => {}
        }
    }
    out
}

pub fn trace_takes(rules: Rules, trace: &Trace) -> Vec<Take> {
    trace
        .captures()
        .map(|c| Take {
            hole: index_of(rules, c.hole),
            seeds: u32::from(c.seeds),
            taker: side_index(c.taker),
        })
        .collect()
}

pub fn trace_kept(rules: Rules, trace: &Trace) -> Option<(usize, u32)> {
    trace.events.iter().find_map(|e| match e {
        Event::GrandSlamLeft { hole, seeds } => Some((index_of(rules, *hole), u32::from(*seeds))),
        _ => None,
    })
}

/// The kind of verdict both sides agreed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreed {
    Finite,
    Endless,
    Undecided,
}

/// Sows `mv` from `pos` in the crate and in the reference and compares
/// everything: verdict, laps, captures, grand-slam hole, board, stores.
pub fn compare_move(pos: &Position, mv: Move) -> Result<Agreed, String> {
    let rules = pos.rules();
    let reference = ref_match(pos);
    let expected = reference.verdict(ref_move(rules, mv));
    let got = pos.verdict(mv).map_err(|e| format!("verdict error: {e}"))?;
    let context = || format!("move {mv} in {:?}", pos.to_setup());
    match (got, expected) {
        (
            Verdict::Finite { position, laps },
            RefVerdict::Finite {
                board,
                laps: ref_laps,
                takes,
                kept,
            },
        ) => {
            let mut trace = Trace::default();
            pos.verdict_traced(mv, &mut trace).unwrap();
            let got_laps = trace_laps(rules, &trace);
            if laps != ref_laps.len() as u64 || got_laps != ref_laps {
                return Err(format!(
                    "{}: laps {laps} {got_laps:?}, reference {ref_laps:?}",
                    context()
                ));
            }
            let got_takes = trace_takes(rules, &trace);
            if got_takes != takes {
                return Err(format!(
                    "{}: captures {got_takes:?}, reference {takes:?}",
                    context()
                ));
            }
            let got_kept = trace_kept(rules, &trace);
            if got_kept != kept {
                return Err(format!(
                    "{}: grand slam kept {got_kept:?}, reference {kept:?}",
                    context()
                ));
            }
            let got_board = ref_board(&position);
            if got_board != board {
                return Err(format!(
                    "{}: board {got_board:?}, reference {board:?}",
                    context()
                ));
            }
            if position.to_move() != pos.to_move().opposite() {
                return Err(format!("{}: side to move not switched", context()));
            }
            Ok(Agreed::Finite)
        }
        (
            Verdict::Endless {
                first_repeat,
                cycle,
            },
            RefVerdict::Endless {
                first_repeat: r_first,
                cycle: r_cycle,
            },
        ) => {
            if (first_repeat, cycle) == (r_first, r_cycle) {
                Ok(Agreed::Endless)
            } else {
                Err(format!(
                    "{}: endless at lap {first_repeat} (cycle {cycle}), reference at {r_first} (cycle {r_cycle})",
                    context()
                ))
            }
        }
        (Verdict::Undecided { budget }, RefVerdict::Undecided) => {
            if budget == rules.lap_budget() {
                Ok(Agreed::Undecided)
            } else {
                Err(format!("{}: undecided names budget {budget}", context()))
            }
        }
        (got, expected) => Err(format!(
            "{}: crate {}, reference {}",
            context(),
            short(&got),
            short_ref(&expected)
        )),
    }
}

fn short(v: &Verdict) -> String {
    match v {
        Verdict::Finite { laps, .. } => format!("finite after {laps} laps"),
        Verdict::Endless {
            first_repeat,
            cycle,
        } => format!("endless (state {first_repeat} repeats, cycle {cycle})"),
        Verdict::Undecided { budget } => format!("undecided (budget {budget})"),
    }
}

fn short_ref(v: &RefVerdict) -> String {
    match v {
        RefVerdict::Finite { laps, .. } => format!("finite after {} laps", laps.len()),
        RefVerdict::Endless {
            first_repeat,
            cycle,
        } => format!("endless (state {first_repeat} repeats, cycle {cycle})"),
        RefVerdict::Undecided => "undecided".to_owned(),
    }
}

/// Board notation of rules.md: `A1 B6 … | a7 …` (closed holes as `A-`).
pub fn board_text(pos: &Position) -> String {
    let setup = pos.to_setup();
    let row = |side: Side, cells: &[Option<u32>]| {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let label = Hole::new(side, i as u8).label();
                match c {
                    Some(s) => format!("{label}{s}"),
                    None => format!("{label}-"),
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{} | {}",
        row(Side::South, &setup.south),
        row(Side::North, &setup.north)
    )
}

pub fn setup_from(text: &str, stores: [u32; 2], to_move: Side) -> Setup {
    let (south, north) = text.split_once('|').expect("a `|` between the rows");
    let row = |s: &str| {
        s.split_whitespace()
            .map(|w| match &w[1..] {
                "-" => None,
                n => Some(n.parse().expect("a seed count")),
            })
            .collect()
    };
    let (south, north): (Vec<Option<u32>>, Vec<Option<u32>>) = (row(south), row(north));
    // Holes are closed only by refilling, so only from round 2 of a match.
    let round = if south.iter().chain(&north).any(Option::is_none) {
        2
    } else {
        1
    };
    Setup {
        south,
        north,
        stores,
        to_move,
        south_dir: None,
        round,
        round_starter: None,
    }
}

/// One line of `fixtures/rules/endless.txt`: a set-up and an endless move.
pub struct EndlessCase {
    pub line: String,
    pub pos: Position,
    pub mv: Move,
    pub first_repeat: u64,
    pub cycle: u64,
}

pub fn endless_fixture_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/rules/endless.txt")
}

pub fn endless_line(pos: &Position, mv: Move, first_repeat: u64, cycle: u64) -> String {
    let rules = pos.rules();
    let dir = match pos.south_dir() {
        Some(d) => format!("south {d}"),
        None => "south -".to_owned(),
    };
    let name = format!("{} {}", rules.game(), rules.options());
    format!(
        "{}; {} to move; {dir}; {}; stores {} {}; {mv} -> endless at lap {first_repeat}, cycle {cycle}",
        name.trim_end(),
        pos.to_move().letter(),
        board_text(pos),
        pos.store(Side::South),
        pos.store(Side::North),
    )
}

pub fn parse_endless_line(line: &str) -> EndlessCase {
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    let [name, to_move, dir, board, stores, verdict] = fields[..] else {
        panic!("bad line: {line}");
    };
    let (game, options) = name.split_once(' ').unwrap_or((name, ""));
    let rules = Rules::new(game.parse().unwrap(), options.parse().unwrap()).unwrap();
    let to_move = match to_move {
        "S to move" => Side::South,
        "N to move" => Side::North,
        _ => panic!("bad side: {line}"),
    };
    let stores: Vec<u32> = stores
        .strip_prefix("stores ")
        .unwrap()
        .split(' ')
        .map(|s| s.parse().unwrap())
        .collect();
    let mut setup = setup_from(board, [stores[0], stores[1]], to_move);
    setup.south_dir = match dir {
        "south ccw" => Some(mancala_rules::Dir::Ccw),
        "south cw" => Some(mancala_rules::Dir::Cw),
        _ => None,
    };
    let pos = Position::from_setup(rules, &setup).unwrap();
    let (mv, rest) = verdict.split_once(" -> endless at lap ").unwrap();
    let (first_repeat, cycle) = rest.split_once(", cycle ").unwrap();
    EndlessCase {
        line: line.to_owned(),
        pos,
        mv: mv.parse().unwrap(),
        first_repeat: first_repeat.parse().unwrap(),
        cycle: cycle.parse().unwrap(),
    }
}

pub fn endless_cases() -> Vec<EndlessCase> {
    std::fs::read_to_string(endless_fixture_path())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(parse_endless_line)
        .collect()
}

/// Compares `got` with the fixture at `path`, ignoring the `#` header lines
/// at its top. On a difference, with `UPDATE_FIXTURES=1` in the environment
/// the file is rewritten (keeping its header, or starting with
/// `new_header` when it has none); otherwise the error is a line diff.
pub fn check_fixture(path: &std::path::Path, got: &str, new_header: &str) -> Result<(), String> {
    let existing = std::fs::read_to_string(path).unwrap_or_default();
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
        return Ok(());
    }
    if std::env::var_os("UPDATE_FIXTURES").is_some_and(|v| v == "1") {
        let header = if header.is_empty() {
            new_header.to_owned()
        } else {
            header
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, header + got).unwrap();
        return Ok(());
    }
    let mut diff = String::new();
    let (e, g): (Vec<&str>, Vec<&str>) = (body.lines().collect(), got.lines().collect());
    for i in 0..e.len().max(g.len()) {
        if e.get(i) != g.get(i) {
            if let Some(l) = e.get(i) {
                diff.push_str(&format!("-{l}\n"));
            }
            if let Some(l) = g.get(i) {
                diff.push_str(&format!("+{l}\n"));
            }
        }
    }
    Err(format!(
        "{} differs (UPDATE_FIXTURES=1 rewrites it):\n{diff}",
        path.display()
    ))
}
