//! The worked examples at the end of rules.md, checked hole by hole.

use mancala_rules::{
    CaptureKind, Dir, Event, GameId, Hole, LapEnd, Move, Played, Position, Rules, Setup, Side,
    Trace,
};

/// Reads rules.md's board notation: `A3 B0 … | a1 b1 …`.
fn board(text: &str) -> (Vec<Option<u32>>, Vec<Option<u32>>) {
    let (south, north) = text.split_once('|').unwrap();
    let row = |s: &str| {
        s.split_whitespace()
            .map(|w| Some(w[1..].parse().unwrap()))
            .collect()
    };
    (row(south), row(north))
}

fn position(rules: Rules, text: &str, stores: [u32; 2], south_dir: Option<Dir>) -> Position {
    let (south, north) = board(text);
    let setup = Setup {
        south,
        north,
        stores,
        to_move: Side::South,
        south_dir,
        round: 1,
        round_starter: None,
    };
    Position::from_setup(rules, &setup).unwrap()
}

fn assert_board(pos: &Position, text: &str) {
    let (south, north) = board(text);
    assert_eq!(pos.to_setup().south, south, "South's row");
    assert_eq!(pos.to_setup().north, north, "North's row");
}

fn laps(trace: &Trace) -> Vec<(char, u8, char)> {
    let mut out = Vec::new();
    let mut start = None;
    for e in &trace.events {
        match e {
            Event::LapStart { hole, seeds } => start = Some((hole.label(), *seeds)),
            Event::LapEnd { last, .. } => {
                let (h, s) = start.take().unwrap();
                out.push((h, s, last.label()));
            }
            _ => {}
        }
    }
    out
}

fn finite(played: Played) -> Position {
    match played {
        Played::Finite { position, .. } => position,
        other => panic!("expected a finite move, got {other:?}"),
    }
}

#[test]
fn example_1_olinda_keliya_opening_e_ccw() {
    let rules = Rules::standard(GameId::OlindaKeliya);
    let start = Position::new(rules);
    let mut trace = Trace::default();
    let after = finite(
        start
            .play_traced(
                Move::with_dir(Hole::new(Side::South, 4), Dir::Ccw),
                &mut trace,
            )
            .unwrap(),
    );
    assert_eq!(
        laps(&trace),
        vec![
            ('E', 4, 'b'),
            ('c', 4, 'g'),
            ('A', 4, 'E'),
            ('F', 5, 'd'),
            ('e', 5, 'C'),
            ('D', 5, 'b'),
            ('c', 1, 'd')
        ]
    );
    let captures: Vec<_> = trace.captures().copied().collect();
    assert_eq!(captures.len(), 1);
    assert_eq!(captures[0].hole, Hole::new(Side::North, 5));
    assert_eq!(captures[0].seeds, 6);
    assert_eq!(captures[0].kind, CaptureKind::TwoAhead);
    assert_board(&after, "A1 B6 C6 D0 E2 F1 G7 | a7 b7 c0 d7 e0 f0 g6");
    assert_eq!(after.store(Side::South), 6);
    assert_eq!(after.store(Side::North), 0);
    assert_eq!(after.south_dir(), Some(Dir::Ccw));
    assert_eq!(after.dir_of(Side::North), Some(Dir::Cw));
}

#[test]
fn example_2_olinda_keliya_mid_game_no_capture() {
    let rules = Rules::standard(GameId::OlindaKeliya);
    // 24 seeds on the board; the rest of the game's 56 are in the stores.
    let before = position(
        rules,
        "A2 B3 C1 D0 E0 F5 G1 | a4 b0 c2 d1 e2 f3 g0",
        [16, 16],
        Some(Dir::Ccw),
    );
    let mut trace = Trace::default();
    let after = finite(
        before
            .play_traced(Move::new(Hole::new(Side::South, 5)), &mut trace)
            .unwrap(),
    );
    assert_eq!(
        laps(&trace),
        vec![('F', 5, 'd'), ('e', 2, 'g'), ('A', 2, 'C')]
    );
    assert_eq!(trace.captures().count(), 0);
    let last_end = trace.events.iter().rev().find_map(|e| match e {
        Event::LapEnd { end, .. } => Some(*end),
        _ => None,
    });
    assert_eq!(last_end, Some(LapEnd::NextEmpty(Hole::new(Side::South, 3))));
    assert_board(&after, "A0 B4 C2 D0 E0 F0 G2 | a5 b1 c3 d2 e0 f4 g1");
    assert_eq!(after.store(Side::South), 16);
}

#[test]
fn example_3_olowuka_grand_slam_leaves_a() {
    let rules = Rules::standard(GameId::Olowuka);
    let before = position(
        rules,
        "A3 B0 C1 D2 E0 F5 | a1 b1 c1 d1 e1 f2",
        [16, 14],
        None,
    );
    let mut trace = Trace::default();
    let after = finite(
        before
            .play_traced(Move::new(Hole::new(Side::South, 3)), &mut trace)
            .unwrap(),
    );
    assert_eq!(laps(&trace), vec![('D', 2, 'F'), ('F', 6, 'f')]);
    let taken: Vec<(char, u8)> = trace
        .captures()
        .map(|c| (c.hole.label(), c.seeds))
        .collect();
    assert_eq!(
        taken,
        vec![('f', 3), ('e', 2), ('d', 2), ('c', 2), ('b', 2)]
    );
    assert!(trace.events.contains(&Event::GrandSlamLeft {
        hole: Hole::new(Side::North, 0),
        seeds: 2
    }));
    assert_eq!(after.store(Side::South), 16 + 11);
    assert_board(&after, "A3 B0 C1 D0 E1 F0 | a2 b0 c0 d0 e0 f0");
}
