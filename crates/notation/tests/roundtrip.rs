//! Property tests: `parse(print(r)) == r` for every record, and printing a
//! parsed text is stable (a second pass changes nothing); the JSON form
//! reads back as the tools read it, and any JSON-like stream reads without
//! a panic.

use mancala_notation::{
    GameResult, Item, JsonReader, Nag, Record, StandardTags, Tag, parse_game, parse_json_game,
};
use mancala_rules::{Dir, EndReason, GameId, Hole, Move, Opt, Options, Setup, Side};
use proptest::prelude::*;

fn game_id() -> impl Strategy<Value = GameId> {
    prop::sample::select(GameId::ALL.to_vec())
}

fn options() -> impl Strategy<Value = Options> {
    (
        prop::collection::vec(any::<bool>(), Opt::ALL.len()),
        prop::option::of(1u8..=99),
        prop::option::of(1u32..),
    )
        .prop_map(|(on, seeds, rounds)| {
            let mut options = Options::new();
            for (opt, on) in Opt::ALL.iter().zip(on) {
                if on {
                    options = options.with(*opt);
                }
            }
            if let Some(n) = rounds {
                options = options.with_rounds(n);
            }
            match seeds {
                Some(n) => options.with_seeds(n),
                None => options,
            }
        })
}

/// Tag values: any text without line breaks (quotes and backslashes included).
fn value() -> impl Strategy<Value = String> {
    "[^\r\n]{0,30}"
}

fn side() -> impl Strategy<Value = Side> {
    prop::sample::select(vec![Side::South, Side::North])
}

fn setup() -> impl Strategy<Value = Setup> {
    let row = prop::collection::vec(prop::option::of(0u32..=300), 1..9);
    (
        row.clone(),
        row,
        any::<[u16; 2]>(),
        side(),
        prop::option::of(prop::sample::select(vec![Dir::Ccw, Dir::Cw])),
        1u32..50,
        prop::option::of(side()),
    )
        .prop_map(
            |(south, north, stores, to_move, south_dir, round, round_starter)| Setup {
                south,
                north,
                stores: stores.map(u32::from),
                to_move,
                south_dir,
                round,
                round_starter,
            },
        )
}

/// One piece of a movetext as drawn: an item of a line, or the start or end
/// of a variation. [`movetext`] makes a well-formed movetext of a list.
#[derive(Clone, Debug)]
enum Piece {
    Item(Item),
    Open,
    Close,
}

fn piece() -> impl Strategy<Value = Piece> {
    let mv = (
        prop::char::range('A', 'Z').prop_union(prop::char::range('a', 'z')),
        prop::option::of(prop::sample::select(vec![Dir::Ccw, Dir::Cw])),
        prop::option::of(0u32..100),
    )
        .prop_map(|(label, dir, captured)| Item::Move {
            mv: Move {
                hole: Hole::from_label(label).unwrap(),
                dir,
            },
            captured,
        });
    prop_oneof![
        16 => mv.prop_map(Piece::Item),
        2 => (2u32..20).prop_map(|round| Piece::Item(Item::Round { round })),
        // Comments hold anything but `}` and CR (read as a line break); a
        // line inside one must not begin with `[`.
        2 => "[^}\\[\r]{0,40}".prop_map(|comment| Piece::Item(Item::Comment { comment })),
        // The suffix forms and some others, 0 and 255 included.
        3 => prop_oneof![1u8..=6, Just(0), 7u8..=255].prop_map(|nag| Piece::Item(Item::Nag { nag: Nag(nag) })),
        1 => Just(Piece::Open),
        1 => Just(Piece::Close),
    ]
}

/// The movetext the pieces make once what MGN cannot say is mended: a NAG
/// or a variation where no move stands before it is dropped, an empty
/// variation gets a move, and variations left open are closed.
fn movetext(pieces: Vec<Piece>) -> Vec<Item> {
    // Each open line: its items, whether a move stands before (with only
    // NAGs, comments and variations since), whether it has a move.
    let mut lines: Vec<(Vec<Item>, bool, bool)> = vec![(Vec::new(), false, false)];
    let filler = Item::Move {
        mv: Move {
            hole: Hole::from_label('A').unwrap(),
            dir: None,
        },
        captured: None,
    };
    let close = |lines: &mut Vec<(Vec<Item>, bool, bool)>| {
        let (mut items, _, has_move) = lines.pop().unwrap();
        if !has_move {
            items.push(filler.clone());
        }
        let outer = lines.last_mut().unwrap();
        outer.0.push(Item::Variation { variation: items });
        outer.1 = true;
    };
    for piece in pieces {
        let depth = lines.len() - 1;
        let (items, after_move, has_move) = lines.last_mut().unwrap();
        match piece {
            Piece::Item(item @ Item::Move { .. }) => {
                items.push(item);
                (*after_move, *has_move) = (true, true);
            }
            Piece::Item(item @ Item::Round { .. }) => {
                items.push(item);
                *after_move = false;
            }
            Piece::Item(item @ Item::Nag { .. }) if *after_move => items.push(item),
            Piece::Item(item @ Item::Comment { .. }) => items.push(item),
            Piece::Open if *after_move && depth < 4 => lines.push((Vec::new(), false, false)),
            Piece::Close if depth > 0 => close(&mut lines),
            _ => {}
        }
    }
    while lines.len() > 1 {
        close(&mut lines);
    }
    lines.pop().unwrap().0
}
fn record() -> impl Strategy<Value = Record> {
    let tags = prop::collection::vec(prop::option::of(value()), 6).prop_map(|v| StandardTags {
        event: v[0].clone(),
        site: v[1].clone(),
        date: v[2].clone(),
        round: v[3].clone(),
        south: v[4].clone(),
        north: v[5].clone(),
    });
    let extra = prop::collection::btree_map("X[A-Za-z0-9_]{0,8}", value(), 0..3).prop_map(|m| {
        m.into_iter()
            .map(|(name, value)| Tag { name, value })
            .collect::<Vec<_>>()
    });
    let result = prop_oneof![
        Just(GameResult::Unfinished),
        (0u32..200, 0u32..200).prop_map(|(s, n)| GameResult::Score(s, n))
    ];
    let termination = prop::option::of(prop::sample::select(EndReason::ALL.to_vec()));
    (
        game_id(),
        options(),
        tags,
        extra,
        prop::option::of(setup()),
        prop::collection::vec(piece(), 0..80).prop_map(movetext),
        result,
        termination,
    )
        .prop_map(
            |(game, options, tags, extra, setup, items, result, termination)| Record {
                game,
                options,
                tags,
                extra,
                setup,
                items,
                result,
                termination,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_of_print_is_identity(r in record()) {
        let printed = r.to_string();
        let parsed = parse_game(&printed).map_err(|e| TestCaseError::fail(format!("{e} at {:?} in\n{printed}", e.span)))?;
        prop_assert_eq!(&parsed.record, &r);
        prop_assert_eq!(parsed.record.to_string(), printed);
    }

    #[test]
    fn printing_parsed_text_is_stable(r in record(), spaces in prop::collection::vec(prop::sample::select(vec![" ", "  ", "\n", "\r\n", " \t"]), 1..8)) {
        // Re-space the canonical movetext at random: the print must come back.
        let printed = r.to_string();
        let (head, movetext) = printed.split_once("\n\n").unwrap();
        let mut messy = String::from(head);
        messy.push_str("\n\n");
        let mut k = 0;
        let mut in_comment = false;
        for c in movetext.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ => {}
            }
            if c == ' ' && !in_comment {
                messy.push_str(spaces[k % spaces.len()]);
                k += 1;
            } else {
                messy.push(c);
            }
        }
        let once = parse_game(&messy).map_err(|e| TestCaseError::fail(format!("{e} in\n{messy}")))?.record.to_string();
        let twice = parse_game(&once).unwrap().record.to_string();
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(once, printed);
    }

    #[test]
    fn json_round_trip(r in record()) {
        let json = serde_json::to_string(&r).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, r);
    }

    /// The tools' reading of the JSON form (with its checks of what MGN
    /// can say) takes back every record MGN can print, compact or pretty.
    #[test]
    fn the_tools_read_back_every_record_from_json(r in record()) {
        for json in [serde_json::to_string(&r).unwrap(), serde_json::to_string_pretty(&r).unwrap()] {
            let parsed = parse_json_game(&json)
                .map_err(|e| TestCaseError::fail(format!("{e} at {:?} in\n{json}", e.span)))?;
            prop_assert_eq!(&parsed.record, &r);
        }
    }

    /// Any stream of JSON-like tokens is cut into values and read without
    /// a panic; every error points inside its value's text, on character
    /// boundaries.
    #[test]
    fn any_json_like_stream_reads_without_panic(tokens in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "[", "]", "\"", ":", ",", "\\", " ", "\n", "\r\n", "é", "🚀", "null", "1", "-",
        "\"game\"", "\"olowuka\"", "\"result\"", "\"*\"", "\"items\"", "\"move\"", "\"E\"",
        "\"round\"", "\"comment\"", "\"tags\"", "\"extra\"", "\"name\"", "\"value\"", "\"setup\"",
    ]), 0..60)) {
        let stream = tokens.concat();
        for value in JsonReader::with_limit(stream.as_bytes(), 64) {
            let value = value.unwrap();
            let Ok(text) = value.source() else { continue };
            if let Err(e) = parse_json_game(text) {
                prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "{:?} in {}", e.span, text);
                prop_assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
            }
        }
    }
}

/// Parentheses need no blanks around them, and a NAG's suffix form may be
/// glued to its move or stand alone: every spelling reads as the canonical
/// one does.
#[test]
fn annotations_read_however_spaced() {
    let canonical = "[Game \"olowuka\"]\n[Result \"*\"]\n\n1. F! e?? {x} ( 1... d!? 2. E ( 2. A $14 a ) 2... c ) ( 1... a ) 2. E+5 *\n";
    for movetext in [
        "1.F! e??{x}(1...d!? 2.E(2.A $14 a)c)(1...a)2.E+5 *",
        "1. F ! e ?? {x}( d !? E( A $14 a )c )( a ) E+5 *",
        "1. F $1 e $4 {x} (\n1... d $5 2. E (2. A $14 a) c\n) (1... a) 2. E+5 *",
    ] {
        let text = format!("[Game \"olowuka\"]\n\n{movetext}\n");
        let parsed =
            parse_game(&text).unwrap_or_else(|e| panic!("{movetext}: {e} at {:?}", e.span));
        assert_eq!(parsed.record.to_string(), canonical, "{movetext}");
    }
}

/// The JSON form says what MGN says of NAGs and variations, and refuses
/// what MGN refuses, at the item.
#[test]
fn json_annotations_keep_mgn_rules() {
    let record =
        |items: &str| format!("{{\"game\":\"olowuka\",\"items\":[{items}],\"result\":\"*\"}}");
    let text = record(
        r#"{"move":"F"},{"nag":1},{"variation":[{"move":"A"},{"nag":14},{"variation":[{"move":"B"}]}]},{"move":"e"}"#,
    );
    let parsed = parse_json_game(&text).unwrap();
    assert_eq!(
        parsed.record.to_string().lines().last(),
        Some("1. F! ( 1. A $14 ( 1. B ) ) 1... e *")
    );
    assert_eq!(
        parse_game(&parsed.record.to_string()).unwrap().record,
        parsed.record
    );
    for (items, message, at) in [
        (r#"{"nag":1}"#, "a NAG must follow a move", r#"{"nag":1}"#),
        (
            r#"{"move":"F"},{"round":2},{"variation":[{"move":"A"}]}"#,
            "a variation must follow a move",
            r#"{"variation""#,
        ),
        (
            r#"{"move":"F"},{"variation":[{"comment":"x"}]}"#,
            "an empty variation",
            r#"{"variation""#,
        ),
        (
            r#"{"move":"F"},{"variation":[{"nag":2}]}"#,
            "a NAG must follow a move",
            r#"{"nag":2}"#,
        ),
        (r#"{"move":"F"},{"nag":256}"#, "256", r#"{"nag":256}"#),
    ] {
        let text = record(items);
        let e = parse_json_game(&text).unwrap_err();
        assert!(e.to_string().contains(message), "{items}: {e}");
        assert!(
            text[e.span.start..].starts_with(at),
            "{items}: {:?} {e}",
            e.span
        );
    }
}
