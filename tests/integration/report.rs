//! `arena report`: the results page of each game's small tournament, opened in headless
//! Chromium, draws the leaderboard of `leaderboard.json`: the table's cells, the rating
//! chart's marks (their figures and where they sit on the axis) and the heat map or score
//! ranges are read back from the DOM after the page's script ran.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{arena, repo, run_ok, write_toml};

/// Runs `tests/data/<game>-small.toml` with replays into `dir/out`, plus `extra` arguments.
fn results(dir: &Path, game: &str, extra: &[&str]) -> PathBuf {
    let file = repo().join(format!("tests/data/{game}-small.toml"));
    let mut args = vec!["--replays", "--out", "out"];
    args.extend_from_slice(extra);
    run_ok(dir, &file, &args);
    dir.join("out")
}

/// Runs `arena report <folder> <args>` in `dir` and returns its exit status and stdout.
fn report(dir: &Path, folder: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut words = vec!["report", folder.to_str().unwrap()];
    words.extend_from_slice(args);
    let output = arena(dir, &words);
    let stdout = String::from_utf8(output.stdout).unwrap();
    (output.status.code(), stdout)
}

/// Runs headless Chromium with `args` on `url`, on a window tall enough for the whole page;
/// returns what it printed.
fn chromium(profile: &Path, args: &[String], url: &str) -> Vec<u8> {
    let mut args = args.to_vec();
    args.push(url.to_owned());
    crate::support::chromium(profile, "1100,1800", &args).stdout
}

/// The DOM of the page at `page` after its script ran.
fn dom(page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}", page.display());
    let bytes = chromium(profile.path(), &["--dump-dom".into()], &url);
    String::from_utf8(bytes).expect("the DOM is UTF-8")
}

/// Text or an attribute value of the serialized DOM as the page set it.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The attributes of the start tag that begins `tag` (`name="value"` pairs, unescaped).
fn attributes(tag: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit([' ', '<']).next().unwrap().to_owned();
        let end = eq + 2 + rest[eq + 2..].find('"').unwrap();
        out.insert(name, unescape(&rest[eq + 2..end]));
        rest = &rest[end + 1..];
    }
    out
}

/// The part of `dom` from the element whose start tag holds `marker` to the first `end`
/// after it.
fn section<'a>(dom: &'a str, marker: &str, end: &str) -> &'a str {
    let start = dom
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker} in the page"));
    let stop = start + dom[start..].find(end).unwrap();
    &dom[start..stop]
}

/// The attributes of every `tag` element in `html` of class `class`.
fn tags(html: &str, tag: &str, class: &str) -> Vec<BTreeMap<String, String>> {
    html.match_indices(&format!("<{tag} "))
        .map(|(at, _)| attributes(&html[at..at + html[at..].find('>').unwrap()]))
        .filter(|attrs| attrs.get("class").map(String::as_str) == Some(class))
        .collect()
}

/// The cells of each body row of the table with id `id`, as text.
fn table_rows(dom: &str, id: &str) -> Vec<Vec<String>> {
    let body = section(dom, &format!("<table id=\"{id}\""), "</table>");
    let body = &body[body.find("<tbody").unwrap()..];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let text = &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
                    unescape(text)
                })
                .collect()
        })
        .collect()
}

/// The column names of the table with id `id`.
fn table_header(dom: &str, id: &str) -> Vec<String> {
    let head = section(dom, &format!("<table id=\"{id}\""), "</thead>");
    let cells = head.split("</th>");
    cells
        .take_while(|cell| cell.contains("<th"))
        .map(|cell| unescape(&cell[cell.rfind('>').unwrap() + 1..]))
        .collect()
}

/// Checks that `chart` shows by each bot, in leaderboard order, the figures `expected`
/// makes of its row of the leaderboard table (its cells by column name): the very texts of
/// the table, never the figures rounded again.
fn check_figures(
    dom: &str,
    chart: &str,
    name: &str,
    expected: impl Fn(&BTreeMap<String, String>) -> String,
) {
    let columns = table_header(dom, "leaderboard");
    let wanted: Vec<String> = table_rows(dom, "leaderboard")
        .into_iter()
        .map(|row| expected(&columns.iter().cloned().zip(row).collect()))
        .collect();
    let shown: Vec<String> = texts(chart, "figures")
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert_eq!(shown, wanted, "{name}: the chart's figures are the table's");
}

/// The rows of a Markdown table as their cells.
fn markdown_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|line| line.starts_with("| "))
        .skip(1)
        .map(|line| {
            line.trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// A figure the page wrote into an attribute.
fn number(attrs: &BTreeMap<String, String>, name: &str) -> f64 {
    attrs
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {attrs:?}"))
        .parse()
        .unwrap()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-6, "{what}: drawn {a}, expected {b}");
}

/// The name a chart or table shows for a leaderboard entry.
fn shown_name(entry: &Value) -> String {
    let name = entry["name"].as_str().unwrap();
    if entry["built_in"] == true {
        format!("{name} (built-in)")
    } else {
        name.to_owned()
    }
}

/// Checks that the rating chart of `dom` draws each entry of `board` with its rating and
/// interval, in leaderboard order, on one linear axis.
fn check_rating_chart(dom: &str, board: &Value, name: &str) {
    let entries = board["leaderboard"].as_array().unwrap();
    let chart = section(dom, "<svg id=\"rating-chart\"", "</svg>");
    let marks = tags(chart, "g", "bot");
    assert_eq!(marks.len(), entries.len(), "{name}: one mark per bot");
    let lines = tags(chart, "line", "interval");
    let dots = tags(chart, "circle", "point");
    // Pixels per unit from the first interval: every other mark must sit on the same axis.
    let (x1, x2) = (number(&lines[0], "x1"), number(&lines[0], "x2"));
    let (low, high) = (
        number(&marks[0], "data-low"),
        number(&marks[0], "data-high"),
    );
    let scale = (x2 - x1) / (high - low);
    let at = |value: f64| x1 + (value - low) * scale;
    let mut last_y = f64::MIN;
    for (((mark, entry), line), dot) in marks.iter().zip(entries).zip(&lines).zip(&dots) {
        let what = format!("{name}: {}", entry["name"]);
        assert_eq!(mark["data-name"], shown_name(entry), "{what}");
        assert_eq!(mark["data-rank"], entry["rank"].to_string(), "{what}");
        let (mid, low, high) = match entry.get("elo") {
            Some(elo) => (
                elo.as_f64().unwrap(),
                entry["elo_low"].as_f64().unwrap(),
                entry["elo_high"].as_f64().unwrap(),
            ),
            None => {
                let mu = entry["trueskill_mu"].as_f64().unwrap();
                let sigma = entry["trueskill_sigma"].as_f64().unwrap();
                (mu, mu - 1.96 * sigma, mu + 1.96 * sigma)
            }
        };
        close(number(mark, "data-mid"), mid, &what);
        close(number(mark, "data-low"), low, &what);
        close(number(mark, "data-high"), high, &what);
        for (drawn, value) in [
            (number(dot, "cx"), mid),
            (number(line, "x1"), low),
            (number(line, "x2"), high),
        ] {
            assert!(
                (drawn - at(value)).abs() < 0.02,
                "{what}: {value} at {drawn}"
            );
        }
        let y = number(dot, "cy");
        assert!(y > last_y, "{what}: below the one ranked above");
        last_y = y;
    }
    if entries[0].get("elo").is_some() {
        check_figures(dom, chart, name, |cell| {
            format!("{}  ({})", cell["elo"], cell["elo 95%"])
        });
    } else {
        check_figures(dom, chart, name, |cell| {
            format!("μ±σ {}", cell["trueskill μ±σ"])
        });
    }
}

/// The attributes and the text of every `text` element in `html` of which `class` is one of
/// the classes.
fn texts(html: &str, class: &str) -> Vec<(BTreeMap<String, String>, String)> {
    html.match_indices("<text ")
        .map(|(at, _)| {
            let open = at + html[at..].find('>').unwrap();
            let close = open + html[open..].find("</text>").unwrap();
            (
                attributes(&html[at..open]),
                unescape(&html[open + 1..close]),
            )
        })
        .filter(|(attrs, _)| {
            attrs
                .get("class")
                .is_some_and(|classes| classes.split(' ').any(|c| c == class))
        })
        .collect()
}

/// Checks that each cell of the heat map in `chart` sits in the row labelled with its bot
/// and the column named after its opponent: the labels, not only the cells' data, say who
/// played whom. Rows are numbered with the bot's rank on `board` (tied bots share one), as
/// the table does, never with their place in the list.
fn check_heat_map_labels(chart: &str, board: &Value, name: &str) {
    // Row labels read "2. name", centred 4 px below their row's middle.
    let rows: Vec<(f64, String)> = texts(chart, "row-label")
        .into_iter()
        .map(|(attrs, text)| {
            let (rank, bot) = text.split_once(". ").expect("a row label is numbered");
            let entry = board["leaderboard"]
                .as_array()
                .unwrap()
                .iter()
                .find(|entry| entry["name"] == bot)
                .unwrap_or_else(|| panic!("{name}: no {bot} on the leaderboard"));
            assert_eq!(rank, entry["rank"].to_string(), "{name}: the rank of {bot}");
            (number(&attrs, "y") - 4.0, bot.to_owned())
        })
        .collect();
    // Column labels are names turned upright about their column's middle.
    let columns: Vec<(f64, String)> = texts(chart, "column-label")
        .into_iter()
        .map(|(attrs, text)| {
            let (x, y) = (number(&attrs, "x"), number(&attrs, "y"));
            assert_eq!(attrs["transform"], format!("rotate(-90 {x} {y})"), "{name}");
            (x, text)
        })
        .collect();
    assert_eq!(rows.len(), columns.len(), "{name}: as many rows as columns");
    let cells = tags(chart, "rect", "pair");
    assert!(!cells.is_empty(), "{name}: no cells");
    for cell in cells {
        let size = number(&cell, "width") + 2.0;
        let middle = |at: &str| number(&cell, at) + size / 2.0;
        let row = rows.iter().find(|row| (row.0 - middle("y")).abs() < 1e-6);
        let column = columns
            .iter()
            .find(|column| (column.0 - middle("x")).abs() < 1e-6);
        let (Some((_, bot)), Some((_, opponent))) = (row, column) else {
            panic!("{name}: a cell outside the labelled rows and columns: {cell:?}");
        };
        assert_eq!(bot, &cell["data-bot"], "{name}: the row of {cell:?}");
        assert_eq!(
            opponent, &cell["data-opponent"],
            "{name}: the column of {cell:?}"
        );
    }
}

/// Checks that the heat map of `dom` has every pair record of `board` with its results,
/// each where its labels say.
fn check_heat_map(dom: &str, board: &Value, name: &str) {
    let chart = section(dom, "<svg id=\"second-chart\"", "</svg>");
    check_heat_map_labels(chart, board, name);
    let cells: Vec<_> = tags(chart, "rect", "pair")
        .into_iter()
        .map(|cell| {
            [
                "data-bot",
                "data-opponent",
                "data-wins",
                "data-draws",
                "data-losses",
            ]
            .map(|key| cell[key].clone())
        })
        .collect();
    let mut expected: Vec<_> = board["pairwise"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            [
                &p["bot"],
                &p["opponent"],
                &p["wins"],
                &p["draws"],
                &p["losses"],
            ]
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        })
        .collect();
    let mut drawn = cells.clone();
    drawn.sort();
    expected.sort();
    assert!(!expected.is_empty(), "{name}: pair records");
    assert_eq!(drawn, expected, "{name}: the heat map's cells");
}

/// Checks that the score chart of `dom` shows each bot's range and mean score.
fn check_score_ranges(dom: &str, board: &Value, name: &str) {
    let chart = section(dom, "<svg id=\"second-chart\"", "</svg>");
    let marks = tags(chart, "g", "bot");
    let entries = board["leaderboard"].as_array().unwrap();
    assert_eq!(marks.len(), entries.len(), "{name}: one range per bot");
    for (mark, entry) in marks.iter().zip(entries) {
        let what = format!("{name}: {}", entry["name"]);
        assert_eq!(mark["data-name"], shown_name(entry), "{what}");
        close(
            number(mark, "data-mid"),
            entry["score"].as_f64().unwrap(),
            &what,
        );
        close(
            number(mark, "data-min"),
            entry["min"].as_f64().unwrap(),
            &what,
        );
        close(
            number(mark, "data-max"),
            entry["max"].as_f64().unwrap(),
            &what,
        );
        close(
            number(mark, "data-low"),
            entry["score_low"].as_f64().unwrap(),
            &what,
        );
    }
    check_figures(dom, chart, name, |cell| {
        format!("{}  ({} to {})", cell["score"], cell["min"], cell["max"])
    });
}

/// Writes the report of the results folder `out` next to it, opens it and compares what it
/// draws with `leaderboard.json` and the Markdown leaderboard; checks the replay links
/// lead to viewer pages and that a screenshot shows something.
fn check_page(dir: &Path, out: &Path, name: &str) {
    let page = dir.join("report.html");
    let (status, _) = report(dir, out, &["--html", page.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{name}: arena report");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("src="),
        "{name}: nothing to fetch"
    );
    let board: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap())
            .unwrap();
    let dom = dom(&page);

    let rows = table_rows(&dom, "leaderboard");
    let (status, markdown) = report(dir, out, &["--format", "markdown"]);
    assert_eq!(status, Some(0));
    assert_eq!(
        rows,
        markdown_rows(&markdown),
        "{name}: the table is the leaderboard's"
    );
    let entries = board["leaderboard"].as_array().unwrap();
    assert_eq!(rows.len(), entries.len(), "{name}");
    for (row, entry) in rows.iter().zip(entries) {
        assert_eq!(row[0], entry["rank"].to_string(), "{name}: rank");
        assert_eq!(row[1], shown_name(entry), "{name}: name");
        let score: f64 = row[2].parse().unwrap();
        assert!(
            (score - entry["score"].as_f64().unwrap()).abs() < 5e-4,
            "{name}: score"
        );
    }
    // In the table's words: "1 of 1 game played".
    let total = board["total_games"].as_u64().unwrap();
    let games = if total == 1 { "game" } else { "games" };
    let played = format!("{} of {total} {games} played.", board["games_played"]);
    assert!(dom.contains(&played), "{name}: {played}");
    assert!(
        dom.contains(&format!("<dd>{}</dd>", board["seed"])),
        "{name}: the seed"
    );

    check_rating_chart(&dom, &board, name);
    if board.get("pairwise").is_some() {
        check_heat_map(&dom, &board, name);
    } else {
        check_score_ranges(&dom, &board, name);
    }
    let failures = table_rows(&dom, "failures");
    for (row, entry) in failures.iter().zip(entries) {
        let counts = ["requests", "timeouts", "crashes", "invalid_replies"]
            .map(|key| entry[key].to_string());
        assert_eq!(row[1..5], counts, "{name}: failures of {}", entry["name"]);
    }

    let replays = std::fs::read_dir(out.join("replays")).unwrap().count();
    let links = tags(&dom, "a", "replay");
    assert_eq!(links.len(), replays, "{name}: a link per replay");
    for link in &links {
        let target = dir.join(&link["href"]);
        let viewer = std::fs::read_to_string(&target).unwrap();
        assert!(viewer.contains("id=\"replay-data\""), "{name}: {target:?}");
    }

    let profile = tempfile::tempdir().unwrap();
    let shot = dir.join(format!("{name}.png"));
    let url = format!("file://{}", page.display());
    chromium(
        profile.path(),
        &[format!("--screenshot={}", shot.display())],
        &url,
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "{name}");
}

#[test]
fn the_petri_page_draws_its_leaderboard_and_heat_map() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "petri", &[]);
    check_page(dir.path(), &out, "petri");
}

/// An Elo exactly halfway between two integers (254.5 with this seed) shows as one integer on
/// the whole page: the chart once rounded it half away from zero (255), the table to even.
#[test]
fn an_elo_at_a_half_shows_as_the_tables_integer_in_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "petri", &["--seed", "3", "--games", "4"]);
    let board: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap())
            .unwrap();
    let halves = board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|entry| ["elo", "elo_low", "elo_high"].map(|key| entry[key].as_f64().unwrap()))
        .filter(|elo| elo.fract().abs() == 0.5)
        .count();
    assert!(halves > 0, "no Elo figure at .5 to test: {board}");
    check_page(dir.path(), &out, "petri-halves");
}

#[test]
fn the_slime_page_draws_its_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "slime", &[]);
    check_page(dir.path(), &out, "slime");
}

#[test]
fn the_egg_hunt_page_draws_its_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "eggs", &["--games", "1"]);
    check_page(dir.path(), &out, "eggs");
}

#[test]
fn the_alienwar_page_draws_its_leaderboard_with_the_built_in_prey() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "alienwar", &[]);
    check_page(dir.path(), &out, "alienwar");
}

#[test]
fn the_cave_page_draws_its_leaderboard_with_the_games_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "cave", &[]);
    check_page(dir.path(), &out, "cave");
}

/// A folder whose run is still going (no `leaderboard.json`, part of the games) gets the
/// standings of its journal so far; a line that is no game is left out, said on the page,
/// and gives exit status 2, as `arena standings` does.
#[test]
fn a_running_folder_gets_the_page_of_its_games_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "petri", &[]);
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&journal, kept.join("\n") + "\n{\"type\":\"game\",\"da\n").unwrap();
    std::fs::remove_file(out.join("leaderboard.json")).unwrap();
    let page = dir.path().join("running.html");
    let (status, _) = report(dir.path(), &out, &["--html", page.to_str().unwrap()]);
    assert_eq!(status, Some(2), "a line left out");
    let dom = dom(&page);
    assert!(dom.contains("2 of 6 games played: not finished"), "{dom}");
    assert!(
        dom.contains("1 journal lines are not games of this tournament"),
        "{dom}"
    );
    let standings = arena(
        dir.path(),
        &[
            "standings",
            journal.to_str().unwrap(),
            "--format",
            "markdown",
        ],
    );
    let expected = markdown_rows(&String::from_utf8(standings.stdout).unwrap());
    assert_eq!(table_rows(&dom, "leaderboard"), expected);
}

/// A finished shard's page says it is finished: its games are counted against the shard's,
/// not the whole tournament's.
#[test]
fn a_finished_shards_page_counts_the_shards_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "petri", &["--shard", "1/4"]);
    let page = dir.path().join("shard.html");
    let (status, _) = report(dir.path(), &out, &["--html", page.to_str().unwrap()]);
    assert_eq!(status, Some(0));
    let dom = dom(&page);
    assert!(
        dom.contains("<p id=\"progress\">2 of 2 games of shard 1/4 played.</p>"),
        "{dom}"
    );
    assert!(
        dom.contains("<dd>2 of 2 games of shard 1/4 played</dd>") && dom.contains("<dd>1/4</dd>"),
        "{dom}"
    );
}

/// Bot names that are markup show as text everywhere on the page: no element of theirs
/// appears, and none can end the data block.
#[test]
fn bot_names_are_text_not_markup() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["<img src=x onerror=alert(1)>", "</script><b>&amp;"];
    let file = write_toml(
        dir.path(),
        "hostile.toml",
        &format!(
            "game = \"petri\"\ngames = 1\n\
             [[bots]]\nname = \"{}\"\ncommand = \"/bin/true\"\n\
             [[bots]]\nname = \"{}\"\ncommand = \"/bin/true\"\n",
            names[0], names[1]
        ),
    );
    run_ok(dir.path(), &file, &["--replays", "--out", "out"]);
    let page = dir.path().join("hostile.html");
    let (status, _) = report(
        dir.path(),
        &dir.path().join("out"),
        &["--html", page.to_str().unwrap()],
    );
    assert_eq!(status, Some(0));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "data and script blocks"
    );
    let dom = dom(&page);
    assert!(!dom.contains("<img") && !dom.contains("<b>"), "{dom}");
    let shown: Vec<String> = table_rows(&dom, "leaderboard")
        .into_iter()
        .map(|row| row[1].clone())
        .collect();
    let mut expected = names.map(str::to_owned).to_vec();
    expected.sort();
    assert_eq!(shown, expected);
    let chart = section(&dom, "<svg id=\"rating-chart\"", "</svg>");
    let drawn: Vec<String> = tags(chart, "g", "bot")
        .into_iter()
        .map(|mark| mark["data-name"].clone())
        .collect();
    assert_eq!(drawn, expected);
}

/// `arena report` of a folder without a journal fails as `arena standings` of a missing
/// journal does (status 2: the command line points at nothing) and writes nothing; so does
/// a report of the journal file instead of its folder, with the command that was meant.
#[test]
fn a_folder_without_a_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (status, _) = report(dir.path(), dir.path(), &["--html", "x.html"]);
    assert_eq!(status, Some(2));
    assert!(!dir.path().join("x.html").exists());
    let missing = arena(dir.path(), &["standings", "nowhere/journal.jsonl"]);
    assert_eq!(missing.status.code(), Some(2));

    let journal = dir.path().join("journal.jsonl");
    std::fs::write(&journal, "").unwrap();
    // Nor is a page written over the results it reads.
    for results in [
        "journal.jsonl",
        "./sub/../journal.jsonl",
        "leaderboard.json",
    ] {
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("leaderboard.json"), "{}").unwrap();
        let output = arena(dir.path(), &["report", ".", "--html", results]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{results}: {stderr}");
        assert!(stderr.contains("which the page would replace"), "{stderr}");
    }
    assert_eq!(std::fs::read(&journal).unwrap(), b"");
    let output = arena(dir.path(), &["report", "journal.jsonl"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("journal.jsonl is a file: `arena report` takes the results folder"),
        "{stderr}"
    );
}

/// A replay is shown under the game its header names, never another: one whose header is
/// of another game than its name says is left out, and so is a link in the replays folder
/// (it could lead to another run's replay, or to `/dev/zero`), each with a warning naming
/// the file; the other replays still get their pages.
#[test]
fn replays_named_for_another_game_or_linked_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = results(dir.path(), "petri", &[]);
    let replays = out.join("replays");
    std::fs::copy(replays.join("game-1.jsonl"), replays.join("game-0.jsonl")).unwrap();
    let elsewhere = dir.path().join("game-5.jsonl");
    std::fs::rename(replays.join("game-5.jsonl"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, replays.join("game-5.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", replays.join("game-99.jsonl")).unwrap();

    let page = dir.path().join("page.html");
    let output = arena(
        dir.path(),
        &[
            "report",
            out.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let pages: Vec<String> = std::fs::read_dir(dir.path().join("page-replays"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        pages,
        ["game-1.html", "game-2.html", "game-3.html", "game-4.html"]
    );
    for expected in [
        "game-0.jsonl: its header is of game 1, not game 0 as its name says",
        "game-5.jsonl: not a plain file (a link or a device) where a replay should be",
        "game-99.jsonl: not a plain file",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
}

/// `--html` into a folder that is not there is refused with one error, with or without
/// replays, and the folder is not made; so is a page whose replays' folder is taken by a file
/// or that cannot itself be written, and then nothing of it is left. An earlier report's
/// replays folder is written into, and its pages of games this run has not are removed.
#[test]
fn a_page_is_written_whole_or_not_at_all_and_never_makes_the_users_folders() {
    let dir = tempfile::tempdir().unwrap();
    let with_replays = results(dir.path(), "petri", &[]);
    let file = repo().join("tests/data/petri-small.toml");
    run_ok(dir.path(), &file, &["--out", "plain"]);
    std::fs::write(dir.path().join("a-file"), "").unwrap();
    // The error of each page, by the folder it is in.
    let refused = |out: &Path, page: &str| {
        let output = arena(
            dir.path(),
            &["report", out.to_str().unwrap(), "--html", page],
        );
        assert_eq!(output.status.code(), Some(1), "{page}");
        String::from_utf8(output.stderr).unwrap()
    };
    for (page, why) in [
        ("missing/x.html", "No such file or directory"),
        ("a-file/x.html", "Not a directory"),
    ] {
        let expected = format!("error: cannot write {page}: {why} (os error");
        for out in [&with_replays, &dir.path().join("plain")] {
            let stderr = refused(out, page);
            assert!(stderr.starts_with(&expected), "{out:?}: {stderr}");
        }
    }
    assert!(!dir.path().join("missing").exists());

    let taken = dir.path().join("taken-replays");
    std::fs::write(&taken, "mine").unwrap();
    let stderr = refused(&with_replays, "taken.html");
    assert!(
        stderr.contains(
            "cannot write the replays' viewer pages into taken-replays: it is not a folder"
        ),
        "{stderr}"
    );
    assert!(!dir.path().join("taken.html").exists());
    assert_eq!(std::fs::read(&taken).unwrap(), b"mine");

    // The page itself cannot be written (a folder has its name): its replays' pages go too.
    std::fs::create_dir(dir.path().join("folder.html")).unwrap();
    let stderr = refused(&with_replays, "folder.html");
    assert!(
        stderr.contains("cannot write folder.html: Is a directory"),
        "{stderr}"
    );
    assert!(!dir.path().join("folder-replays").exists());

    let earlier = dir.path().join("again-replays");
    std::fs::create_dir(&earlier).unwrap();
    std::fs::write(earlier.join("notes.txt"), "mine").unwrap();
    std::fs::write(earlier.join("game-77.html"), "another run's game").unwrap();
    let output = arena(
        dir.path(),
        &[
            "report",
            with_replays.to_str().unwrap(),
            "--html",
            "again.html",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(dir.path().join("again.html").is_file());
    assert!(earlier.join("game-0.html").is_file());
    assert!(!earlier.join("game-77.html").exists(), "{stderr}");
    assert!(
        stderr.contains("removed 1 viewer page of an earlier report from again-replays"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(earlier.join("notes.txt")).unwrap(), b"mine");
    // A run without replays, reported into the same place, leaves no page of the other's.
    let (status, _) = report(
        dir.path(),
        &dir.path().join("plain"),
        &["--html", "again.html"],
    );
    assert_eq!(status, Some(0));
    assert!(!earlier.join("game-0.html").exists());
    assert_eq!(std::fs::read(earlier.join("notes.txt")).unwrap(), b"mine");
}
