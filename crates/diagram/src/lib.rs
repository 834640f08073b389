//! Board diagrams, for `mancala-render` and `mancala-play`'s human mode.
//!
//! North sits at the top, South at the bottom. South's holes `A B C …` run
//! left to right along the bottom; North's `a b c …`, labelled from North's
//! own left, run right to left along the top, so that `a` is above South's
//! last hole and counter-clockwise sowing goes round the page the same way.
//! Stores (Olinda Keliya, Pallankuzhi) sit at the ends, North's at the left
//! and South's at the right; Olowuka's captures and Rio Kadalis's winnings
//! are written next to each player's name. Closed holes are filled solid.
//! Every diagram fits in 80 columns.
//!
//! ```text
//! olinda-keliya
//! North  store 0 (left)  sows cw  <- to move
//!             g     f     e     d     c     b     a
//!   +-----+-----+-----+-----+-----+-----+-----+-----+-----+
//!   |     |   6 |   0x|   0 |   7*|   0^|   7 |   7 |     |
//!   |   0 +-----+-----+-----+-----+-----+-----+-----+   6 |
//!   |     |   1 |   6 |   6 |   0 |   2 |   1 |   7 |     |
//!   +-----+-----+-----+-----+-----+-----+-----+-----+-----+
//!             A     B     C     D     E     F     G
//! South  store 6 (right)  sows ccw
//!   ^ lifted   * last seed   x captured
//! ```
//!
//! Marks after a count: `^` the hole lifted, `*` the hole of the last seed,
//! `x` a hole captured (a legend line says which appear); with colour on,
//! these holes are also cyan, green and red.
//!
//! Lap headings read like the worked examples of spec/rules/:
//!
//! ```text
//! lap 1: E(5) sown a b(pasu, South +4) c d e, ends in e; A holds 2: relay from A
//! lap 7: c(1) sown d, ends in d; e is empty: sowing stops
//! South captures f (6), two ahead past empty e
//! lap 2: F(6) sown a b c d e f, ends in f, now 3
//! South captures f (3), e (2), d (2), c (2), b (2): 11 in all
//! a (2) kept: grand slam (taking it would empty North's row)
//! lap 2: C(3) sown D(made 4, South +4) E F, ends in F, which was empty
//! ```
//!
//! [`draw_position`] draws a position; [`lap_frames`] and [`ply_frame`]
//! turn a move into [`Frame`]s — boards with a heading — that
//! [`draw_frames`] draws and [`FramesJson`] serializes. Everything writes
//! into a [`std::fmt::Write`]; nothing here prints.

mod draw;
mod frames;
mod html;
mod svg;

pub use draw::{Board, Charset, Highlights, Mark, Style, draw_board, draw_position};
pub use frames::{
    DEFAULT_MAX_LAPS, Frame, FrameKind, FramesJson, draw_frame, draw_frames, for_each_lap_frame,
    lap_frames, ply_frame, position_frame,
};
pub use html::{GameFacts, NoteKind, Page, StepAt};
pub use svg::{MAX_DOTS, MAX_LAP_ENDS, View, write_svg};

#[cfg(test)]
mod tests {
    use mancala_rules::{Dir, GameId, Hole, Move, Options, Position, Rules, Setup, Side};

    use super::*;

    fn rules(game: GameId, options: &str) -> Rules {
        Rules::new(game, options.parse::<Options>().unwrap()).unwrap()
    }

    /// Reads the board notation of spec/rules/, `A3 B0 … | a1 b1 …`, with `#` for a
    /// closed hole (`F#`).
    fn position(
        rules: Rules,
        board: &str,
        stores: [u32; 2],
        to_move: Side,
        south_dir: Option<Dir>,
        round: u32,
    ) -> Position {
        let (south, north) = board.split_once('|').unwrap();
        let row = |text: &str| -> Vec<Option<u32>> {
            text.split_whitespace()
                .map(|word| match &word[1..] {
                    "#" => None,
                    seeds => Some(seeds.parse().unwrap()),
                })
                .collect()
        };
        let setup = Setup {
            south: row(south),
            north: row(north),
            stores,
            to_move,
            south_dir,
            round,
            round_starter: None,
        };
        Position::from_setup(rules, &setup).unwrap()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn drawn_position(position: &Position, style: Style) -> String {
        let mut out = String::new();
        draw_position(&mut out, position, &Highlights::NONE, style).unwrap();
        out
    }

    fn drawn_frames(frames: &[Frame], style: Style) -> String {
        let mut out = String::new();
        draw_frames(&mut out, frames, style).unwrap();
        out
    }

    /// The text as a terminal shows it: without ANSI escapes.
    fn visible(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                chars.by_ref().find(|c| *c == 'm');
            } else {
                out.push(c);
            }
        }
        out
    }

    fn assert_fits(text: &str) {
        for line in visible(text).lines() {
            assert!(
                line.chars().count() <= 80,
                "wider than 80 columns: {line:?}"
            );
        }
    }

    /// Every game, and every option that changes the starting board.
    const STARTS: [(&str, GameId, &str); 10] = [
        ("start_olinda_keliya", GameId::OlindaKeliya, ""),
        (
            "start_olinda_keliya_seeds_5",
            GameId::OlindaKeliya,
            "seeds=5",
        ),
        (
            "start_olinda_keliya_seeds_6",
            GameId::OlindaKeliya,
            "seeds=6",
        ),
        (
            "start_olinda_keliya_seeds_7",
            GameId::OlindaKeliya,
            "seeds=7",
        ),
        ("start_olowuka", GameId::Olowuka, ""),
        ("start_pallankuzhi", GameId::Pallankuzhi, ""),
        ("start_pallankuzhi_seeds_4", GameId::Pallankuzhi, "seeds=4"),
        ("start_pallankuzhi_seeds_5", GameId::Pallankuzhi, "seeds=5"),
        ("start_rio_kadalis", GameId::RioKadalis, ""),
        (
            "start_rio_kadalis_five_holes",
            GameId::RioKadalis,
            "five-holes",
        ),
    ];

    #[test]
    fn start_positions_in_ascii_and_unicode() {
        for (name, game, options) in STARTS {
            let start = Position::new(rules(game, options));
            let text = format!(
                "{}\n{}",
                drawn_position(&start, Style::ASCII),
                drawn_position(&start, Style::UNICODE)
            );
            assert_fits(&text);
            insta::assert_snapshot!(name, text);
        }
    }

    #[test]
    fn example_1_olinda_keliya_opening_lap_by_lap() {
        let start = Position::new(Rules::standard(GameId::OlindaKeliya));
        let frames = lap_frames(&start, mv("E:ccw"), DEFAULT_MAX_LAPS).unwrap();
        assert_eq!(frames.len(), 1 + 7);
        let text = drawn_frames(&frames, Style::ASCII);
        assert_fits(&text);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn example_2_olinda_keliya_mid_game_lap_by_lap() {
        let before = position(
            Rules::standard(GameId::OlindaKeliya),
            "A2 B3 C1 D0 E0 F5 G1 | a4 b0 c2 d1 e2 f3 g0",
            [16, 16],
            Side::South,
            Some(Dir::Ccw),
            1,
        );
        let frames = lap_frames(&before, mv("F"), DEFAULT_MAX_LAPS).unwrap();
        assert_eq!(frames.len(), 1 + 3);
        let text = drawn_frames(&frames, Style::ASCII);
        assert_fits(&text);
        insta::assert_snapshot!(text);
    }

    fn example_3() -> Position {
        position(
            Rules::standard(GameId::Olowuka),
            "A3 B0 C1 D2 E0 F5 | a1 b1 c1 d1 e1 f2",
            [16, 14],
            Side::South,
            None,
            1,
        )
    }

    #[test]
    fn example_3_olowuka_grand_slam_lap_by_lap() {
        let frames = lap_frames(&example_3(), mv("D"), DEFAULT_MAX_LAPS).unwrap();
        assert_eq!(frames.len(), 1 + 2);
        let text = drawn_frames(&frames, Style::UNICODE);
        assert_fits(&text);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn example_3_olowuka_frames_as_json() {
        let before = example_3();
        let frames = lap_frames(&before, mv("D"), DEFAULT_MAX_LAPS).unwrap();
        let json = serde_json::to_string_pretty(&FramesJson::new(before.rules(), &frames)).unwrap();
        insta::assert_snapshot!(json);
    }

    fn pallankuzhi_round_2() -> Position {
        position(
            Rules::standard(GameId::Pallankuzhi),
            "A2 B0 C3 D1 E5 F# G# | a1 b3 c0 d2 e6 f# g#",
            [30, 31],
            Side::South,
            None,
            2,
        )
    }

    /// The position in Unicode, then the move lap by lap in ASCII.
    fn round_2_diagrams(before: &Position, played: &str) -> String {
        let frames = lap_frames(before, mv(played), DEFAULT_MAX_LAPS).unwrap();
        let text = format!(
            "{}\n{}",
            drawn_position(before, Style::UNICODE),
            drawn_frames(&frames, Style::ASCII)
        );
        assert_fits(&text);
        text
    }

    #[test]
    fn pallankuzhi_round_2_with_closed_holes() {
        insta::assert_snapshot!(round_2_diagrams(&pallankuzhi_round_2(), "E"));
    }

    fn rio_kadalis_round_2() -> Position {
        position(
            Rules::standard(GameId::RioKadalis),
            "A# B# C2 D3 E1 F0 | a# b1 c3 d0 e2 f3",
            [15, 18],
            Side::North,
            None,
            2,
        )
    }

    #[test]
    fn rio_kadalis_round_2_with_closed_holes() {
        insta::assert_snapshot!(round_2_diagrams(&rio_kadalis_round_2(), "e"));
    }

    #[test]
    fn every_ply_of_an_olinda_keliya_opening() {
        let mut position = Position::new(Rules::standard(GameId::OlindaKeliya));
        let mut frames = vec![position_frame(&position)];
        for (number, text) in (1..).zip(["E:ccw", "b", "G", "d"]) {
            let frame = ply_frame(&position, mv(text), number).unwrap();
            position = match position.play(mv(text)).unwrap() {
                mancala_rules::Played::Finite { position, .. } => position,
                endless => panic!("{endless:?}"),
            };
            assert_eq!(frame.board, Board::of(&position));
            frames.push(frame);
        }
        let text = drawn_frames(&frames, Style::ASCII);
        assert_fits(&text);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn a_rio_kadalis_ply_where_both_sides_take_fours() {
        let frame = ply_frame(&rio_kadalis_round_2(), mv("e"), 31).unwrap();
        insta::assert_snapshot!(drawn_frames(&[frame], Style::ASCII));
    }

    /// Found by search: the shortest endless move of Rio Kadalis among
    /// random small boards cycles through 60 laps.
    fn rio_kadalis_endless(options: &str) -> Position {
        position(
            rules(GameId::RioKadalis, options),
            "A0 B2 C1 D0 E1 F0 | a2 b1 c0 d2 e1 f2",
            [12, 24],
            Side::North,
            None,
            1,
        )
    }

    #[test]
    fn an_endless_move_is_drawn_up_to_its_repeat() {
        let frames = lap_frames(&rio_kadalis_endless(""), mv("f"), DEFAULT_MAX_LAPS).unwrap();
        assert_eq!(frames.len(), 1 + 60);
        let last = frames.last().unwrap();
        assert_eq!(last.kind, FrameKind::Lap { lap: 60 });
        insta::assert_snapshot!(last.heading.join("\n"));
        // The board after the last lap is the one the move started from.
        assert_eq!(last.board.south, frames[0].board.south);
        assert_eq!(last.board.north, frames[0].board.north);
    }

    #[test]
    fn an_endless_move_cut_short() {
        let frames = lap_frames(&rio_kadalis_endless(""), mv("f"), 2).unwrap();
        assert_eq!(frames.len(), 1 + 2);
        let text = drawn_frames(&frames, Style::ASCII);
        assert_fits(&text);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn an_endless_ply_under_endless_ends_game() {
        let before = rio_kadalis_endless("endless-ends-game");
        let frame = ply_frame(&before, mv("f"), 40).unwrap();
        // The board as it was, and the turn passed as after any move.
        let unchanged = Board {
            to_move: before.to_move().opposite(),
            ..Board::of(&before)
        };
        assert_eq!(frame.board, unchanged);
        insta::assert_snapshot!(drawn_frames(&[frame], Style::ASCII));
        // Without the option no record can hold the move.
        assert!(ply_frame(&rio_kadalis_endless(""), mv("f"), 40).is_err());
    }

    #[test]
    fn moves_that_cannot_be_sown_are_errors() {
        let start = Position::new(Rules::standard(GameId::OlindaKeliya));
        assert!(lap_frames(&start, mv("E"), DEFAULT_MAX_LAPS).is_err());
        assert!(lap_frames(&start, mv("e:ccw"), DEFAULT_MAX_LAPS).is_err());
    }

    #[test]
    fn colour_only_when_asked() {
        let frames = lap_frames(&example_3(), mv("D"), DEFAULT_MAX_LAPS).unwrap();
        let plain = drawn_frames(&frames, Style::UNICODE);
        let coloured = drawn_frames(&frames, Style::UNICODE.with_colour(true));
        assert!(!plain.contains('\x1b'));
        assert!(
            coloured.contains("\x1b[1;31m   0x\x1b[0m"),
            "captures in red"
        );
        assert!(
            coloured.contains("\x1b[1;32m   6*\x1b[0m"),
            "last seed in green"
        );
        assert_eq!(visible(&coloured), plain);
    }

    #[test]
    fn three_digit_counts_fit_every_game() {
        for (_, game, options) in STARTS {
            let start = Position::new(rules(game, options));
            let mut board = Board::of(&start);
            board.south[0] = Some(255);
            board.north[0] = Some(188);
            board.stores = [255, 100];
            board.directions = [None, None];
            let highlights = Highlights {
                lifted: Some(Hole::new(Side::South, 1)),
                last: Some(Hole::new(Side::North, 0)),
                captured: vec![Hole::new(Side::South, 0)],
            };
            for style in [Style::ASCII, Style::UNICODE.with_colour(true)] {
                let mut out = String::new();
                draw_board(&mut out, &board, &highlights, style).unwrap();
                assert_fits(&out);
                assert!(visible(&out).contains(" 255x"));
                assert!(visible(&out).contains(" 188*"));
            }
        }
        let start = Position::new(Rules::standard(GameId::OlindaKeliya));
        let mut board = Board::of(&start);
        board.south[6] = Some(255);
        board.stores = [255, 255];
        let mut out = String::new();
        draw_board(&mut out, &board, &Highlights::NONE, Style::ASCII).unwrap();
        insta::assert_snapshot!(out);
    }

    #[test]
    fn long_headings_wrap_at_80_columns() {
        // Olinda Keliya with 7 seeds: laps of up to 20-odd seeds.
        let start = Position::new(rules(GameId::OlindaKeliya, "seeds=7"));
        for candidate in start.candidates().iter() {
            if let Ok(frames) = lap_frames(&start, candidate, DEFAULT_MAX_LAPS) {
                assert_fits(&drawn_frames(&frames, Style::UNICODE));
            }
        }
    }
}
