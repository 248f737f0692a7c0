//! Replays end to end: `arena run --replays` records every game, `arena replay` prints one,
//! and the HTML viewer, opened in headless Chromium, draws exactly the board the replay file
//! holds (read back from the canvas pixels) after stepping through turns.

use std::collections::BTreeSet;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use arena::replay::Replay;
use arena::replay::file::decode_cells;

use crate::support::{arena, repo, run_ok, write_toml};

/// Runs `tests/data/<name>.toml` with replays into `dir/out` and returns game 0's replay.
fn record(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    record_file(dir, &repo().join(format!("tests/data/{name}.toml")), extra)
}

/// Runs the tournament `file` with replays into `dir/out` and returns game 0's replay.
fn record_file(dir: &Path, file: &Path, extra: &[&str]) -> PathBuf {
    let mut args = vec!["--replays", "--out", "out"];
    args.extend_from_slice(extra);
    run_ok(dir, file, &args);
    dir.join("out/replays/game-0.jsonl")
}

/// Runs headless Chromium with `args` on the viewer's window.
fn chromium(profile: &Path, args: &[String]) -> Output {
    crate::support::chromium(profile, "1100,800", args)
}

/// The page's DOM after its script ran, opened at `fragment`, after `extra` arguments.
fn dump_dom(page: &Path, profile: &Path, fragment: &str, extra: &[&str]) -> String {
    let mut args: Vec<String> = extra.iter().map(|&arg| arg.to_owned()).collect();
    args.push("--dump-dom".into());
    args.push(format!("file://{}#{fragment}", page.display()));
    let output = chromium(profile, &args);
    String::from_utf8(output.stdout).expect("the DOM is UTF-8")
}

/// The value of `attribute` and the text of the element with id `id` in `dom`.
fn element(dom: &str, id: &str, attribute: &str) -> (String, String) {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let tag_end = start + dom[start..].find('>').unwrap();
    let tag = &dom[start..tag_end];
    let value = tag
        .split(&format!("{attribute}=\""))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no {attribute} on #{id}: {tag}"))
        .to_owned();
    let text_end = tag_end + dom[tag_end..].find("</").unwrap();
    (value, dom[tag_end + 1..text_end].to_owned())
}

/// Writes the viewer of `replay_file`, opens it at a few turns, steps with the page's own
/// step button, and checks that the canvas shows that frame's cells and the page its
/// scores; then lets it play. Also takes a screenshot (in `dir`, the test's temporary
/// folder) and checks that it is a real picture.
/// Writes the viewer page of `replay` to `page` with `arena replay --html`, run in `dir`.
fn write_page(dir: &Path, replay: &Path, page: &Path) {
    let output = arena(
        dir,
        &[
            "replay",
            replay.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{output:?}");
}

fn check_viewer(dir: &Path, replay_file: &Path, name: &str) {
    let replay = Replay::read(replay_file).unwrap();
    assert!(replay.frames.len() > 3, "a game of a few turns at least");
    let board = replay.header.cells().expect("a board within the bound");
    let page = dir.join("viewer.html");
    write_page(dir, replay_file, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network"
    );

    let profile = tempfile::tempdir().unwrap();
    let middle = replay.frames.len() / 2;
    let last = replay.frames.len() - 1;
    for (start, steps) in [(1, 2), (middle, 1), (last - 1, 3)] {
        let turn = replay.frames[start].turn;
        let dom = dump_dom(
            &page,
            profile.path(),
            &format!("turn={turn}&step={steps}&probe"),
            &[],
        );
        let expected = (start + steps).min(last);
        let frame = &replay.frames[expected];
        let (drawn, cells) = element(&dom, "probe", "data-frame");
        assert_eq!(drawn, expected.to_string(), "{name}: frame after stepping");
        let want = decode_cells(frame.cells.as_deref().expect("a board"), board).unwrap();
        assert_eq!(cells, want, "{name}: the canvas of frame {expected}");
        let (scores, _) = element(&dom, "state", "data-scores");
        let want: Vec<String> = frame.scores.iter().map(i64::to_string).collect();
        assert_eq!(scores, want.join(","), "{name}: scores of frame {expected}");
    }

    // Playing for two seconds of the browser's virtual time moves on by some frames, and
    // the canvas shows whichever frame it reached.
    let dom = dump_dom(
        &page,
        profile.path(),
        "play&probe",
        &["--virtual-time-budget=2000"],
    );
    let (reached, cells) = element(&dom, "probe", "data-frame");
    let reached: usize = reached.parse().unwrap();
    assert!(reached > 0, "{name}: playing moved on");
    let frame = &replay.frames[reached];
    let want = decode_cells(frame.cells.as_deref().expect("a board"), board).unwrap();
    assert_eq!(
        cells, want,
        "{name}: the canvas of frame {reached} while playing"
    );

    let shot = dir.join(format!("{name}.png"));
    let url = format!(
        "file://{}#turn={}",
        page.display(),
        replay.frames[middle].turn
    );
    chromium(
        profile.path(),
        &[format!("--screenshot={}", shot.display()), url],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "{name}");
}

#[test]
fn the_viewer_draws_the_recorded_slime_board() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "slime-small", &[]);
    check_viewer(dir.path(), &file, "slime");
}

#[test]
fn the_viewer_draws_the_recorded_petri_dish() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "petri-small", &["--games", "1"]);
    check_viewer(dir.path(), &file, "petri");
}

#[test]
fn the_viewer_draws_the_recorded_egg_hunt() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "eggs-small", &["--games", "1"]);
    check_viewer(dir.path(), &file, "eggs");
}

#[test]
fn the_viewer_draws_the_recorded_alienwar_planet() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "alienwar-small", &["--games", "1"]);
    check_viewer(dir.path(), &file, "alienwar");
}

#[test]
fn every_game_gets_a_replay_that_prints_turn_by_turn() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "petri-small", &["--games", "1"]);
    let replays: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(replays.len(), 3, "one per game: {replays:?}");
    let replay = Replay::read(&file).unwrap();
    let end = replay.end.as_ref().expect("a finished game");
    let last = replay.frames.last().unwrap();
    assert_eq!(replay.header.game, "petri");
    assert_eq!(replay.frames[0].turn, 0);
    // Frame 0 is the dish the species made: its messages are the two species requests.
    let setup = &replay.frames[0].messages;
    assert_eq!(setup.len(), 2, "{setup:?}");
    assert!(setup.iter().all(|m| m.request == "BEGIN"), "{setup:?}");
    // The journal's score is the win; the replay's last frame counts living cells, whose
    // larger side won (or the game ended by elimination).
    let winner = end.scores.iter().position(|&s| s == 1);
    if let Some(winner) = winner {
        assert!(
            last.scores[winner] > last.scores[1 - winner],
            "{end:?} {last:?}"
        );
    }

    let output = arena(
        dir.path(),
        &[
            "replay",
            file.to_str().unwrap(),
            "--turn",
            "2",
            "--messages",
        ],
    );
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("petri game 0 (seed "), "{text}");
    // Seats are named from 0 everywhere, as the summary names them, with their bots.
    let seats = text.lines().next().unwrap();
    assert!(
        seats.contains("): seat 0 ") && seats.contains(", seat 1 "),
        "{text}"
    );
    assert!(text.contains(", 1 cell of seat 0 ("), "{text}");
    assert!(text.contains("\nturn 2  scores "), "{text}");
    assert!(!text.contains("\nturn 1  "), "only turn 2: {text}");
    assert!(
        // Turn 2 is the second seat's (seat 1's) first player turn.
        text.contains("  > 1: ") && text.contains("  < 1: ") && !text.contains("  > 0: "),
        "{text}"
    );
    assert!(
        text.contains(&format!("\nend: {}\n", end.summary)),
        "{text}"
    );

    let missing = arena(dir.path(), &["replay", "nowhere.jsonl"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn a_game_without_a_board_still_gets_a_working_page() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_toml(
        dir.path(),
        "forfeit.toml",
        "game = \"petri\"\ngames = 1\n\
         [[bots]]\nname = \"silent\"\ncommand = \"/bin/true\"\n\
         [[bots]]\nname = \"mute\"\ncommand = \"/bin/true\"\n",
    );
    let output = arena(
        dir.path(),
        &["run", file.to_str().unwrap(), "--replays", "--out", "out"],
    );
    assert!(output.status.success(), "{output:?}");
    let replay_file = dir.path().join("out/replays/game-0.jsonl");
    let replay = Replay::read(&replay_file).unwrap();
    assert_eq!(replay.header.width, 0, "both forfeited: no dish");
    assert_eq!(replay.frames.len(), 1, "the setup requests: {replay:?}");
    let page = dir.path().join("forfeit.html");
    write_page(dir.path(), &replay_file, &page);
    let profile = tempfile::tempdir().unwrap();
    let dom = dump_dom(&page, profile.path(), "probe", &[]);
    assert_eq!(
        element(&dom, "probe", "data-frame"),
        ("0".into(), String::new())
    );
    let summary = &replay.end.unwrap().summary;
    assert!(
        dom.contains(&format!("<p id=\"summary\">{summary}</p>")),
        "{dom}"
    );
}

/// Records a one-game, three-turn Cave Rangers tournament of `bots` shell bots that hold
/// still, in `dir`; returns its replay file.
fn record_cave(dir: &Path, bots: usize) -> PathBuf {
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    std::fs::write(dir.join("bots/hold.sh"), "cat > /dev/null\necho HNNHNN\n").unwrap();
    let mut text = "game = \"cave\"\ngames = 1\nseed = 5\n[options]\nmax_turns = 3\n".to_owned();
    for n in 1..=bots {
        text.push_str(&format!(
            "[[bots]]\nname = \"hold-{n}\"\ncommand = \"/bin/sh hold.sh\"\ndir = \"bots\"\n"
        ));
    }
    let file = write_toml(dir, "cave.toml", &text);
    run_ok(dir, &file, &["--replays", "--out", "out"]);
    dir.join("out/replays/game-0.jsonl")
}

/// The legend as `arena replay` prints it: `glyph name` per entry.
fn text_legend(replay: &Replay) -> Vec<String> {
    let legend = replay.header.legend.iter();
    legend
        .map(
            |g| match g.seat.and_then(|seat| replay.header.bots.get(seat)) {
                Some(bot) => format!("{} {} ({bot})", g.glyph, g.name),
                None => format!("{} {}", g.glyph, g.name),
            },
        )
        .collect()
}

/// What `arena replay FILE --turn 0` prints.
fn print_turn_0(dir: &Path, file: &Path) -> String {
    let output = arena(dir, &["replay", file.to_str().unwrap(), "--turn", "0"]);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The legend line of a printed replay.
fn legend_line(text: &str) -> &str {
    text.lines().nth(1).expect("a legend line")
}

/// The grid of the first turn in a printed replay, read back into cell codes through the
/// legend's glyphs; a character printed for two things fails the test.
fn read_back(text: &str, replay: &Replay) -> String {
    let grid = text
        .lines()
        .skip_while(|line| !line.starts_with("turn "))
        .skip(1)
        .take(replay.header.height);
    grid.flat_map(str::chars)
        .map(|shown| {
            let mut meanings = replay.header.legend.iter().filter(|g| g.glyph == shown);
            let glyph = meanings
                .next()
                .expect("a printed character is in the legend");
            assert!(
                meanings.next().is_none(),
                "{shown:?} is printed for two things"
            );
            glyph.code
        })
        .collect()
}

/// With 8 and 12 bots (Cave's gold, food, centipedes, bats, knives and lions are `G`, `F`,
/// `C`, `B`, `K` and `L`, the letters of bots 2, 3, 6, 7, 11 and 12 in order), every code
/// of the legend, and every character the text replay prints, means one thing; every cell of
/// every frame is in the legend; turn 0 shows each bot on exactly one cell and later turns
/// at most one; and the text replay prints exactly the recorded cells.
#[test]
fn cave_replays_give_every_bot_a_code_of_its_own_with_8_and_12_bots() {
    for bots in [8, 12] {
        let dir = tempfile::tempdir().unwrap();
        let file = record_cave(dir.path(), bots);
        let replay = Replay::read(&file).unwrap();
        let legend = &replay.header.legend;
        let codes: BTreeSet<char> = legend.iter().map(|g| g.code).collect();
        let glyphs: BTreeSet<char> = legend.iter().map(|g| g.glyph).collect();
        assert_eq!(codes.len(), legend.len(), "{bots} bots: codes {legend:?}");
        assert_eq!(glyphs.len(), legend.len(), "{bots} bots: glyphs {legend:?}");
        let seats: Vec<usize> = legend.iter().filter_map(|g| g.seat).collect();
        assert_eq!(seats, (0..bots).collect::<Vec<_>>());
        let board = replay.header.cells().unwrap();
        for (n, frame) in replay.frames.iter().enumerate() {
            let cells = decode_cells(frame.cells.as_deref().unwrap(), board).unwrap();
            assert!(cells.chars().all(|c| codes.contains(&c)), "frame {n}");
            for glyph in legend.iter().filter(|g| g.seat.is_some()) {
                let shown = cells.chars().filter(|&c| c == glyph.code).count();
                let want = if n == 0 { 1..=1 } else { 0..=1 };
                assert!(
                    want.contains(&shown),
                    "{bots} bots, frame {n}: {}: {shown}",
                    glyph.name
                );
            }
        }
        let first = decode_cells(replay.frames[0].cells.as_deref().unwrap(), board).unwrap();
        let text = print_turn_0(dir.path(), &file);
        assert_eq!(
            read_back(&text, &replay),
            first,
            "{bots} bots: the text of turn 0"
        );
        assert_eq!(
            legend_line(&text),
            format!("legend: {}", text_legend(&replay).join(", "))
        );
    }
}

/// The entries of the viewer's legend list in `dom`: each one's swatch style and text.
fn viewer_legend(dom: &str) -> Vec<(String, String)> {
    let start = dom.find("<ul id=\"legend\">").expect("a legend list");
    let list = &dom[start..start + dom[start..].find("</ul>").unwrap()];
    list.split("<li>")
        .skip(1)
        .map(|item| {
            let style = item.split("style=\"").nth(1).unwrap().split('"').next();
            let text = item.split("</span>").nth(1).unwrap().split("</li>").next();
            (style.unwrap().to_owned(), text.unwrap().to_owned())
        })
        .collect()
}

/// The viewer of a 12-bot Cave replay draws turn 0 with exactly the recorded codes, and its
/// legend says what `arena replay` prints (a blank glyph shown as `␣`), each entry in a
/// colour of its own.
#[test]
fn the_viewer_and_the_text_replay_agree_on_a_cave_of_12_bots() {
    let dir = tempfile::tempdir().unwrap();
    let file = record_cave(dir.path(), 12);
    let replay = Replay::read(&file).unwrap();
    let page = dir.path().join("cave.html");
    write_page(dir.path(), &file, &page);
    let profile = tempfile::tempdir().unwrap();
    let dom = dump_dom(&page, profile.path(), "turn=0&probe", &[]);
    let (drawn, cells) = element(&dom, "probe", "data-frame");
    let board = replay.header.cells().unwrap();
    let first = decode_cells(replay.frames[0].cells.as_deref().unwrap(), board).unwrap();
    assert_eq!(
        (drawn.as_str(), cells),
        ("0", first),
        "the canvas of turn 0"
    );
    let shown = viewer_legend(&dom);
    let texts: Vec<String> = shown
        .iter()
        .map(|(_, text)| text.replacen('␣', " ", 1))
        .collect();
    let printed = print_turn_0(dir.path(), &file);
    assert_eq!(
        format!("legend: {}", texts.join(", ")),
        legend_line(&printed)
    );
    let colours: BTreeSet<&String> = shown.iter().map(|(style, _)| style).collect();
    assert_eq!(colours.len(), shown.len(), "a colour per entry: {shown:?}");
    // A bot is never drawn in a colour near a thing's (the green of food, say).
    let rgb = |style: &str| -> Vec<i64> {
        let inside = style.split('(').nth(1).unwrap().split(')').next().unwrap();
        inside
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect()
    };
    let (seats, things): (Vec<_>, Vec<_>) =
        (replay.header.legend.iter().zip(&shown)).partition(|(glyph, _)| glyph.seat.is_some());
    for (seat, (seat_style, _)) in &seats {
        for (thing, (thing_style, _)) in &things {
            let (a, b) = (rgb(seat_style), rgb(thing_style));
            let distance: i64 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            assert!(
                distance >= 100 * 100,
                "{} drawn near {}: {seat_style} and {thing_style}",
                seat.name,
                thing.name
            );
        }
    }
}

/// Runs `arena replay <file> <extra>` in `dir` with at most 512 MiB of address space and 20
/// seconds of CPU time: a replay that makes the reader ask for gigabytes, or work for
/// minutes, ends that process (and fails the test) instead of crowding the machine.
fn replay_within_limits(dir: &Path, file: &Path, extra: &[&str]) -> Output {
    const MEMORY: libc::rlim_t = 512 << 20;
    const CPU_SECONDS: libc::rlim_t = 20;
    let mut command = crate::support::arena_command();
    command
        .arg("replay")
        .arg(file)
        .args(extra)
        .current_dir(dir)
        .env_remove("ARENA_LOG");
    // SAFETY: between fork and exec the child only calls setrlimit(2), which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            for (resource, value) in [(libc::RLIMIT_AS, MEMORY), (libc::RLIMIT_CPU, CPU_SECONDS)] {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    command.output().expect("the arena binary runs")
}

/// A replay file of a `width` x `height` board with one frame of `cells`.
fn hostile_replay(dir: &Path, width: u64, height: u64, cells: &str) -> PathBuf {
    let header = format!(
        "{{\"type\":\"header\",\"data\":{{\"format_version\":1,\"game\":\"slime\",\
         \"index\":0,\"seed\":1,\"bots\":[\"a\"],\"width\":{width},\"height\":{height},\
         \"legend\":[],\"message_cap\":512}}}}"
    );
    let frame = format!("{{\"type\":\"frame\",\"data\":{{\"turn\":0,\"cells\":\"{cells}\"}}}}");
    let path = dir.join("game-0.jsonl");
    std::fs::write(&path, format!("{header}\n{frame}\n")).unwrap();
    path
}

/// A 2.4 KB replay whose runs add up to billions of cells is refused at the first run that
/// does not fit the board, and boards past the bound (or whose size overflows) at the
/// header: exit 2 and one line naming the place, within half a gigabyte of memory.
#[test]
fn replay_files_that_would_exhaust_memory_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = "16777216A".repeat(240);
    let cases = [
        (
            4,
            4,
            ":2: the grid has the wrong size: a run of 16777216 after 0 of 16 cells",
        ),
        (
            65_536,
            65_536,
            ":1: a board of 65536x65536 is over the 16777216 cells",
        ),
        (
            1 << 32,
            1 << 32,
            ":1: a board of 4294967296x4294967296 is over the",
        ),
    ];
    for (width, height, expected) in cases {
        let file = hostile_replay(dir.path(), width, height, &runs);
        assert!(std::fs::metadata(&file).unwrap().len() < 2500);
        let output = replay_within_limits(dir.path(), &file, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{width}x{height}: {output:?}"
        );
        assert!(stderr.contains(expected), "{width}x{height}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// The audit's 263 KB replay: 3,000 frames of a 4096x4096 board, each one run of 16 Mi
/// cells, kept `arena replay` and `--html` busy for minutes. Its frames together hold more
/// cells than a replay may, so both refuse it at the frame past the bound, at once.
#[test]
fn a_small_replay_of_many_huge_frames_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 4096, 4096, "16777216.");
    let header = std::fs::read_to_string(&file).unwrap();
    let header = header.lines().next().unwrap();
    let frames: String = (0..3000)
        .map(|turn| {
            format!(
                "{{\"type\":\"frame\",\"data\":{{\"turn\":{turn},\"cells\":\"16777216.\",\
                 \"scores\":[0,0,0,0]}}}}\n"
            )
        })
        .collect();
    std::fs::write(&file, format!("{header}\n{frames}")).unwrap();
    assert!(std::fs::metadata(&file).unwrap().len() < 270_000);
    let page = dir.path().join("page.html");
    for extra in [&[][..], &["--html", page.to_str().unwrap()]] {
        let output = replay_within_limits(dir.path(), &file, extra);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = ":66: the frames up to this one hold 1090519040 cells, over the \
                        1073741824 a replay may hold in all";
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{extra:?}: {output:?}");
    }
    assert!(!page.exists());
}

/// A file of one endless line (`/dev/zero`) or of one line of a gigabyte was read whole into
/// memory; it is refused once the most a line may have is read, with a message naming the
/// line, by `arena replay` and its `--html` alike.
#[test]
fn a_replay_line_over_the_cap_is_refused_within_limits() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("x.jsonl");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let page = dir.path().join("page.html");
    for file in [Path::new("/dev/zero"), &sparse] {
        for extra in [&[][..], &["--html", page.to_str().unwrap()]] {
            let output = replay_within_limits(dir.path(), file, extra);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{file:?} {extra:?}: {stderr}"
            );
            assert!(
                stderr.contains(
                    ":1: the line is longer than 64 MiB, the most a replay's line may have"
                ),
                "{stderr}"
            );
        }
    }
    assert!(!page.exists());
}

/// A replay's text reaches the terminal with its control characters escaped: a bot name
/// that clears the screen is shown, not obeyed.
#[test]
fn a_replays_names_and_summary_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 1, 1, "A");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("[\"a\"]", "[\"\\u001b[2J\\u001b]0;pwned\\u0007\"]")
        + "{\"type\":\"end\",\"data\":{\"summary\":\"over\\r\\u009b31m\",\"scores\":[1]}}\n";
    std::fs::write(&file, text).unwrap();
    let output = replay_within_limits(dir.path(), &file, &[]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(": seat 0 \\x1b[2J\\x1b]0;pwned\\x07\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("\nend: over\\r\\u{9b}31m\n"), "{stdout}");
    assert!(
        !stdout.contains(['\x1b', '\x07', '\r', '\u{9b}']),
        "{stdout}"
    );
}

/// The text of the `<li>` items of the list with id `id` in `dom`.
fn list_items(dom: &str, id: &str) -> Vec<String> {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let list = &dom[start..start + dom[start..].find("</ul>").unwrap()];
    list.split("<li")
        .skip(1)
        .map(|item| {
            let text = &item[item.find('>').unwrap() + 1..];
            text[..text.find("</li>").unwrap()].to_owned()
        })
        .collect()
}

#[test]
fn the_viewer_marks_each_invalid_reply_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::failures::invalid_every_turn(dir.path());
    let replay_file = record_file(dir.path(), &file, &[]);
    let page = dir.path().join("viewer.html");
    write_page(dir.path(), &replay_file, &page);

    let profile = tempfile::tempdir().unwrap();
    let strength = crate::failures::STRENGTH;
    // `bad` moves in the odd turns, `rests` in the even ones.
    for (turn, want) in [
        (
            1,
            format!("seat 0 (bad) sent \"ATTACK N 9\\n\": {strength}"),
        ),
        (2, "none this turn".to_owned()),
        (
            5,
            format!("seat 0 (bad) sent \"ATTACK N 9\\n\": {strength}"),
        ),
    ] {
        let dom = dump_dom(&page, profile.path(), &format!("turn={turn}"), &[]);
        let items = list_items(&dom, "problems");
        assert_eq!(items, [want], "turn {turn}");
    }

    let text = arena(
        dir.path(),
        &["replay", replay_file.to_str().unwrap(), "--turn", "3"],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!("! 0: invalid reply \"ATTACK N 9\\n\": {strength}")),
        "{text}"
    );
}

/// A frame of 2,000,000 events and 150,000 invalid replies stopped the viewer's script
/// ("Maximum call stack size exceeded": the items were spread as arguments). The page
/// now works, and shows the first 10,000 of each and how many more there are.
#[test]
fn the_viewer_shows_a_frame_of_millions_of_events() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 1, 1, "A");
    let header = std::fs::read_to_string(&file).unwrap();
    let header = header.lines().next().unwrap();
    let events: Vec<String> = (0..2_000_000).map(|n| format!("e{n}")).collect();
    let invalid = serde_json::json!({"seat": 0, "request": "x", "reply": "y", "invalid": "bad"});
    let frame = serde_json::json!({
        "type": "frame",
        "data": {"turn": 0, "cells": "A", "events": events, "messages": vec![invalid; 150_000]},
    });
    std::fs::write(&file, format!("{header}\n{frame}\n")).unwrap();
    let page = dir.path().join("viewer.html");
    write_page(dir.path(), &file, &page);

    let profile = tempfile::tempdir().unwrap();
    let dom = dump_dom(&page, profile.path(), "", &[]);
    let (frame, _) = element(&dom, "state", "data-frame");
    assert_eq!(frame, "0", "the script ran to its end");
    let events = list_items(&dom, "events");
    assert_eq!(events.len(), 10_001);
    assert_eq!((&events[0][..], &events[9_999][..]), ("e0", "e9999"));
    assert_eq!(events[10_000], "… 1990000 more");
    let invalid = list_items(&dom, "problems");
    assert_eq!(invalid.len(), 10_001);
    assert_eq!(invalid[0], "seat 0 (a) sent \"y\": bad");
    assert_eq!(invalid[10_000], "… 140000 more");
}

#[test]
fn a_folder_given_for_a_replay_is_told_where_its_replays_are() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("out/replays");
    std::fs::create_dir_all(&replays).unwrap();
    for game in [10, 2] {
        std::fs::write(replays.join(format!("game-{game}.jsonl")), "").unwrap();
    }
    let output = arena(dir.path(), &["replay", "out"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "out is a folder: a replay is one game's file, `replays/game-<index>.jsonl` in a \
             results folder of a run with --replays; it has 2 replays, the first: `arena \
             replay out/replays/game-2.jsonl`"
        ),
        "{stderr}"
    );
}

#[test]
fn a_turn_past_the_end_of_a_replay_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::failures::invalid_every_turn(dir.path());
    let replay = record_file(dir.path(), &file, &[]);
    let output = arena(
        dir.path(),
        &["replay", replay.to_str().unwrap(), "--turn", "99"],
    );
    assert_refused(&output, "no turn 99: the replay has turns 0 to 6");
}

/// `output` is a usage error (exit status 2) that says `why` on stderr and prints nothing.
fn assert_refused(output: &std::process::Output, why: &str) {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(why), "{stderr}");
    assert!(output.stdout.is_empty(), "{output:?}");
}

#[test]
fn a_replay_of_its_header_alone_says_it_has_no_turns() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 1, 1, "A");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.lines().next().unwrap()).unwrap();
    let output = arena(
        dir.path(),
        &["replay", file.to_str().unwrap(), "--turn", "0"],
    );
    assert_refused(
        &output,
        "no turn 0: the replay has no turns: no frame follows its header",
    );
}

/// `arena replay FILE --html FILE` wrote the page over the replay and exited 0. The page's
/// path is compared with the replay's by identity, so another spelling of it, or a link to
/// it, is refused too.
#[test]
fn the_page_is_never_written_over_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 1, 1, "A");
    let replay = std::fs::read(&file).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink(&file, dir.path().join("link.html")).unwrap();
    for page in ["game-0.jsonl", "./sub/../game-0.jsonl", "link.html"] {
        let output = arena(
            dir.path(),
            &["replay", file.to_str().unwrap(), "--html", page],
        );
        assert_eq!(output.status.code(), Some(2), "{page}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = format!("--html {page}: that is {}, which the page", file.display());
        assert!(stderr.contains(&expected), "{stderr}");
        assert_eq!(std::fs::read(&file).unwrap(), replay, "{page}");
    }
    write_page(dir.path(), &file, &dir.path().join("page.html"));
    assert_eq!(std::fs::read(&file).unwrap(), replay);
}

/// The texts of the `<pre>` blocks (each request, then its reply) and of the reasons under
/// replies in the viewer's unfolded requests and replies in `dom`.
fn viewer_messages(dom: &str) -> (Vec<String>, Vec<String>) {
    let start = dom.find("id=\"messages\"").expect("a messages box");
    let box_end = start + dom[start..].find("</details>").unwrap();
    let messages = &dom[start..box_end];
    let texts = |open: &str, close: &str| -> Vec<String> {
        messages
            .split(open)
            .skip(1)
            .map(|item| {
                let text = &item[item.find('>').unwrap() + 1..];
                text[..text.find(close).unwrap()].to_owned()
            })
            .collect()
    };
    (
        texts("<pre", "</pre>"),
        texts("<div class=\"reason\"", "</div>"),
    )
}

/// What `arena replay` printed for `turn` in `text`: its `turn` line up to the blank line
/// after its block.
fn turn_block(text: &str, turn: u32) -> &str {
    let start = (text.find(&format!("\nturn {turn}  ")))
        .unwrap_or_else(|| panic!("no turn {turn} in {text}"));
    let block = &text[start + 1..];
    &block[..block.find("\n\n").unwrap_or(block.len())]
}

/// Why a persistent bot that hung got no reply after its first timeout.
const PROCESS_GONE: &str = "the process had ended earlier in the game";

/// Why a one-shot bot that exits 1 got no reply.
const CRASHED: &str = "ended without replying (exit status 1)";

/// A Petri game of `slow`, which times out on its first turn and is asked on through its
/// ended session, and `crasher`, which exits 1 on every turn: the replay file says why
/// each got no reply, differently, and so do `arena replay` (with and without `--messages`)
/// and the viewer's requests and replies (`#messages` unfolds them).
#[test]
fn a_replay_says_a_timeout_and_a_crash_apart() {
    let dir = tempfile::tempdir().unwrap();
    let slow = format!(
        "[\"/bin/sh\", \"{}\", \"hang\", \"0\"]",
        repo().join("tests/bots/loop.sh").display()
    );
    let crasher = "[\"/bin/sh\", \"-c\", 'read -r l; if [ \"$l\" = BEGIN ]; then echo 4 4 4; \
                   else exit 1; fi']";
    let file = write_toml(
        dir.path(),
        "t.toml",
        &format!(
            "game = \"petri\"\ngames = 1\ntimeout_ms = 300\n\
             [options]\nwidth = 5\nheight = 3\nturns = 3\n\
             [[bots]]\nname = \"slow\"\ncommand = {slow}\n\
             [[bots]]\nname = \"crasher\"\ncommand = {crasher}\n"
        ),
    );
    let replay_file = record_file(dir.path(), &file, &[]);
    let replay = Replay::read(&replay_file).unwrap();
    // Each seat's failed requests, with their turns; its setup requests were answered.
    let failures = |seat: usize| -> Vec<(u32, &str)> {
        let frames = replay.frames.iter();
        let messages = frames.flat_map(|f| f.messages.iter().map(move |m| (f.turn, m)));
        messages
            .filter(|(_, m)| m.seat == seat)
            .filter_map(|(turn, m)| Some((turn, m.failure.as_deref()?)))
            .collect()
    };
    let (slow, crasher) = (failures(0), failures(1));
    let (timeout_turn, timeout) = slow[0];
    // The time it was given, as measured: 300 ms or a little more on a busy machine.
    assert!(
        timeout.starts_with("no reply within ") && timeout.ends_with(" ms"),
        "{slow:?}"
    );
    assert!(slow.len() > 1, "asked on after its session ended: {slow:?}");
    assert!(
        slow[1..].iter().all(|&(_, f)| f == PROCESS_GONE),
        "{slow:?}"
    );
    assert!(!crasher.is_empty(), "{crasher:?}");
    assert!(crasher.iter().all(|&(_, f)| f == CRASHED), "{crasher:?}");
    let crash_turn = crasher[0].0;

    // Each failure is a `!` line in its turn, with or without `--messages`: the driver's
    // words as they are, never on a `<` line, where a reply could read the same.
    let lines = [
        (timeout_turn, format!("  ! 0: {timeout}")),
        (slow[1].0, format!("  ! 0: {PROCESS_GONE}")),
        (crash_turn, format!("  ! 1: {CRASHED}")),
    ];
    let messages = replay.frames.iter().flat_map(|frame| &frame.messages);
    let replied = messages.filter(|m| m.reply.is_some()).count();
    for extra in [&[][..], &["--messages"]] {
        let mut args = vec!["replay", replay_file.to_str().unwrap()];
        args.extend_from_slice(extra);
        let output = arena(dir.path(), &args);
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        for (turn, line) in &lines {
            let block = turn_block(&text, *turn);
            assert!(block.lines().any(|l| l == line), "{line:?} in {block}");
        }
        assert_eq!(
            text.matches("\n  ! ").count(),
            slow.len() + crasher.len(),
            "a line per failure, no more: {text}"
        );
        let replies = if extra.is_empty() { 0 } else { replied };
        assert_eq!(text.matches("\n  < ").count(), replies, "{text}");
    }

    let page = dir.path().join("viewer.html");
    write_page(dir.path(), &replay_file, &page);
    let profile = tempfile::tempdir().unwrap();
    for (turn, seat, want) in [
        (timeout_turn, "seat 0 (slow)", timeout),
        (slow[1].0, "seat 0 (slow)", PROCESS_GONE),
        (crash_turn, "seat 1 (crasher)", CRASHED),
    ] {
        let dom = dump_dom(&page, profile.path(), &format!("turn={turn}&messages"), &[]);
        let (pres, reasons) = viewer_messages(&dom);
        let replies: Vec<&str> = pres.iter().skip(1).step_by(2).map(String::as_str).collect();
        assert!(
            replies.contains(&format!("({want})").as_str()),
            "turn {turn}: {replies:?}"
        );
        assert!(
            reasons.is_empty(),
            "no reply had a reason under it: {reasons:?}"
        );
        // The list always in view names the failure too, unfolded or not.
        assert!(dom.contains("<h2>Failed and invalid replies</h2>"), "{dom}");
        assert_eq!(
            list_items(&dom, "problems"),
            [format!("{seat}: {want}")],
            "turn {turn}"
        );
    }
}

/// The viewer's requests and replies of a hand-written frame: a reply, a reply after which
/// the process ended (the reason under it), a reply rejected and then ended (both reasons),
/// a timeout, and a missing reply of a replay written before reasons were kept; and the
/// list of failed and invalid replies, always in view, of the same frame.
#[test]
fn the_viewer_says_why_each_reply_is_missing_or_what_followed_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_replay(dir.path(), 1, 1, "A");
    let header = std::fs::read_to_string(&file).unwrap();
    let header = header.lines().next().unwrap();
    let ended = "replied, then ended (exit status 3)";
    let messages = serde_json::json!([
        {"seat": 0, "request": "a", "reply": "fine"},
        {"seat": 0, "request": "b", "reply": "late", "failure": ended},
        {"seat": 0, "request": "c", "reply": "bad", "invalid": "no", "failure": ended},
        {"seat": 0, "request": "d", "reply": null, "failure": "no reply within 100 ms"},
        {"seat": 0, "request": "e", "reply": null},
    ]);
    let frame = serde_json::json!({
        "type": "frame",
        "data": {"turn": 0, "cells": "A", "messages": messages},
    });
    std::fs::write(&file, format!("{header}\n{frame}\n")).unwrap();
    let page = dir.path().join("viewer.html");
    write_page(dir.path(), &file, &page);

    let profile = tempfile::tempdir().unwrap();
    let dom = dump_dom(&page, profile.path(), "messages", &[]);
    let (pres, reasons) = viewer_messages(&dom);
    let replies: Vec<&str> = pres.iter().skip(1).step_by(2).map(String::as_str).collect();
    assert_eq!(
        replies,
        [
            "fine",
            "late",
            "bad",
            "(no reply within 100 ms)",
            "(no reply)"
        ]
    );
    assert_eq!(reasons, [ended, "invalid: no", ended]);
    // The list always in view has each of them, in the order of the requests.
    assert_eq!(
        list_items(&dom, "problems"),
        [
            format!("seat 0 (a): {ended}"),
            "seat 0 (a) sent \"bad\": no".to_owned(),
            format!("seat 0 (a): {ended}"),
            "seat 0 (a): no reply within 100 ms".to_owned(),
            "seat 0 (a): no reply".to_owned(),
        ]
    );
}
