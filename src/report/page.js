"use strict";
// The arena results page. Draws the leaderboard, the ratings, the head-to-head heat map or
// the score ranges, the failures, the settings and the replay links from the embedded JSON.
// No network, no libraries; names go in as text (textContent), never as markup. Every
// drawn mark carries the figure it shows in data attributes, so a test can read it back.
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const board = data.board;
  const bots = board.leaderboard;
  const $ = (id) => document.getElementById(id);
  // The inline <svg> elements are in the SVG namespace; new marks must be too.
  const SVG_NS = $("rating-chart").namespaceURI;

  /** A new element `tag` with `attrs` and, if given, `text` as its only content. */
  function make(ns, tag, attrs, text) {
    const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  const html = (tag, attrs, text) => make(null, tag, attrs, text);
  /** Appends an SVG element to `parent` and returns it. */
  const svg = (parent, tag, attrs, text) => parent.appendChild(make(SVG_NS, tag, attrs, text));
  const label = (s) => (s.built_in ? s.name + " (built-in)" : s.name);
  /** Long names are cut in charts (the table and the tooltip have them whole). */
  const short = (text, n) => (text.length > n ? text.slice(0, n - 1) + "…" : text);
  const rowOf = new Map(bots.map((s, r) => [s, data.rows[r]]));
  /**
   * Bot `s`'s cell of the leaderboard table in `column`. The charts show these texts rather
   * than round the figures again: one rounding (the Rust side's), so a chart and the table
   * never show two numbers for one figure.
   */
  const cell = (s, column) => rowOf.get(s)[data.columns.indexOf(column)];

  function drawHeader() {
    $("title").textContent = board.game + ", seed " + board.seed;
    $("progress").textContent = data.progress +
      (data.finished ? "." : ": not finished, the figures are those of the games so far.");
    if (data.left_out > 0) {
      $("left-out").hidden = false;
      $("left-out").textContent = data.left_out +
        " journal lines are not games of this tournament and are left out.";
    }
  }

  /** The leaderboard with the columns and cells of `arena standings`. */
  function drawLeaderboard() {
    const table = $("leaderboard");
    const head = html("tr");
    data.columns.forEach((name, c) => head.appendChild(html("th", c === 1 ? { class: "name" } : {}, name)));
    table.tHead.appendChild(head);
    data.rows.forEach((row, r) => {
      const tr = html("tr", { "data-rank": bots[r].rank, "data-name": bots[r].name });
      for (let c = 0; c < data.columns.length; c++) {
        tr.appendChild(html("td", c === 1 ? { class: "name" } : {}, row[c] === undefined ? "" : row[c]));
      }
      table.tBodies[0].appendChild(tr);
    });
  }

  /** About `count` round tick values from `lo` to `hi`. */
  function ticks(lo, hi, count) {
    const raw = (hi - lo) / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
    return out;
  }

  /**
   * One row per item on a shared horizontal axis: a thin line over `range` (if any), a thick
   * one over `interval` (if any) and a dot at `mid`, with the item's `figures` on the right.
   * The axis ticks are round values, shown with at most two decimals.
   */
  function intervalChart(chart, items) {
    const ROW = 26, LEFT = 210, RIGHT = 190, TOP = 8, WIDTH = 920;
    const values = items.flatMap((i) => [i.mid].concat(i.range || [], i.interval || []));
    let lo = Math.min(...values), hi = Math.max(...values);
    if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.04;
    lo -= pad; hi += pad;
    const x = (v) => Math.round((LEFT + (v - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT)) * 100) / 100;
    const bottom = TOP + items.length * ROW;
    chart.setAttribute("viewBox", "0 0 " + WIDTH + " " + (bottom + 24));
    chart.setAttribute("width", WIDTH);
    for (const t of ticks(lo, hi, 6)) {
      svg(chart, "line", { class: "axis", x1: x(t), x2: x(t), y1: TOP, y2: bottom });
      svg(chart, "text", { class: "tick", x: x(t), y: bottom + 16, "text-anchor": "middle" }, String(Math.round(t * 100) / 100));
    }
    items.forEach((item, n) => {
      const y = TOP + n * ROW + ROW / 2;
      const attrs = { class: "bot", "data-rank": item.rank, "data-name": item.name, "data-mid": item.mid };
      if (item.interval) [attrs["data-low"], attrs["data-high"]] = item.interval;
      if (item.range) [attrs["data-min"], attrs["data-max"]] = item.range;
      const g = svg(chart, "g", attrs);
      svg(g, "title", {}, item.name);
      svg(g, "text", { x: LEFT - 10, y: y + 4, "text-anchor": "end" }, item.rank + ". " + short(item.name, 28));
      if (item.range) svg(g, "line", { class: "range", x1: x(item.range[0]), x2: x(item.range[1]), y1: y, y2: y });
      if (item.interval) svg(g, "line", { class: "interval", x1: x(item.interval[0]), x2: x(item.interval[1]), y1: y, y2: y });
      svg(g, "circle", { class: "point", cx: x(item.mid), cy: y, r: 4.5 });
      svg(g, "text", { class: "figures", x: WIDTH - RIGHT + 12, y: y + 4 }, item.figures);
    });
  }

  /** The ratings chart: Elo for head-to-head games, TrueSkill for the others. */
  function drawRatings() {
    const elo = bots.filter((s) => s.elo !== undefined);
    const skill = bots.filter((s) => s.trueskill_mu !== undefined);
    const chart = $("rating-chart");
    if (elo.length > 0) {
      $("rating-title").textContent = "Elo rating with its 95% interval";
      $("rating-note").textContent = "Maximum-likelihood Elo (mean 0) ± 1.96 standard errors. " +
        "Where intervals overlap the order is not settled.";
      intervalChart(chart, elo.map((s) => ({
        rank: s.rank, name: label(s), mid: s.elo, interval: [s.elo_low, s.elo_high],
        figures: cell(s, "elo") + "  (" + cell(s, "elo 95%") + ")",
      })));
    } else if (skill.length > 0) {
      $("rating-title").textContent = "TrueSkill rating with its 95% interval";
      $("rating-note").textContent = "μ ± 1.96σ, each game's seats ranked by their score in it. " +
        "Where intervals overlap the order is not settled.";
      intervalChart(chart, skill.map((s) => ({
        rank: s.rank, name: label(s), mid: s.trueskill_mu,
        interval: [s.trueskill_mu - 1.96 * s.trueskill_sigma, s.trueskill_mu + 1.96 * s.trueskill_sigma],
        figures: "μ±σ " + cell(s, "trueskill μ±σ"),
      })));
    } else {
      $("rating-title").textContent = "Ratings";
      $("rating-note").textContent = "No ratings yet: no games have been played.";
      chart.remove();
    }
  }

  /** A colour from red (0) through white (½) to blue (1) for a share of the points. */
  function shareColour(share) {
    const [from, to, t] = share < 0.5 ? [[215, 48, 31], [247, 247, 247], share * 2] : [[247, 247, 247], [44, 127, 184], share * 2 - 1];
    return "rgb(" + from.map((f, i) => Math.round(f + (to[i] - f) * t)).join(",") + ")";
  }

  /**
   * The head-to-head matrix: row's results against column, coloured by row's share. Rows are
   * labelled with the leaderboard's rank and name, as the rating chart's; columns with the
   * name only, upright: tied bots share a rank, so a number could not say which column is
   * whose.
   */
  function heatMap(chart) {
    const n = bots.length;
    const CELL = Math.max(18, Math.min(56, Math.floor(560 / n)));
    const LEFT = 210;
    const columns = bots.map((s) => svg(chart, "text", { class: "column-label", "dominant-baseline": "central" }, short(label(s), 20)));
    const TOP = 12 + Math.max(...columns.map((text) => text.getComputedTextLength()));
    columns.forEach((text, c) => {
      const x = LEFT + c * CELL + CELL / 2, y = TOP - 8;
      text.setAttribute("x", x);
      text.setAttribute("y", y);
      text.setAttribute("transform", "rotate(-90 " + x + " " + y + ")");
    });
    const pairs = new Map(board.pairwise.map((p) => [JSON.stringify([p.bot, p.opponent]), p]));
    chart.setAttribute("viewBox", "0 0 " + (LEFT + n * CELL + 4) + " " + (TOP + n * CELL + 4));
    chart.setAttribute("width", LEFT + n * CELL + 4);
    bots.forEach((row, r) => {
      const y = TOP + r * CELL;
      svg(chart, "text", { class: "row-label", x: LEFT - 10, y: y + CELL / 2 + 4, "text-anchor": "end" }, row.rank + ". " + short(label(row), 28));
      bots.forEach((col, c) => {
        const cell = { x: LEFT + c * CELL, y, width: CELL - 2, height: CELL - 2 };
        const p = pairs.get(JSON.stringify([row.name, col.name]));
        if (r === c || !p) {
          svg(chart, "rect", Object.assign(cell, { fill: r === c ? "#d9d9d9" : "#eeeeee" }));
          return;
        }
        const games = p.wins + p.draws + p.losses;
        const share = games > 0 ? (p.wins + p.draws / 2) / games : 0.5;
        const rect = svg(chart, "rect", Object.assign(cell, {
          class: "pair", fill: shareColour(share), "data-bot": p.bot, "data-opponent": p.opponent,
          "data-wins": p.wins, "data-draws": p.draws, "data-losses": p.losses,
        }));
        const superiority = p.superiority === undefined ? "" : ", likelihood of superiority " + p.superiority.toFixed(3);
        svg(rect, "title", {}, p.bot + " against " + p.opponent + ": " + p.wins + "-" + p.draws + "-" + p.losses + superiority);
        if (CELL >= 40) {
          const strong = Math.abs(share - 0.5) > 0.3 ? " strong" : "";
          svg(chart, "text", { class: "cell-text" + strong, x: cell.x + CELL / 2 - 1, y: y + CELL / 2 - 1 }, p.wins + "-" + p.draws + "-" + p.losses);
        }
      });
    });
  }

  /** The second chart: the heat map for head-to-head games, score ranges for the others. */
  function drawSecond() {
    const chart = $("second-chart");
    if (board.pairwise && board.pairwise.length > 0) {
      $("second-title").textContent = "Head to head";
      $("second-note").textContent = "Row's wins-draws-losses against column; colour: row's share of " +
        "the points (a draw counts half), red 0, white ½, blue 1.";
      heatMap(chart);
      return;
    }
    const scored = bots.filter((s) => s.min !== undefined);
    if (scored.length === 0 || bots.some((s) => s.wins !== undefined)) {
      $("second-title").textContent = bots.some((s) => s.wins !== undefined) ? "Head to head" : "Score per game";
      $("second-note").textContent = "Nothing to draw yet: no games have been played.";
      chart.remove();
      return;
    }
    $("second-title").textContent = "Score per game";
    $("second-note").textContent = "Grey band: lowest to highest score in one game; blue: 95% bootstrap " +
      "interval of the mean; dot: the mean score, which ranks the bots.";
    intervalChart(chart, scored.map((s) => ({
      rank: s.rank, name: label(s), mid: s.score, range: [s.min, s.max],
      interval: s.score_low === undefined ? null : [s.score_low, s.score_high],
      figures: cell(s, "score") + "  (" + cell(s, "min") + " to " + cell(s, "max") + ")",
    })));
  }

  /** Each bot's requests and failures; a bot that failed at all stands out. */
  function drawFailures() {
    const table = $("failures");
    const head = html("tr");
    ["bot", "requests", "timeouts", "crashes", "invalid replies", "failed"].forEach((name, c) =>
      head.appendChild(html("th", c === 0 ? { class: "name" } : {}, name)));
    table.tHead.appendChild(head);
    for (const s of bots) {
      const failed = s.timeouts + s.crashes + s.invalid_replies;
      const tr = html("tr", { "data-name": s.name, class: failed > 0 ? "failing" : "" });
      // AlienWar judges each instance's answer, so its failures can outnumber its requests.
      const share = s.requests === 0 ? "–"
        : failed > s.requests ? (failed / s.requests).toFixed(2) + " per request"
        : (100 * failed / s.requests).toFixed(2) + "%";
      [label(s), s.requests, s.timeouts, s.crashes, s.invalid_replies, share].forEach((cell, c) =>
        tr.appendChild(html("td", c === 0 ? { class: "name" } : {}, String(cell))));
      table.tBodies[0].appendChild(tr);
    }
  }

  function drawSettings() {
    const rows = [
      ["game", board.game],
      ["seed", board.seed],
      ["games per pairing (or runs)", data.games_per_pairing],
      ["games", data.progress],
      ["sandbox", board.sandbox === undefined ? "not recorded" : board.sandbox],
      ["shard", data.shard === null ? "the whole tournament" : data.shard],
      ["arena version", data.arena_version || "not recorded"],
      ["configuration digest", data.config_digest],
      ["bots", bots.length],
    ];
    for (const [name, value] of rows) {
      $("settings").appendChild(html("dt", {}, name));
      $("settings").appendChild(html("dd", {}, String(value)));
    }
  }

  function drawReplays() {
    if (data.replays.length === 0) {
      $("replays-note").textContent = "No replays were recorded (arena run --replays records them).";
      return;
    }
    $("replays-note").textContent = "Each opens the game's viewer.";
    for (const replay of data.replays) {
      const li = html("li", { "data-game": replay.index });
      li.appendChild(html("a", { class: "replay", href: replay.href }, "game " + replay.index));
      const about = ": " + replay.bots.join(" vs ") + (replay.summary ? ". " + replay.summary : "");
      li.appendChild(document.createTextNode(about));
      $("replays").appendChild(li);
    }
  }

  drawHeader();
  drawLeaderboard();
  drawRatings();
  drawSecond();
  drawFailures();
  drawSettings();
  drawReplays();
})();
