//! The worked examples at the end of rules.md, checked hole by hole, and
//! further hand-worked examples for the rules no opening reaches.

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

fn laps(trace: &Trace) -> Vec<LapSummary> {
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

// --- Further hand-worked examples: the rules the openings never reach -------

fn rules_with(game: GameId, options: &str) -> Rules {
    Rules::new(game, options.parse().unwrap()).unwrap()
}

/// A capture: hole label, seeds, taker.
type Taken = (char, u8, Side);
/// A lap: start label, seeds lifted, label of the last hole.
type LapSummary = (char, u8, char);

/// Plays South's `hole` and returns the position, the captures and the laps.
fn play(
    rules: Rules,
    before: &str,
    stores: [u32; 2],
    dir: Option<Dir>,
    hole: &str,
) -> (Position, Vec<Taken>, Vec<LapSummary>) {
    let pos = position(rules, before, stores, dir);
    let mut trace = Trace::default();
    let after = finite(pos.play_traced(hole.parse().unwrap(), &mut trace).unwrap());
    let taken = trace
        .captures()
        .map(|c| (c.hole.label(), c.seeds, c.taker))
        .collect();
    (after, taken, laps(&trace))
}

/// Pallankuzhi, South plays G1: the seed makes a = 4 with the lap's last
/// seed. Standard: the pasu takes a's 4 for the mover; the hole after a
/// (b) is empty, so the pussa takes c(2). `pasu-to-owner`: North takes the
/// 4. `no-pasu-on-last-seed`: a keeps its 4, and the pussa still takes c.
#[test]
fn pallankuzhi_pasu_on_the_last_seed_and_its_options() {
    let before = "A0 B0 C0 D0 E0 F0 G1 | a3 b0 c2 d0 e0 f0 g0";
    let cases = [
        (
            "",
            vec![('a', 4, Side::South), ('c', 2, Side::South)],
            [46, 38],
            "a0",
        ),
        (
            "pasu-to-owner",
            vec![('a', 4, Side::North), ('c', 2, Side::South)],
            [42, 42],
            "a0",
        ),
        (
            "no-pasu-on-last-seed",
            vec![('c', 2, Side::South)],
            [42, 38],
            "a4",
        ),
    ];
    for (options, taken, stores, a) in cases {
        let rules = rules_with(GameId::Pallankuzhi, options);
        let (after, got, laps) = play(rules, before, [40, 38], None, "G");
        assert_eq!(laps, vec![('G', 1, 'a')], "{options}");
        assert_eq!(got, taken, "{options}");
        assert_eq!([after.store(Side::South), after.store(Side::North)], stores);
        assert_board(
            &after,
            &format!("A0 B0 C0 D0 E0 F0 G0 | {a} b0 c0 d0 e0 f0 g0"),
        );
    }
}

/// Pallankuzhi, South plays G1 into a; b is empty, so the pussa takes c(5).
/// `capture-opposite` also takes the hole facing c: South's E(2) (A faces g,
/// so E faces c).
#[test]
fn pallankuzhi_capture_opposite_takes_the_facing_hole() {
    let before = "A0 B0 C0 D0 E2 F0 G1 | a0 b0 c5 d0 e0 f0 g0";
    let (after, taken, _) = play(
        Rules::standard(GameId::Pallankuzhi),
        before,
        [38, 38],
        None,
        "G",
    );
    assert_eq!(taken, vec![('c', 5, Side::South)]);
    assert_board(&after, "A0 B0 C0 D0 E2 F0 G0 | a1 b0 c0 d0 e0 f0 g0");
    let (after, taken, _) = play(
        rules_with(GameId::Pallankuzhi, "capture-opposite"),
        before,
        [38, 38],
        None,
        "G",
    );
    assert_eq!(taken, vec![('c', 5, Side::South), ('E', 2, Side::South)]);
    assert_board(&after, "A0 B0 C0 D0 E0 F0 G0 | a1 b0 c0 d0 e0 f0 g0");
    assert_eq!(after.store(Side::South), 45);
}

/// Rio Kadalis, South plays A2: B becomes 4 mid-lap and goes to its owner
/// (South), then the last stone makes C = 4: binikh, the mover takes it,
/// in the mover's own row, and the move ends. Then South plays F2: a
/// becomes 4 mid-lap and goes to North; the last stone falls into the empty
/// b and the move ends.
#[test]
fn rio_kadalis_fours_go_to_the_owner_and_binikh_to_the_mover() {
    let rules = Rules::standard(GameId::RioKadalis);
    let (after, taken, laps) = play(
        rules,
        "A2 B3 C3 D0 E0 F0 | a0 b0 c0 d0 e0 f0",
        [20, 20],
        None,
        "A",
    );
    assert_eq!(laps, vec![('A', 2, 'C')]);
    assert_eq!(taken, vec![('B', 4, Side::South), ('C', 4, Side::South)]);
    assert_board(&after, "A0 B0 C0 D0 E0 F0 | a0 b0 c0 d0 e0 f0");
    assert_eq!(after.store(Side::South), 28);

    let (after, taken, laps) = play(
        rules,
        "A0 B0 C0 D0 E0 F2 | a3 b0 c0 d0 e0 f0",
        [23, 20],
        None,
        "F",
    );
    assert_eq!(laps, vec![('F', 2, 'b')]);
    assert_eq!(taken, vec![('a', 4, Side::North)]);
    assert_board(&after, "A0 B0 C0 D0 E0 F0 | a0 b1 c0 d0 e0 f0");
    assert_eq!(
        [after.store(Side::South), after.store(Side::North)],
        [23, 24]
    );
}

/// Olinda Keliya (South sowing CCW) plays A1 into B; C is empty, so D(2) is
/// captured. `series-capture` goes on: E empty, F(3) taken; G empty, a(1)
/// taken; then b is not empty and the series stops.
#[test]
fn olinda_keliya_series_capture() {
    let before = "A1 B0 C0 D2 E0 F3 G0 | a1 b2 c0 d0 e0 f0 g0";
    let (after, taken, _) = play(
        Rules::standard(GameId::OlindaKeliya),
        before,
        [24, 23],
        Some(Dir::Ccw),
        "A",
    );
    assert_eq!(taken, vec![('D', 2, Side::South)]);
    assert_board(&after, "A0 B1 C0 D0 E0 F3 G0 | a1 b2 c0 d0 e0 f0 g0");
    let (after, taken, _) = play(
        rules_with(GameId::OlindaKeliya, "series-capture"),
        before,
        [24, 23],
        Some(Dir::Ccw),
        "A",
    );
    assert_eq!(
        taken,
        vec![
            ('D', 2, Side::South),
            ('F', 3, Side::South),
            ('a', 1, Side::South)
        ]
    );
    assert_board(&after, "A0 B1 C0 D0 E0 F0 G0 | a0 b2 c0 d0 e0 f0 g0");
    assert_eq!(after.store(Side::South), 30);
}

/// Olowuka, South plays A12: eleven seeds go round to f and the twelfth
/// falls back into A (1: the turn ends). Under `skip-origin` the twelfth
/// skips A and falls into B, which then holds 2 in South's own row: the
/// turn ends without capture.
#[test]
fn skip_origin_skips_the_lap_start() {
    let before = "A12 B0 C0 D0 E0 F0 | a0 b0 c0 d0 e0 f0";
    let (after, _, laps) = play(
        Rules::standard(GameId::Olowuka),
        before,
        [18, 18],
        None,
        "A",
    );
    assert_eq!(laps, vec![('A', 12, 'A')]);
    assert_board(&after, "A1 B1 C1 D1 E1 F1 | a1 b1 c1 d1 e1 f1");
    let (after, taken, laps) = play(
        rules_with(GameId::Olowuka, "skip-origin"),
        before,
        [18, 18],
        None,
        "A",
    );
    assert_eq!(laps, vec![('A', 12, 'B')]);
    assert!(taken.is_empty());
    assert_board(&after, "A0 B2 C1 D1 E1 F1 | a1 b1 c1 d1 e1 f1");
}

/// Rio Kadalis: whether a lap's last stone falls into an empty hole is
/// judged by what the hole holds just before that stone drops. South plays
/// A24: the 24th stone falls back into A, which the lap emptied but whose
/// 12th stone it holds: A's 2 are sown on. The sixth lap passes B (4: to
/// its owner, South) and ends in C, emptied by the third lap and still
/// empty when the last stone drops.
#[test]
fn rio_kadalis_empty_hole_is_judged_when_the_last_stone_drops() {
    let (after, taken, laps) = play(
        Rules::standard(GameId::RioKadalis),
        "A24 B0 C0 D0 E0 F0 | a0 b0 c0 d0 e0 f0",
        [12, 12],
        None,
        "A",
    );
    assert_eq!(
        laps,
        vec![
            ('A', 24, 'A'),
            ('A', 2, 'C'),
            ('C', 3, 'F'),
            ('F', 3, 'c'),
            ('c', 3, 'f'),
            ('f', 3, 'C'),
        ]
    );
    assert_eq!(taken, vec![('B', 4, Side::South)]);
    assert_board(&after, "A1 B0 C1 D3 E3 F0 | a3 b3 c0 d3 e3 f0");
    assert_eq!(after.stores(), [16, 12]);
    assert_eq!(after.to_move(), Side::North);
}

/// The same rule in a five-holes match's second round, North's a to d
/// closed: North plays e2; the second lap lifts B(12), whose last stone
/// falls back into B (emptied by that lap, refilled by its sixth stone), so
/// B's 2 are sown on and the last makes D four: binikh for North. Fours
/// made on the way (E, C, A) go to their owner, South.
#[test]
fn rio_kadalis_a_hole_lifted_by_the_lap_and_refilled_relays() {
    let rules = rules_with(GameId::RioKadalis, "five-holes");
    let setup = Setup {
        south: [1, 11, 2, 1, 3].map(Some).to_vec(),
        north: vec![None, None, None, None, Some(2)],
        stores: [20, 0],
        to_move: Side::North,
        south_dir: None,
        round: 2,
        round_starter: None,
    };
    let pos = Position::from_setup(rules, &setup).unwrap();
    let mut trace = Trace::default();
    let after = finite(pos.play_traced("e".parse().unwrap(), &mut trace).unwrap());
    assert_eq!(
        laps(&trace),
        vec![('e', 2, 'B'), ('B', 12, 'B'), ('B', 2, 'D')]
    );
    let taken: Vec<Taken> = trace
        .captures()
        .map(|c| (c.hole.label(), c.seeds, c.taker))
        .collect();
    assert_eq!(
        taken,
        vec![
            ('E', 4, Side::South),
            ('C', 4, Side::South),
            ('A', 4, Side::South),
            ('D', 4, Side::North),
        ]
    );
    let got = after.to_setup();
    assert_eq!(got.south, [0, 0, 1, 0, 1].map(Some).to_vec());
    assert_eq!(got.north, vec![None, None, None, None, Some(2)]);
    assert_eq!(got.stores, [32, 4]);
    assert_eq!(got.to_move, Side::South);
}
