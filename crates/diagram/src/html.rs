//! One game as a self-contained HTML page (`mancala-render --format html`):
//! the board drawn once as inline SVG by [`super::svg`], every step of the
//! game (the start, each ply's laps, each ply, each round's refilled board)
//! as data, a move list, and a small script that shows the step asked for.
//! Nothing is loaded from anywhere: the page opens from disk.

use std::fmt::{self, Write};

use serde::Serialize;

use super::frames::{Frame, FrameKind};
use super::svg::{MAX_DOTS, View, dots_svg, escape, write_live_board};

const SCRIPT: &str = include_str!("viewer.js");
const STYLE: &str = include_str!("viewer.css");

/// What the page says about the game besides its frames.
#[derive(Clone, Debug, Default)]
pub struct GameFacts {
    /// Where the game comes from: `games.mgn: game 3`.
    pub source: String,
    /// Tag lines to show under the title: `South: Ann`, `Date: 2024.05.01`.
    pub tags: Vec<String>,
    /// The record's comments, each after the ply it follows (0: before the
    /// first move).
    pub comments: Vec<(usize, String)>,
    /// The ply the page opens at (0: the start).
    pub start_ply: usize,
}

/// One step as the script reads it.
#[derive(Serialize)]
struct Step<'a> {
    ply: usize,
    /// `null` for a ply-level step (the arrow keys left and right stop
    /// there): the start, a ply, a round's refilled board.
    lap: Option<u64>,
    /// Laps of the ply, for `lap 2 of 5`.
    laps: u64,
    title: &'a str,
    heading: &'a [String],
    notes: Vec<&'a str>,
    /// Each hole (South's from `A`, then North's from `a`): count, mark,
    /// classes, lap ends.
    holes: Vec<(String, String, String, &'a str)>,
    stores: [u8; 2],
    players: [(&'a str, &'static str); 2],
    path: &'a str,
    legend: &'a str,
}

#[derive(Serialize)]
struct PageData<'a> {
    /// Hole labels in the order of each step's `holes`.
    holes: Vec<String>,
    /// The dots of 0 to [`MAX_DOTS`] seeds.
    dots: Vec<String>,
    plies: usize,
    start: usize,
    steps: Vec<Step<'a>>,
}

/// A frame's place in the game: its ply, and its lap when it is one.
fn places(frames: &[Frame]) -> Vec<(usize, Option<u64>)> {
    let mut places = Vec::with_capacity(frames.len());
    let mut ply = 0;
    // A ply's laps come before the ply's own frame: they take its number
    // when it comes.
    let mut pending = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        match frame.kind {
            FrameKind::Lap { lap } => pending.push((i, lap)),
            FrameKind::Ply { number, .. } => {
                ply = number;
                for (j, lap) in pending.drain(..) {
                    places.push((j, ply, Some(lap)));
                }
                places.push((i, ply, None));
            }
            FrameKind::Position | FrameKind::Before { .. } => places.push((i, ply, None)),
        }
    }
    for (j, lap) in pending {
        places.push((j, ply + 1, Some(lap)));
    }
    places.sort_by_key(|(i, ..)| *i);
    places.into_iter().map(|(_, ply, lap)| (ply, lap)).collect()
}

/// Writes the page of one game from its frames in order: the start, then
/// for each ply its lap frames and its ply frame, and each round's refilled
/// board after the ply that ended the round before.
pub fn write_html(out: &mut impl Write, frames: &[Frame], facts: &GameFacts) -> fmt::Result {
    if frames.is_empty() {
        return Ok(());
    }
    let views: Vec<View> = frames.iter().map(View::of).collect();
    let places = places(frames);
    let plies = places.iter().map(|(ply, _)| *ply).max().unwrap_or(0);
    let laps_of = |ply: usize| {
        places
            .iter()
            .filter(|(p, lap)| *p == ply && lap.is_some())
            .count() as u64
    };
    let steps: Vec<Step<'_>> = views
        .iter()
        .zip(frames)
        .zip(&places)
        .map(|((view, frame), &(ply, lap))| Step {
            ply,
            lap,
            laps: laps_of(ply),
            title: &view.title,
            heading: &frame.heading,
            notes: if carries_comments(frame, ply) {
                facts
                    .comments
                    .iter()
                    .filter(|(after, _)| *after == ply)
                    .map(|(_, c)| c.as_str())
                    .collect()
            } else {
                Vec::new()
            },
            holes: view
                .holes
                .iter()
                .map(|h| (h.count(), h.mark_symbol(), h.classes(), h.lap_ends.as_str()))
                .collect(),
            stores: view.stores,
            players: [0, 1].map(|k| {
                (
                    view.players[k].text.as_str(),
                    view.players[k].turn.unwrap_or(""),
                )
            }),
            path: &view.path,
            legend: &view.legend,
        })
        .collect();
    let start = steps
        .iter()
        .position(|s| s.lap.is_none() && s.ply == facts.start_ply.min(plies))
        .unwrap_or(0);
    let data = PageData {
        holes: views[0].holes.iter().map(|h| h.hole.to_string()).collect(),
        dots: (0..=MAX_DOTS).map(dots_svg).collect(),
        plies,
        start,
        steps,
    };
    // `<` only occurs inside JSON strings, where `\u003c` means the same:
    // no comment can close the script element early.
    let json = serde_json::to_string(&data)
        .map_err(|_| fmt::Error)?
        .replace('<', "\\u003c");

    let rules = frames[0].board.rules;
    let mut name = rules.game().descriptor().name.to_owned();
    if !rules.options().is_empty() {
        name = format!("{name} {}", rules.options());
    }
    let title = format!("{name}: {}", facts.source);
    out.write_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")?;
    out.write_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")?;
    writeln!(out, "<title>{}</title>", escape(&title))?;
    writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>")?;
    writeln!(out, "<header>\n<h1>{}</h1>", escape(&name))?;
    writeln!(out, "<p>{}</p>", escape(&facts.source))?;
    for tag in &facts.tags {
        writeln!(out, "<p>{}</p>", escape(tag))?;
    }
    out.write_str("</header>\n<main>\n<section id=\"stage\">\n")?;
    write_live_board(out, &frames[start.min(frames.len() - 1)])?;
    out.write_str(concat!(
        "<nav id=\"controls\" aria-label=\"steps\">",
        "<button type=\"button\" data-go=\"start\" title=\"Home\">start</button>",
        "<button type=\"button\" data-go=\"previous-ply\" title=\"\u{2190}\">\u{ab} ply</button>",
        "<button type=\"button\" data-go=\"previous-lap\" title=\"\u{2191}\">\u{2039} lap</button>",
        "<button type=\"button\" data-go=\"next-lap\" title=\"\u{2193}\">lap \u{203a}</button>",
        "<button type=\"button\" data-go=\"next-ply\" title=\"\u{2192}\">ply \u{bb}</button>",
        "<button type=\"button\" data-go=\"end\" title=\"End\">end</button>",
        "<span id=\"where\" aria-live=\"polite\"></span></nav>\n",
        "<div id=\"heading\" aria-live=\"polite\"><p id=\"board-title\"></p><div id=\"lines\"></div></div>\n",
        "<p id=\"legend\"></p>\n",
        "<p class=\"keys\">Keys: \u{2190} \u{2192} a ply back or on, \u{2191} \u{2193} a lap back or on, Home and End the start and the end.</p>\n",
        "</section>\n<aside id=\"moves\">\n<h2>Moves</h2>\n<ol>\n",
    ))?;
    write_move_list(out, frames, &places, facts)?;
    out.write_str("</ol>\n</aside>\n</main>\n")?;
    writeln!(
        out,
        "<script type=\"application/json\" id=\"mancala-data\">{json}</script>"
    )?;
    writeln!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>")
}

/// Whether a step shows the comments after its ply: the ply's own frame,
/// and the start for those before the first move.
fn carries_comments(frame: &Frame, ply: usize) -> bool {
    match frame.kind {
        FrameKind::Ply { .. } => true,
        FrameKind::Position => ply == 0,
        FrameKind::Before { .. } | FrameKind::Lap { .. } => false,
    }
}

/// The move list: the start and each ply as a button that shows it, each
/// followed by its round ends, the game's end and the comments after it.
fn write_move_list(
    out: &mut impl Write,
    frames: &[Frame],
    places: &[(usize, Option<u64>)],
    facts: &GameFacts,
) -> fmt::Result {
    for (step, (frame, &(ply, lap))) in frames.iter().zip(places).enumerate() {
        if lap.is_some() {
            continue;
        }
        let (label, notes): (String, &[String]) = match frame.kind {
            FrameKind::Ply { number, .. } => {
                let first = frame.heading.first().map_or("", String::as_str);
                let prefix = format!("ply {number}: ");
                let text = first.strip_prefix(&prefix).unwrap_or(first);
                (
                    format!("{number}. {text}"),
                    frame.heading.get(1..).unwrap_or(&[]),
                )
            }
            _ if step == 0 => ("start".to_owned(), &[][..]),
            // A round's refilled board: its heading says so.
            _ => (
                frame.heading.first().cloned().unwrap_or_default(),
                frame.heading.get(1..).unwrap_or(&[]),
            ),
        };
        writeln!(
            out,
            "<li><button type=\"button\" data-step=\"{step}\" data-ply=\"{ply}\">{}</button>",
            escape(&label)
        )?;
        for note in notes {
            writeln!(out, "<p class=\"note end\">{}</p>", escape(note))?;
        }
        if carries_comments(frame, ply) {
            for (_, comment) in facts.comments.iter().filter(|(after, _)| *after == ply) {
                writeln!(out, "<p class=\"note comment\">{{{}}}</p>", escape(comment))?;
            }
        }
        out.write_str("</li>\n")?;
    }
    Ok(())
}
