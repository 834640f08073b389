//! Perft: move-tree counts from the start position, per game and main
//! option, compared with `fixtures/rules/perft.txt`.
//!
//! For every depth d from 1 to the configuration's maximum the fixture
//! holds two numbers:
//! - `leaves`: the number of move sequences of length d, each move taken
//!   from `Position::legal_moves`, like chess perft;
//! - `distinct`: the number of distinct positions (board, stores, side to
//!   move, Olinda Keliya's direction) at the end of those sequences.
//!
//! Only position-level rules apply: a position whose player to move has no
//! legal move is a dead end that contributes nothing deeper (in a `Game`
//! the game or round would end there; this happens within these depths in
//! Pallankuzhi with 4 seeds, where a row can be emptied by the third ply).
//! Repetition and Olowuka's 25 cannot occur this early from the start.
//! `UPDATE_FIXTURES=1 cargo test -p mancala-rules --test tests perft::` rewrites
//! the file (keeping its `#` header).

use crate::common;
use crate::reference;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use mancala_rules::{GameId, Opt, Options, Played, Position, Rules};

/// Game, options and the deepest depth counted (each runs well under a
/// second in a debug build).
fn configs() -> Vec<(GameId, Options, usize)> {
    let o = Options::new;
    vec![
        (GameId::OlindaKeliya, o(), 6),
        (GameId::OlindaKeliya, o().with(Opt::SameDirection), 5),
        (GameId::OlindaKeliya, o().with_seeds(7), 4),
        (GameId::Olowuka, o(), 7),
        (GameId::Pallankuzhi, o(), 6),
        (GameId::Pallankuzhi, o().with_seeds(4), 5),
        (GameId::Pallankuzhi, o().with(Opt::CaptureOpposite), 5),
        (GameId::RioKadalis, o(), 7),
        (GameId::RioKadalis, o().with(Opt::FiveHoles), 6),
    ]
}

/// Leaves and distinct positions at every depth 1..=max, breadth first.
fn perft(rules: Rules, max: usize) -> Vec<(u64, usize)> {
    let mut out = Vec::new();
    // Each distinct position with the number of sequences reaching it.
    let mut level: Vec<(Position, u64)> = vec![(Position::new(rules), 1)];
    for _ in 0..max {
        let mut next: std::collections::HashMap<Position, u64> = Default::default();
        let mut leaves = 0;
        for (pos, paths) in &level {
            for mv in pos.legal_moves().unwrap().iter() {
                match pos.play(mv).unwrap() {
                    Played::Finite { position, .. } => {
                        leaves += paths;
                        *next.entry(position).or_default() += paths;
                    }
                    Played::Endless { .. } => unreachable!("no endless-ends-game here"),
                }
            }
        }
        out.push((leaves, next.len()));
        level = next.into_iter().collect();
    }
    out
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/rules/perft.txt")
}

fn table() -> String {
    let mut out = String::new();
    for (game, options, max) in configs() {
        let rules = Rules::new(game, options).unwrap();
        let name = format!("{game} {options}");
        for (depth, (leaves, distinct)) in perft(rules, max).into_iter().enumerate() {
            writeln!(
                out,
                "{:<32} {:>2} {:>10} {:>10}",
                name.trim_end(),
                depth + 1,
                leaves,
                distinct
            )
            .unwrap();
        }
    }
    out
}

#[test]
fn perft_counts_match_the_fixture() {
    if let Err(e) = common::check_fixture(&path(), &table(), "") {
        panic!("{e}");
    }
}

/// Depth 1 is every first move: 14 in Olinda Keliya (7 holes, 2
/// directions), one per hole elsewhere; all distinct.
#[test]
fn depth_one_is_the_number_of_first_moves() {
    for (game, first_moves) in [
        (GameId::OlindaKeliya, 14),
        (GameId::Olowuka, 6),
        (GameId::Pallankuzhi, 7),
        (GameId::RioKadalis, 6),
    ] {
        assert_eq!(
            perft(Rules::standard(game), 1),
            vec![(first_moves, first_moves as usize)]
        );
    }
}

/// Leaves and distinct positions of the reference model, depth first.
fn reference_perft(m: &reference::RefMatch, depth: usize, seen: &mut HashSet<String>) -> u64 {
    if depth == 0 {
        seen.insert(format!("{:?} {} {:?}", m.board, m.to_move, m.south_ccw));
        return 1;
    }
    let mut leaves = 0;
    for mv in m.legal_moves().unwrap() {
        let reference::RefVerdict::Finite { board, .. } = m.verdict(mv) else {
            unreachable!("a legal move without endless-ends-game is finite");
        };
        let mut child = m.clone();
        child.apply(mv, board);
        leaves += reference_perft(&child, depth - 1, seen);
    }
    leaves
}

/// The first four depths of every configuration, counted again by the
/// independent reference model.
#[test]
fn perft_agrees_with_the_reference_model() {
    for (game, options, max) in configs() {
        let rules = Rules::new(game, options).unwrap();
        let r = reference::RefRules::parse(game.as_str(), &options.to_string());
        let start = reference::RefMatch::at(
            r.clone(),
            u64::from(rules.lap_budget()),
            reference::RefBoard::start(&r),
            reference::SOUTH,
            None,
            1,
            reference::SOUTH,
        );
        let ours = perft(rules, max.min(4));
        for (depth, &(leaves, distinct)) in ours.iter().enumerate() {
            let mut seen = HashSet::new();
            let theirs = reference_perft(&start, depth + 1, &mut seen);
            assert_eq!(
                (leaves, distinct),
                (theirs, seen.len()),
                "{game} [{options}] depth {}",
                depth + 1
            );
        }
    }
}
