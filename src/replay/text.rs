//! The terminal printer: a replay as plain text, one block per turn. A replay file may come
//! from anywhere, so everything in it that is text (names, events, the summary, the legend)
//! is printed with its control characters escaped, and requests and replies in Rust's debug
//! notation.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;

use super::file::{Frame, Message, Replay, ReplayHeader, decode_cells};
use crate::text::{escape_control, is_unsafe};
use arena_games::snapshot::clashes;

/// Which turns to print, and how much of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextOptions {
    /// Only the frame of this turn.
    pub turn: Option<u32>,
    /// Every this many turns (the last frame is always printed).
    pub every: u32,
    /// Also print the requests and replies.
    pub messages: bool,
}

/// Writes the replay as text to `sink`: the seats and legend, the selected frames, and how
/// the game ended. Frame by frame, so the text of a long replay of a large board (up to a
/// gigabyte) is never held whole, and a reader that stops early (`| head`) stops it.
pub fn write_text(
    sink: &mut impl io::Write,
    replay: &Replay,
    options: TextOptions,
) -> io::Result<()> {
    let header = &replay.header;
    let mut out = String::new();
    // Seats are numbered from 0, as the game's summary and events name them.
    let seats: Vec<String> = (0..)
        .zip(&header.bots)
        .map(|(n, bot)| format!("seat {n} {}", escape_control(bot)))
        .collect();
    let _ = writeln!(
        out,
        "{} game {} (seed {}): {}",
        escape_control(&header.game),
        header.index,
        header.seed,
        seats.join(", ")
    );
    let glyphs: HashMap<char, char> = header
        .legend
        .iter()
        .map(|g| (g.code, printable(g.glyph)))
        .collect();
    if !header.legend.is_empty() {
        let legend: Vec<String> = header
            .legend
            .iter()
            .map(|g| {
                let bot = (g.seat.and_then(|seat| header.bots.get(seat)))
                    .map_or_else(String::new, |bot| format!(" ({})", escape_control(bot)));
                format!("{} {}{bot}", printable(g.glyph), escape_control(&g.name))
            })
            .collect();
        let _ = writeln!(out, "legend: {}", legend.join(", "));
    }
    for clash in clashes(&header.legend) {
        let clash = escape_control(&clash);
        let _ = writeln!(
            out,
            "warning: {clash} (an older arena's replay); its cells print as the last"
        );
    }
    let every = options.every.max(1);
    let last = replay.frames.len().saturating_sub(1);
    for (position, frame) in replay.frames.iter().enumerate() {
        let chosen = match options.turn {
            Some(turn) => frame.turn == turn,
            None => frame.turn % every == 0 || position == last,
        };
        if chosen {
            out.push('\n');
            render_frame(&mut out, frame, header, &glyphs, options.messages);
            sink.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    if let Some(end) = &replay.end {
        let _ = writeln!(out, "\nend: {}", escape_control(&end.summary));
    }
    sink.write_all(out.as_bytes())
}

/// Why `replay` cannot show `turn`, if it has no frame of that turn: `arena replay --turn`
/// refuses it rather than print nothing. The turns it does have are said as they are: a
/// replay may hold no frame at all, and one from elsewhere need not start at turn 0 nor
/// skip none.
pub fn missing_turn(replay: &Replay, turn: u32) -> Option<String> {
    if replay.frames.iter().any(|frame| frame.turn == turn) {
        return None;
    }
    let turns = || replay.frames.iter().map(|frame| frame.turn);
    let why = match (turns().min(), turns().max()) {
        (Some(first), Some(last)) if (first..=last).contains(&turn) => {
            format!("the replay has turns {first} to {last} but none of this one")
        }
        (Some(first), Some(last)) => format!("the replay has turns {first} to {last}"),
        _ => "the replay has no turns: no frame follows its header".to_owned(),
    };
    Some(format!("no turn {turn}: {why}"))
}

/// `glyph`, or `?` for a character that could drive the terminal.
fn printable(glyph: char) -> char {
    if is_unsafe(glyph) { '?' } else { glyph }
}

fn render_frame(
    out: &mut String,
    frame: &Frame,
    header: &ReplayHeader,
    glyphs: &HashMap<char, char>,
    messages: bool,
) {
    let scores: Vec<String> = frame.scores.iter().map(i64::to_string).collect();
    let _ = writeln!(out, "turn {}  scores {}", frame.turn, scores.join(" "));
    let grid = frame.cells.as_deref().zip(header.cells());
    if let Some(cells) = grid.and_then(|(cells, size)| decode_cells(cells, size).ok()) {
        let width = header.width.max(1);
        let mut column = 0;
        for code in cells.chars() {
            out.push(glyphs.get(&code).copied().unwrap_or('?'));
            column += 1;
            if column == width {
                out.push('\n');
                column = 0;
            }
        }
        if column > 0 {
            out.push('\n');
        }
    }
    for event in &frame.events {
        let _ = writeln!(out, "  * {}", escape_control(event));
    }
    if !messages {
        // Invalid replies and failures show without `--messages` too: they are what a bot's
        // author looks for.
        for message in &frame.messages {
            if let Some(reason) = &message.invalid {
                let reply = message.reply.as_deref().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  ! {}: invalid reply \"{}\": {}",
                    message.seat,
                    reply.escape_debug(),
                    escape_control(reason)
                );
            }
            write_failure(out, message);
        }
    } else {
        for message in &frame.messages {
            let _ = writeln!(
                out,
                "  > {}: {}",
                message.seat,
                message.request.escape_debug()
            );
            if let Some(reply) = &message.reply {
                let _ = writeln!(out, "  < {}: {}", message.seat, reply.escape_debug());
            }
            if let Some(reason) = &message.invalid {
                let _ = writeln!(
                    out,
                    "  ! {}: invalid: {}",
                    message.seat,
                    escape_control(reason)
                );
            }
            write_failure(out, message);
        }
    }
}

/// The `!` line of a message whose bot gave no reply (why, or only `no reply` in a replay
/// written before the reason was kept) or whose process ended after its reply. Never on the
/// `<` line: a reply is printed as sent, so it could read like any reason in any brackets.
fn write_failure(out: &mut String, message: &Message) {
    let failure = match (&message.reply, &message.failure) {
        (_, Some(failure)) => escape_control(failure),
        (None, None) => "no reply".into(),
        (Some(_), None) => return,
    };
    let _ = writeln!(out, "  ! {}: {failure}", message.seat);
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::snapshot::{Glyph, Legend};

    use crate::replay::{Frame, ReplayEnd};

    /// What [`write_text`] writes.
    fn text(replay: &Replay, options: TextOptions) -> String {
        let mut out = Vec::new();
        write_text(&mut out, replay, options).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn replay() -> Replay {
        let frame = |turn, cells: &str| Frame {
            turn,
            cells: Some(cells.into()),
            scores: vec![i64::from(turn)],
            events: vec![format!("event {turn}")],
            messages: Vec::new(),
        };
        Replay {
            header: ReplayHeader {
                format_version: 1,
                game: "test".into(),
                index: 2,
                seed: 3,
                bots: vec!["bot".into()],
                width: 2,
                height: 2,
                legend: Legend::new([Glyph::thing('_', ' ', "floor", "#000")], 1, |seat| {
                    format!("player {}", seat + 1)
                })
                .into_glyphs(),
                message_cap: 512,
            },
            frames: (0..5).map(|turn| frame(turn, "A3_")).collect(),
            end: Some(ReplayEnd {
                summary: "over".into(),
                scores: vec![4],
            }),
        }
    }

    #[test]
    fn every_k_turns_with_the_last_and_the_grid_in_glyphs() {
        let options = TextOptions {
            turn: None,
            every: 3,
            messages: false,
        };
        let text = text(&replay(), options);
        assert_eq!(
            text,
            "test game 2 (seed 3): seat 0 bot\nlegend:   floor, 1 player 1 (bot)\n\n\
             turn 0  scores 0\n1 \n  \n  * event 0\n\n\
             turn 3  scores 3\n1 \n  \n  * event 3\n\n\
             turn 4  scores 4\n1 \n  \n  * event 4\n\nend: over\n"
        );
    }

    /// A sink that takes `room` writes, then fails as a closed pipe does.
    struct Pipe {
        writes: usize,
        room: usize,
    }

    impl io::Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.writes == self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.writes += 1;
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_text_is_written_frame_by_frame_until_the_reader_stops() {
        let options = TextOptions {
            turn: None,
            every: 1,
            messages: false,
        };
        // The header with the first frame, the four others, the end.
        let mut open = Pipe {
            writes: 0,
            room: usize::MAX,
        };
        write_text(&mut open, &replay(), options).unwrap();
        assert_eq!(open.writes, 6);
        let mut closing = Pipe { writes: 0, room: 2 };
        let error = write_text(&mut closing, &replay(), options).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(closing.writes, 2);
    }

    #[test]
    fn text_from_the_file_is_printed_escaped() {
        let mut replay = replay();
        replay.header.bots = vec!["\x1b[2J".into()];
        replay.header.legend[0].glyph = '\x07';
        replay.header.legend[1].name = "a\rb".into();
        replay.frames.truncate(1);
        replay.frames[0].events = vec!["\x1b]0;x\x07".into()];
        replay.end.as_mut().unwrap().summary = "over\nforged line".into();
        let options = TextOptions {
            turn: None,
            every: 1,
            messages: false,
        };
        let text = text(&replay, options);
        assert_eq!(
            text,
            "test game 2 (seed 3): seat 0 \\x1b[2J\nlegend: ? floor, 1 a\\rb (\\x1b[2J)\n\n\
             turn 0  scores 0\n1?\n??\n  * \\x1b]0;x\\x07\n\nend: over\\nforged line\n"
        );
    }

    #[test]
    fn a_code_the_legend_gives_twice_is_warned_about() {
        let mut replay = replay();
        replay.header.legend[0].code = 'A';
        let options = TextOptions {
            turn: Some(0),
            every: 1,
            messages: false,
        };
        let text = text(&replay, options);
        let warning = "\nwarning: the code 'A' means both floor and player 1 (an older arena's \
                       replay); its cells print as the last\n";
        assert!(text.contains(warning), "{text}");
        assert!(
            text.contains("\nlegend:   floor, 1 player 1 (bot)\n"),
            "{text}"
        );
        assert!(text.contains("\n1?\n??\n"), "{text}");
    }

    /// A message of seat 0 to `go`.
    fn message(reply: Option<&str>, invalid: Option<&str>, failure: Option<&str>) -> Message {
        Message {
            seat: 0,
            request: "go".into(),
            reply: reply.map(str::to_owned),
            invalid: invalid.map(str::to_owned),
            failure: failure.map(str::to_owned),
        }
    }

    /// The `<` and `!` lines of turn 0 of `replay()` with `messages`, printed with or without
    /// `--messages`.
    fn reply_lines(messages: Vec<Message>, with_messages: bool) -> Vec<String> {
        let mut replay = replay();
        replay.frames.truncate(1);
        replay.frames[0].messages = messages;
        let options = TextOptions {
            turn: Some(0),
            every: 1,
            messages: with_messages,
        };
        (text(&replay, options).lines())
            .filter(|line| line.starts_with("  < ") || line.starts_with("  ! "))
            .map(str::to_owned)
            .collect()
    }

    /// A timeout and a crash read apart: a `!` line says why there was no reply (escaped, as
    /// a replay may come from anywhere) where the reply's `<` line would be, so a reply that
    /// looks like a reason (`(no reply)`) cannot pass for one; a process that ended after its
    /// reply gets a line of its own, and a replay written before the reasons were kept still
    /// says `no reply`.
    #[test]
    fn messages_say_why_a_bot_gave_no_reply() {
        let replies = reply_lines(
            vec![
                message(Some("ok"), None, None),
                message(None, None, Some("no reply within 100 ms")),
                message(None, None, Some("ended without replying (exit status 1)")),
                message(
                    Some("ok"),
                    None,
                    Some("replied, then ended (exit status 3)"),
                ),
                message(
                    None,
                    None,
                    Some("the process had ended\x1b[2J earlier in the game"),
                ),
                message(None, None, None),
                message(Some("(no reply)"), None, None),
            ],
            true,
        );
        assert_eq!(
            replies,
            [
                "  < 0: ok",
                "  ! 0: no reply within 100 ms",
                "  ! 0: ended without replying (exit status 1)",
                "  < 0: ok",
                "  ! 0: replied, then ended (exit status 3)",
                "  ! 0: the process had ended\\x1b[2J earlier in the game",
                "  ! 0: no reply",
                "  < 0: (no reply)",
            ]
        );
    }

    /// Without `--messages`, each failed request and each invalid reply of a turn still gets
    /// its line, in the order the requests were made, and a reply played as sent none.
    #[test]
    fn failures_show_without_messages_too() {
        let ended = "replied, then ended (exit status 3)";
        let replies = reply_lines(
            vec![
                message(Some("ok"), None, None),
                message(Some("bad"), Some("off the board"), None),
                message(None, None, Some("no reply within 100 ms")),
                message(Some("late"), None, Some(ended)),
                message(Some("worse"), Some("no"), Some(ended)),
                message(None, None, Some("cannot start:\x07 no such file")),
                message(None, None, None),
            ],
            false,
        );
        assert_eq!(
            replies,
            [
                "  ! 0: invalid reply \"bad\": off the board",
                "  ! 0: no reply within 100 ms",
                &format!("  ! 0: {ended}"),
                "  ! 0: invalid reply \"worse\": no",
                &format!("  ! 0: {ended}"),
                "  ! 0: cannot start:\\x07 no such file",
                "  ! 0: no reply",
            ]
        );
    }

    #[test]
    fn a_missing_turn_is_said_so() {
        assert_eq!(
            missing_turn(&replay(), 9).as_deref(),
            Some("no turn 9: the replay has turns 0 to 4")
        );
        assert_eq!(missing_turn(&replay(), 4), None);
        let mut gaps = replay();
        gaps.frames
            .retain(|frame| frame.turn != 2 && frame.turn != 0);
        assert_eq!(
            missing_turn(&gaps, 2).as_deref(),
            Some("no turn 2: the replay has turns 1 to 4 but none of this one")
        );
        assert_eq!(
            missing_turn(&gaps, 0).as_deref(),
            Some("no turn 0: the replay has turns 1 to 4")
        );
        let mut header_only = replay();
        header_only.frames.clear();
        assert_eq!(
            missing_turn(&header_only, 0).as_deref(),
            Some("no turn 0: the replay has no turns: no frame follows its header")
        );
    }
}
