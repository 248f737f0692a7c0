//! The replay file of one game: JSON Lines, written once when the game ends.
//!
//! ```text
//! {"type":"header","data":{"format_version":1,"game":"slime","index":0,"seed":7,"bots":["a","b","c","d"],"width":6,"height":6,"legend":[...],"message_cap":512}}
//! {"type":"frame","data":{"turn":0,"cells":"A4.B24.C4.D","scores":[1,1,1,1]}}
//! {"type":"frame","data":{"turn":1,"cells":"2A3.B...","scores":[2,1,1,1],"events":["1 spreads 0,0 → 1,1"],"messages":[{"seat":0,"request":"...","reply":"0 0 1 1"},{"seat":1,"request":"...","reply":"9 9 9 9","invalid":"a cell is off the board"},{"seat":2,"request":"...","reply":null,"failure":"no reply within 100 ms"}]}}
//! {"type":"end","data":{"summary":"board full after 412 turns; cells 9-8-10-9","scores":[9,8,10,9]}}
//! ```
//!
//! Frame `k` is the position after `k` turns, with the requests and replies that led to it
//! from frame `k - 1`. A last frame may follow for a game that ended inside a turn. A
//! message's `failure` says why its bot gave no reply, or why the bot's process ended after
//! its reply; the message of a bot that replied and kept running has none. Cells are
//! run-length encoded row-major: a run is its length in decimal (left out for 1) then the
//! code, so codes are never digits.
//!
//! A replay file may come from anywhere, so reading one is bounded by its size: grids are
//! checked without being expanded, every run against the cells left on the board (a few
//! bytes of `16777216A` runs would otherwise ask for gigabytes). Printing and drawing do
//! expand them, so a board has at most [`MAX_CELLS`] cells and all the frames together at
//! most [`MAX_REPLAY_CELLS`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::text::escape_control;
use arena_games::snapshot::Glyph;

/// Bumped whenever a field changes meaning; a replay of another version is refused.
pub const REPLAY_FORMAT_VERSION: u32 = 1;

/// The most cells a replay's board may have: 16 Mi, a 4096x4096 board. Petri's largest
/// arena is 1000x1000 and Slime's board 256x256, but the boards of Cave, AlienWar and the
/// Egg Hunt grow with the bots (a Cave of 406 bots is 4090 cells wide).
pub const MAX_CELLS: usize = 1 << 24;

/// The most cells all the frames of a replay may hold together: 1 Gi. Reading a grid does
/// not expand it, but printing and drawing do, and a line of a few bytes can stand for a
/// whole board. Over three times the largest Petri game (300 turns on a 1000x1000 arena),
/// eight times the largest Slime game (2,000 turns on 256x256), and a Cave game on the
/// largest board ([`MAX_CELLS`], 50 turns).
pub const MAX_REPLAY_CELLS: usize = 1 << 30;

/// The most bytes a line of a replay file may have, its newline included: 64 MiB. A frame
/// of the largest board ([`MAX_CELLS`]) with no two neighbouring cells alike takes 32 MiB
/// (a cell code is at most two bytes of UTF-8), which leaves as much again for the turn's
/// requests and replies. A longer line is refused once this much of it is read, so a file
/// of one endless line (`/dev/zero`) costs no more memory than this.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// The most memory a replay read back may take, as counted by [`held_bytes`]: 1 GiB, over
/// twenty times the replay of one game of AlienWar's original field of 43 aliens (47 MB,
/// every request and reply kept). [`MAX_REPLAY_CELLS`] bounds what the grids expand to;
/// this bounds everything else, such as endless frames of a few bytes each.
pub const MAX_REPLAY_HELD: usize = 1 << 30;

/// A whole replay, as read back or as embedded in the HTML viewer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    /// What the game was.
    pub header: ReplayHeader,
    /// One per turn.
    pub frames: Vec<Frame>,
    /// How it ended; missing only in a file cut short.
    pub end: Option<ReplayEnd>,
}

/// One line of a replay file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "kebab-case")]
pub enum ReplayLine {
    /// Always the first line.
    Header(ReplayHeader),
    /// One turn.
    Frame(Frame),
    /// The last line.
    End(ReplayEnd),
}

/// The game a replay shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayHeader {
    /// [`REPLAY_FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The game's name.
    pub game: String,
    /// The game's number in the tournament.
    pub index: u64,
    /// The game's seed.
    pub seed: u64,
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// Grid columns (0 if the engine never showed a board).
    pub width: usize,
    /// Grid rows.
    pub height: usize,
    /// What the cell codes mean.
    pub legend: Vec<Glyph>,
    /// Requests and replies longer than this many bytes are cut (see [`excerpt`]).
    pub message_cap: usize,
}

impl ReplayHeader {
    /// The board's cells, `width * height`, if there are at most [`MAX_CELLS`].
    pub fn cells(&self) -> Option<usize> {
        self.width
            .checked_mul(self.height)
            .filter(|&cells| cells <= MAX_CELLS)
    }
}

/// The position after one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// Turns completed.
    pub turn: u32,
    /// The run-length encoded grid; missing before the engine shows a board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<String>,
    /// Each seat's score as it stands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
    /// What happened during the turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// The requests and replies of the turn, in the order they were sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<Message>,
}

/// One request to one seat and its reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The seat asked.
    pub seat: usize,
    /// What it was sent (arguments joined by spaces), cut to the cap.
    pub request: String,
    /// What it replied, cut to the cap; `None` for no reply (`failure` says why).
    pub reply: Option<String>,
    /// Why the rules rejected the reply (several reasons joined by `; `); absent for a
    /// reply played as sent, and in replays written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
    /// Why there was no reply (a timeout, a crash, a reply over the size cap, a process
    /// that could not start or had ended earlier in the game), or why the process ended
    /// after its reply; absent for a bot that replied and kept running, and in replays
    /// written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayEnd {
    /// The journal's one-line summary.
    pub summary: String,
    /// Each seat's final score.
    pub scores: Vec<i64>,
}

/// A replay file that cannot be read.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The file could not be read.
    #[error("replay {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// A line is not a replay record, or is out of place.
    #[error("replay {}:{line}: {message}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl Replay {
    /// The file's lines, each ending in `\n`.
    pub fn to_jsonl(&self) -> String {
        let mut lines = vec![ReplayLine::Header(self.header.clone())];
        lines.extend(self.frames.iter().cloned().map(ReplayLine::Frame));
        lines.extend(self.end.clone().map(ReplayLine::End));
        lines
            .iter()
            .map(|line| serde_json::to_string(line).expect("replay lines always serialize") + "\n")
            .collect()
    }

    /// Reads a replay file.
    pub fn read(path: &Path) -> Result<Replay, ReplayError> {
        let io_error = |source| ReplayError::Io {
            path: path.to_path_buf(),
            source,
        };
        // The message may quote the file (serde names an unknown value), and goes to a terminal.
        let corrupt = |line, message: String| ReplayError::Corrupt {
            path: path.to_path_buf(),
            line,
            message: escape_control(&message).into_owned(),
        };
        let mut reader = BufReader::new(File::open(path).map_err(io_error)?);
        let mut read = ReadSoFar::new(MAX_REPLAY_HELD);
        let mut line = Vec::new();
        for number in 1.. {
            line.clear();
            let length = (&mut reader)
                .take(MAX_LINE_BYTES as u64)
                .read_until(b'\n', &mut line)
                .map_err(io_error)?;
            if length == 0 {
                break;
            }
            if length == MAX_LINE_BYTES && line.last() != Some(&b'\n') {
                let message = format!(
                    "the line is longer than {} MiB, the most a replay's line may have",
                    MAX_LINE_BYTES >> 20
                );
                return Err(corrupt(number, message));
            }
            read.add_line(number, &line)
                .map_err(|message| corrupt(number, message))?;
        }
        let header = read
            .header
            .ok_or_else(|| corrupt(1, "no header line".into()))?;
        Ok(Replay {
            header,
            frames: read.frames,
            end: read.end,
        })
    }
}

/// A replay file as far as it has been read.
struct ReadSoFar {
    header: Option<ReplayHeader>,
    frames: Vec<Frame>,
    end: Option<ReplayEnd>,
    /// The cells of all the frames so far, held to [`MAX_REPLAY_CELLS`].
    cells: usize,
    /// The memory the frames so far take ([`held_bytes`]), held to `most_held`.
    held: usize,
    most_held: usize,
}

impl ReadSoFar {
    /// Nothing read yet; the frames may take `most_held` bytes ([`MAX_REPLAY_HELD`]).
    fn new(most_held: usize) -> ReadSoFar {
        ReadSoFar {
            header: None,
            frames: Vec::new(),
            end: None,
            cells: 0,
            held: 0,
            most_held,
        }
    }

    /// Adds line `number` of the file, its bytes as read, or says why it cannot come next.
    fn add_line(&mut self, number: usize, bytes: &[u8]) -> Result<(), String> {
        let text = line_text(bytes)?;
        let record = serde_json::from_str::<ReplayLine>(text).map_err(|error| {
            if number == 1 && is_journal_header(text) {
                JOURNAL_GIVEN.to_owned()
            } else {
                format!("not a replay record: {error}")
            }
        })?;
        match (record, &self.header, &self.end) {
            (ReplayLine::Header(header), None, _) if number == 1 => {
                check_header(&header)?;
                self.header = Some(header);
            }
            (ReplayLine::Frame(frame), Some(header), None) => {
                self.cells = count_cells(&frame, header, self.cells)?;
                self.held = self.held.saturating_add(held_bytes(&frame, bytes.len()));
                if self.held > self.most_held {
                    return Err(format!(
                        "the frames up to this one take about {} MiB, over the {} MiB a \
                         replay may take in all",
                        self.held >> 20,
                        self.most_held >> 20
                    ));
                }
                self.frames.push(frame);
            }
            (ReplayLine::End(end), Some(_), None) => self.end = Some(end),
            _ => return Err("record out of place".into()),
        }
        Ok(())
    }
}

/// About the memory `frame`, read from a line of `line_bytes` bytes, takes: its strings are
/// no longer than the line, and each frame, message, event and score adds its own record.
fn held_bytes(frame: &Frame, line_bytes: usize) -> usize {
    use std::mem::size_of;
    line_bytes
        + size_of::<Frame>()
        + frame.messages.len() * size_of::<Message>()
        + frame.events.len() * size_of::<String>()
        + frame.scores.len() * size_of::<i64>()
}

/// What a journal given for a replay is told: its header is a `header` record too, so the
/// replay's reader would otherwise only say which field it lacks.
const JOURNAL_GIVEN: &str = "this is a results journal, not a replay; replays are written \
                             with `arena run --replays`";

/// Whether `text` is the header line of a results journal.
fn is_journal_header(text: &str) -> bool {
    matches!(
        serde_json::from_str::<crate::journal::Record>(text),
        Ok(crate::journal::Record::Header(_))
    )
}

/// The text of a line read with its newline, without that newline (as [`BufRead::lines`]
/// gives it), or why it is not UTF-8.
fn line_text(bytes: &[u8]) -> Result<&str, String> {
    let line = match bytes.strip_suffix(b"\n") {
        Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
        None => bytes,
    };
    std::str::from_utf8(line).map_err(|error| format!("not UTF-8: {error}"))
}

/// Why this arena cannot read a replay with `header`, if it cannot.
fn check_header(header: &ReplayHeader) -> Result<(), String> {
    if header.format_version != REPLAY_FORMAT_VERSION {
        return Err(format!(
            "format version {} is not one this arena reads (it reads {REPLAY_FORMAT_VERSION})",
            header.format_version
        ));
    }
    if header.cells().is_none() {
        return Err(format!(
            "a board of {}x{} is over the {MAX_CELLS} cells a replay may have",
            header.width, header.height
        ));
    }
    Ok(())
}

/// `before`, the cells of the frames read so far, plus those of `frame`; or why `frame`
/// cannot be one of `header`'s game: its grid has the wrong size, or takes the replay past
/// [`MAX_REPLAY_CELLS`].
fn count_cells(frame: &Frame, header: &ReplayHeader, before: usize) -> Result<usize, String> {
    let (Some(cells), Some(size)) = (&frame.cells, header.cells()) else {
        return Ok(before);
    };
    check_cells(cells, size)?;
    let total = before + size;
    if total > MAX_REPLAY_CELLS {
        return Err(format!(
            "the frames up to this one hold {total} cells, over the {MAX_REPLAY_CELLS} a \
             replay may hold in all"
        ));
    }
    Ok(total)
}

/// Run-length encodes a grid of codes (see the module documentation).
pub fn encode_cells(cells: &str) -> String {
    let mut out = String::new();
    let mut chars = cells.chars().peekable();
    while let Some(code) = chars.next() {
        let mut run = 1;
        while chars.next_if_eq(&code).is_some() {
            run += 1;
        }
        if run > 1 {
            out.push_str(&run.to_string());
        }
        out.push(code);
    }
    out
}

/// The grid of codes of an encoded grid of exactly `cells` cells, or why it is not one. A
/// run longer than the cells left is refused before anything is expanded, so the result
/// never holds more than `cells` codes whatever the input.
pub fn decode_cells(encoded: &str, cells: usize) -> Result<String, String> {
    let mut out = String::new();
    each_run(encoded, cells, |count, code| {
        out.extend(std::iter::repeat_n(code, count));
    })?;
    Ok(out)
}

/// Why `encoded` is not a grid of exactly `cells` cells, if it is not. Nothing is expanded:
/// the work is the encoded length's, however many cells the runs stand for.
pub fn check_cells(encoded: &str, cells: usize) -> Result<(), String> {
    each_run(encoded, cells, |_, _| ())
}

/// Hands each run of `encoded` (its length and code) to `expand`, once it is known to fit in
/// the cells left of `cells`; fails at the first run that does not, or if the runs do not
/// fill the grid.
fn each_run(
    encoded: &str,
    cells: usize,
    mut expand: impl FnMut(usize, char),
) -> Result<(), String> {
    let mut filled = 0;
    let mut run = String::new();
    for c in encoded.chars() {
        if c.is_ascii_digit() {
            run.push(c);
            continue;
        }
        let count = if run.is_empty() {
            1
        } else {
            run.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("bad run length {run}"))?
        };
        if count > cells - filled {
            return Err(format!(
                "the grid has the wrong size: a run of {count} after {filled} of {cells} cells"
            ));
        }
        expand(count, c);
        filled += count;
        run.clear();
    }
    if !run.is_empty() {
        Err("the grid ends in a run length".into())
    } else if filled < cells {
        Err(format!(
            "the grid has the wrong size: {filled} of {cells} cells"
        ))
    } else {
        Ok(())
    }
}

/// `bytes` as text for a replay: invalid UTF-8 replaced, and anything past `cap` bytes cut
/// and replaced by a note of how much was left out.
pub fn excerpt(bytes: &[u8], cap: usize) -> String {
    if bytes.len() <= cap {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    format!(
        "{}…[{} more bytes]",
        String::from_utf8_lossy(&bytes[..cap]),
        bytes.len() - cap
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::snapshot::Legend;

    #[test]
    fn cells_round_trip_through_run_length_encoding() {
        for cells in ["", "A", "....AAB", "#####  o A", "ĀĀĀxyz"] {
            let encoded = encode_cells(cells);
            let size = cells.chars().count();
            assert_eq!(decode_cells(&encoded, size).unwrap(), cells, "{encoded}");
            assert_eq!(check_cells(&encoded, size), Ok(()), "{encoded}");
        }
        assert_eq!(check_cells("3A", 2), decode_cells("3A", 2).map(drop));
        assert_eq!(encode_cells("....AAB.."), "4.2AB2.");
        assert!(decode_cells("3A4", 7).is_err());
        assert!(decode_cells("0A", 0).is_err());
        assert!(decode_cells("3A", 2).is_err());
        assert!(decode_cells("3A", 4).is_err());
    }

    #[test]
    fn runs_past_the_board_and_boards_past_the_bound_are_refused() {
        let runs = "16777216A".repeat(300);
        let error = decode_cells(&runs, 4).unwrap_err();
        assert!(
            error.ends_with("a run of 16777216 after 0 of 4 cells"),
            "{error}"
        );
        let error = decode_cells(&format!("3A{runs}"), 4).unwrap_err();
        assert!(
            error.ends_with("a run of 16777216 after 3 of 4 cells"),
            "{error}"
        );
        let header = |width, height| ReplayHeader {
            format_version: REPLAY_FORMAT_VERSION,
            game: "slime".into(),
            index: 0,
            seed: 0,
            bots: Vec::new(),
            width,
            height,
            legend: Vec::new(),
            message_cap: 0,
        };
        assert_eq!(header(4096, 4096).cells(), Some(MAX_CELLS));
        assert_eq!(header(4097, 4096).cells(), None);
        assert_eq!(header(usize::MAX, 2).cells(), None);
    }

    /// A replay of `frames` frames of a `width` x `height` board of one run each, in `dir`.
    fn replay_of_one_run_frames(dir: &Path, width: usize, height: usize, frames: u32) -> PathBuf {
        let header = ReplayHeader {
            format_version: REPLAY_FORMAT_VERSION,
            game: "petri".into(),
            index: 0,
            seed: 0,
            bots: vec!["a".into(), "b".into()],
            width,
            height,
            legend: Legend::new([], 2, |seat| format!("seat {seat}")).into_glyphs(),
            message_cap: 512,
        };
        let frame = |turn| Frame {
            turn,
            cells: Some(format!("{}A", width * height)),
            scores: vec![0, 0],
            events: Vec::new(),
            messages: Vec::new(),
        };
        let replay = Replay {
            header,
            frames: (0..frames).map(frame).collect(),
            end: None,
        };
        let path = dir.join(format!("{width}x{height}x{frames}.jsonl"));
        std::fs::write(&path, replay.to_jsonl()).unwrap();
        path
    }

    #[test]
    fn the_longest_games_on_the_largest_boards_read_and_more_cells_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (width, height, frames) in [
            (1000, 1000, 302),  // Petri: its largest arena, 150 turns a side
            (256, 256, 2001),   // Slime: its largest board, 2,000 turns
            (1000, 1000, 1001), // AlienWar: 1,000 rounds, 35 bots of 10,000 instances
            (4096, 4096, 51),   // Cave: 50 turns on the largest board (406 bots)
            (4096, 4096, 64),   // the most frames of the largest board
        ] {
            let path = replay_of_one_run_frames(dir.path(), width, height, frames);
            let replay = Replay::read(&path).unwrap();
            assert_eq!(replay.frames.len(), frames as usize);
        }
        let path = replay_of_one_run_frames(dir.path(), 4096, 4096, 65);
        let error = Replay::read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with(
                ":66: the frames up to this one hold 1090519040 cells, over the 1073741824 a \
                 replay may hold in all"
            ),
            "{error}"
        );
    }

    /// A line is read only up to [`MAX_LINE_BYTES`]: a file of one endless line errs once
    /// that much is read (it used to be read whole into memory), and a line of exactly that
    /// many bytes with its newline is still read.
    #[test]
    fn a_line_over_the_cap_is_refused_and_one_at_the_cap_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = replay_of_one_run_frames(dir.path(), 2, 2, 1);
        let text = std::fs::read_to_string(&path).unwrap();
        let header_end = text.find('\n').unwrap() + 1;
        let frame = &text[header_end..];
        let padding = MAX_LINE_BYTES - frame.len();
        let padded = frame.replacen(
            "{\"turn\"",
            &format!("{}{{\"turn\"", " ".repeat(padding)),
            1,
        );
        assert_eq!(padded.len(), MAX_LINE_BYTES);
        std::fs::write(&path, format!("{}{padded}", &text[..header_end])).unwrap();
        assert_eq!(Replay::read(&path).unwrap().frames.len(), 1);

        let mut long = text.as_bytes()[..header_end].to_vec();
        long.resize(header_end + MAX_LINE_BYTES + 100, 0);
        std::fs::write(&path, long).unwrap();
        let error = Replay::read(&path).unwrap_err().to_string();
        assert!(
            error
                .ends_with(":2: the line is longer than 64 MiB, the most a replay's line may have"),
            "{error}"
        );
    }

    #[test]
    fn replays_of_a_format_version_this_arena_does_not_write_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = replay_of_one_run_frames(dir.path(), 2, 2, 1);
        let text = std::fs::read_to_string(&path).unwrap();
        for version in [0, 2, 9] {
            let other = text.replacen(
                "\"format_version\":1,",
                &format!("\"format_version\":{version},"),
                1,
            );
            std::fs::write(&path, other).unwrap();
            let error = Replay::read(&path).unwrap_err().to_string();
            let expected =
                format!(":1: format version {version} is not one this arena reads (it reads 1)");
            assert!(error.ends_with(&expected), "{error}");
        }
    }

    #[test]
    fn a_line_that_is_not_utf8_is_named_and_crlf_lines_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = replay_of_one_run_frames(dir.path(), 2, 2, 3);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace('\n', "\r\n")).unwrap();
        assert_eq!(Replay::read(&path).unwrap().frames.len(), 3);

        let line_3 = text.match_indices('\n').nth(1).unwrap().0 + 1;
        let mut bytes = text.into_bytes();
        bytes.splice(line_3 + 1..line_3 + 1, [0xff, 0xfe]);
        std::fs::write(&path, bytes).unwrap();
        let error = Replay::read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with(":3: not UTF-8: invalid utf-8 sequence of 1 bytes from index 1"),
            "{error}"
        );
    }

    #[test]
    fn excerpts_are_capped_and_say_how_much_is_missing() {
        assert_eq!(excerpt(b"hello", 5), "hello");
        assert_eq!(excerpt(b"hello world", 5), "hello…[6 more bytes]");
        assert_eq!(excerpt(b"a\xffb", 10), "a\u{fffd}b");
    }

    #[test]
    fn a_replay_round_trips_and_bad_files_name_the_line() {
        let replay = Replay {
            header: ReplayHeader {
                format_version: REPLAY_FORMAT_VERSION,
                game: "slime".into(),
                index: 3,
                seed: 9,
                bots: vec!["a".into()],
                width: 2,
                height: 1,
                legend: Legend::new([], 1, |seat| format!("slime {seat}")).into_glyphs(),
                message_cap: 10,
            },
            frames: vec![Frame {
                turn: 0,
                cells: Some("2A".into()),
                scores: vec![2],
                events: vec!["grew".into()],
                messages: vec![Message {
                    seat: 0,
                    request: "x".into(),
                    reply: Some("9".into()),
                    invalid: Some("a cell is off the board".into()),
                    failure: Some("replied, then ended (exit status 1)".into()),
                }],
            }],
            end: Some(ReplayEnd {
                summary: "done".into(),
                scores: vec![2],
            }),
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game-3.jsonl");
        std::fs::write(&path, replay.to_jsonl()).unwrap();
        assert_eq!(Replay::read(&path).unwrap(), replay);

        let wrong_size = replay.to_jsonl().replace("\"2A\"", "\"3A\"");
        std::fs::write(&path, wrong_size).unwrap();
        let error = Replay::read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with(":2: the grid has the wrong size: a run of 3 after 0 of 2 cells"),
            "{error}"
        );
        std::fs::write(&path, "{}\n").unwrap();
        assert!(Replay::read(&path).is_err());
    }

    /// A replay written before messages said why a bot failed still reads, and a message
    /// with no failure is written back byte for byte as it was.
    #[test]
    fn messages_without_a_failure_read_and_write_as_before_it_existed() {
        let header = r#"{"type":"header","data":{"format_version":1,"game":"petri","index":0,"seed":0,"bots":["a","b"],"width":0,"height":0,"legend":[],"message_cap":512}}"#;
        let frame = r#"{"type":"frame","data":{"turn":0,"messages":[{"seat":0,"request":"BEGIN","reply":"4 4 4"},{"seat":1,"request":"BEGIN","reply":null}]}}"#;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game-0.jsonl");
        let old = format!("{header}\n{frame}\n");
        std::fs::write(&path, &old).unwrap();
        let replay = Replay::read(&path).unwrap();
        let failures: Vec<_> = replay.frames[0]
            .messages
            .iter()
            .map(|m| &m.failure)
            .collect();
        assert_eq!(failures, [&None, &None]);
        assert_eq!(replay.to_jsonl(), old);
    }

    /// A journal's header is a `header` record too: its reader said only `missing field
    /// 'index'`.
    #[test]
    fn a_journal_given_for_a_replay_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let header = crate::journal::Header::new("petri", 7, 1, vec!["a".into()], 2, "abc".into());
        let line = serde_json::to_string(&crate::journal::Record::Header(header)).unwrap();
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let error = Replay::read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with(
                ":1: this is a results journal, not a replay; replays are written with `arena \
                 run --replays`"
            ),
            "{error}"
        );
    }

    #[test]
    fn frames_of_a_few_bytes_each_are_bounded_by_what_they_hold() {
        let header = r#"{"type":"header","data":{"format_version":1,"game":"cave","index":0,"seed":0,"bots":["a"],"width":0,"height":0,"legend":[],"message_cap":512}}"#;
        let frame = r#"{"type":"frame","data":{"turn":1,"events":["","","",""]}}"#;
        let each = held_bytes(
            &Frame {
                turn: 1,
                cells: None,
                scores: Vec::new(),
                events: vec![String::new(); 4],
                messages: Vec::new(),
            },
            frame.len() + 1,
        );
        assert!(each > frame.len() + 4 * 24, "{each}");
        let mut read = ReadSoFar::new(10 * each);
        read.add_line(1, format!("{header}\n").as_bytes()).unwrap();
        for number in 2..12 {
            read.add_line(number, format!("{frame}\n").as_bytes())
                .unwrap();
        }
        let error = read
            .add_line(12, format!("{frame}\n").as_bytes())
            .unwrap_err();
        assert!(
            error.starts_with("the frames up to this one take about 0 MiB, over the 0 MiB"),
            "{error}"
        );
        assert_eq!(read.frames.len(), 10);
    }
}
