"use strict";
// The arena replay viewer. Draws any game from the generic replay model: a grid of cell
// codes (run-length encoded per frame), a legend mapping codes to seats or colours, the
// scores per seat, events and messages. No network, no libraries.
(function () {
  const replay = JSON.parse(document.getElementById("replay-data").textContent);
  const header = replay.header;
  const frames = replay.frames;
  const $ = (id) => document.getElementById(id);

  // Seat colours: a fixed, well separated palette, then evenly spread hues. Never equal to a
  // legend colour, so the drawn board can be read back exactly.
  const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
    "#f032e6", "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000",
    "#aaffc3", "#808000", "#ffd8b1", "#000075"];
  const fixed = new Set(header.legend.filter((g) => g.colour).map((g) => g.colour.toLowerCase()));
  function hslHex(h, s, l) {
    const f = (n) => {
      const k = (n + h / 30) % 12;
      const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
      return Math.round(255 * c).toString(16).padStart(2, "0");
    };
    return "#" + f(0) + f(8) + f(4);
  }
  // Nor near one: a bot drawn in the green of Cave's food, or the orange of its lion, was
  // hard to tell from it. Near is within 100 of a legend colour in RGB (0 to 255 each).
  const seatColours = [];
  const rgb = (hex) => {
    const full = hex.length === 4 ? "#" + [...hex.slice(1)].map((d) => d + d).join("") : hex;
    return [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16));
  };
  const near = (a, b) => rgb(a).reduce((sum, v, i) => sum + (v - rgb(b)[i]) ** 2, 0) < 100 * 100;
  const nearFixed = (colour) => [...fixed].some((f) => near(f, colour));
  const palette = PALETTE.filter((colour) => !nearFixed(colour));
  for (let seat = 0, extra = 0; seatColours.length < header.bots.length; seat++) {
    let colour = seat < palette.length ? palette[seat]
      : hslHex((extra++ * 137.508) % 360, 0.65, 0.55 + 0.1 * (extra % 3 - 1));
    // Far from the legend's colours if a hue can be (a legend of many colours may leave none).
    for (let tries = 0; nearFixed(colour) && tries < 360; tries++) {
      colour = hslHex((extra++ * 137.508) % 360, 0.7, 0.5);
    }
    while (fixed.has(colour) || seatColours.includes(colour)) {
      colour = hslHex((extra++ * 137.508) % 360, 0.7, 0.5);
    }
    seatColours.push(colour);
  }
  const glyphs = new Map();
  for (const g of header.legend) {
    glyphs.set(g.code, {
      ...g,
      fill: g.seat !== undefined && g.seat !== null ? seatColours[g.seat] || "#888888" : g.colour,
    });
  }

  function decode(encoded) {
    const out = [];
    const re = /(\d*)(\D)/gu;
    let m;
    while ((m = re.exec(encoded)) !== null) {
      const n = m[1] === "" ? 1 : parseInt(m[1], 10);
      for (let i = 0; i < n; i++) out.push(m[2]);
    }
    return out;
  }
  const decoded = new Map();
  function cellsOf(index) {
    const frame = frames[index];
    if (!frame || frame.cells === undefined) return null;
    if (!decoded.has(index)) decoded.set(index, decode(frame.cells));
    return decoded.get(index);
  }

  // Board geometry: whole pixels per cell so every cell is a flat rectangle.
  const board = $("board");
  const ctx = board.getContext("2d");
  const cols = Math.max(header.width, 1);
  const rows = Math.max(header.height, 1);
  const cell = Math.max(4, Math.min(40, Math.floor(560 / Math.max(cols, rows))));
  const gap = cell >= 8 ? 1 : 0;
  board.width = cols * cell;
  board.height = rows * cell;

  function textColour(hex) {
    const v = parseInt(hex.slice(1), 16);
    const lum = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
    return lum > 140 ? "#000000" : "#ffffff";
  }

  function drawBoard(index) {
    ctx.fillStyle = "#0d0e11";
    ctx.fillRect(0, 0, board.width, board.height);
    const cells = cellsOf(index);
    if (!cells) {
      ctx.fillStyle = "#aab";
      ctx.font = "16px sans-serif";
      ctx.fillText("no board yet", 10, 24);
      return;
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = `bold ${Math.floor(cell * 0.55)}px sans-serif`;
    for (let i = 0; i < cells.length; i++) {
      const g = glyphs.get(cells[i]);
      const x = (i % cols) * cell;
      const y = Math.floor(i / cols) * cell;
      ctx.fillStyle = g ? g.fill : "#ff00ff";
      ctx.fillRect(x, y, cell - gap, cell - gap);
      if (g && g.seat !== undefined && cell >= 16) {
        ctx.fillStyle = textColour(g.fill);
        ctx.fillText(g.glyph, x + (cell - gap) / 2, y + (cell - gap) / 2 + 1);
      }
    }
  }

  // Reads the drawn board back: the code whose colour is at each cell's top-left corner
  // (glyph text never reaches it). Only with `probe` in the address, for the browser test.
  function probe(index) {
    const el = $("probe");
    el.dataset.frame = String(index);
    if (!cellsOf(index)) {
      el.textContent = "";
      return;
    }
    const byColour = new Map();
    for (const g of glyphs.values()) byColour.set(g.fill.toLowerCase(), g.code);
    const data = ctx.getImageData(0, 0, board.width, board.height).data;
    let out = "";
    for (let i = 0; i < cols * rows; i++) {
      const x = (i % cols) * cell + 1;
      const y = Math.floor(i / cols) * cell + 1;
      const p = (y * board.width + x) * 4;
      const hex = "#" + [data[p], data[p + 1], data[p + 2]]
        .map((v) => v.toString(16).padStart(2, "0")).join("");
      out += byColour.get(hex) || "?";
    }
    el.textContent = out;
  }

  // Scores over time: drawn once, then copied under the moving turn marker.
  const chart = $("chart");
  const cctx = chart.getContext("2d");
  const chartImage = document.createElement("canvas");
  chartImage.width = chart.width;
  chartImage.height = chart.height;
  (function drawChart() {
    const g = chartImage.getContext("2d");
    let max = 1;
    for (const f of frames) for (const s of f.scores || []) max = Math.max(max, s);
    const w = chart.width - 40, h = chart.height - 20;
    const xOf = (i) => 30 + (frames.length > 1 ? (i * w) / (frames.length - 1) : 0);
    const yOf = (v) => 10 + h - (v * h) / max;
    g.strokeStyle = "#333a48";
    g.strokeRect(30, 10, w, h);
    g.fillStyle = "#aab";
    g.font = "11px sans-serif";
    g.fillText(String(max), 2, 16);
    g.fillText("0", 2, 10 + h);
    for (let seat = 0; seat < header.bots.length; seat++) {
      g.strokeStyle = seatColours[seat];
      g.lineWidth = 1.5;
      g.beginPath();
      // At most ~2 points per pixel column, so long games stay quick to draw.
      const stride = Math.max(1, Math.floor(frames.length / (2 * w)));
      let started = false;
      for (let i = 0; i < frames.length; i += stride) {
        const s = (frames[i].scores || [])[seat];
        if (s === undefined) continue;
        if (started) g.lineTo(xOf(i), yOf(s)); else g.moveTo(xOf(i), yOf(s));
        started = true;
      }
      g.stroke();
    }
    chartImage.xOf = xOf;
  })();
  function drawChartMarker(index) {
    cctx.clearRect(0, 0, chart.width, chart.height);
    cctx.drawImage(chartImage, 0, 0);
    const x = chartImage.xOf(index);
    cctx.strokeStyle = "#ffffff";
    cctx.beginPath();
    cctx.moveTo(x, 10);
    cctx.lineTo(x, chart.height - 10);
    cctx.stroke();
  }

  function swatch(colour) {
    const s = document.createElement("span");
    s.className = "swatch";
    s.style.background = colour;
    return s;
  }

  // Static panels.
  const seatRows = header.bots.map((bot, seat) => {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.append(swatch(seatColours[seat]), `seat ${seat} ${bot}`);
    const score = document.createElement("td");
    tr.append(name, score);
    $("seats").append(tr);
    return score;
  });
  for (const g of header.legend) {
    const li = document.createElement("li");
    const bot = g.seat != null && header.bots[g.seat] !== undefined ? ` (${header.bots[g.seat]})` : "";
    li.append(swatch(glyphs.get(g.code).fill), `${g.glyph === " " ? "␣" : g.glyph} ${g.name}${bot}`);
    $("legend").append(li);
  }
  if (replay.end) $("summary").textContent = replay.end.summary;

  let current = 0;
  let timer = null;
  const probing = /(^|[#&])probe(&|$)/.test(location.hash);
  const slider = $("slider");
  slider.max = String(Math.max(frames.length - 1, 0));

  // A list shows at most this many items of a frame, then how many more there are: far more
  // than the events or failed and invalid replies of a turn of any usual game, while a replay
  // from elsewhere may have millions, which would make every step take seconds.
  const LIST_LIMIT = 10000;
  function listItem(text, className) {
    const li = document.createElement("li");
    li.textContent = text;
    if (className) li.className = className;
    return li;
  }
  // Fills `list` with the texts `textOf(0)` to `textOf(count - 1)`, each of class
  // `classOf(i)` if given, up to LIST_LIMIT of them, in one fragment: spreading millions of
  // items as arguments overflows the stack.
  function fillList(list, count, textOf, classOf = () => "") {
    const items = document.createDocumentFragment();
    const shown = Math.min(count, LIST_LIMIT);
    for (let i = 0; i < shown; i++) items.append(listItem(textOf(i), classOf(i)));
    if (count > shown) items.append(listItem(`… ${count - shown} more`, "more"));
    list.replaceChildren(items);
  }

  function show(index) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[current];
    if (!frame) return;
    drawBoard(current);
    drawChartMarker(current);
    slider.value = String(current);
    $("turn-label").textContent = `turn ${frame.turn} (frame ${current + 1} of ${frames.length})`;
    const scores = frame.scores || [];
    seatRows.forEach((td, seat) => { td.textContent = scores[seat] ?? ""; });
    const events = frame.events || [];
    fillList($("events"), events.length, (i) => events[i]);
    showProblems(frame);
    if ($("messages-box").open) showMessages(frame);
    const state = $("state");
    state.dataset.frame = String(current);
    state.dataset.turn = String(frame.turn);
    state.dataset.scores = scores.join(",");
    if (probing) probe(current);
  }
  const replied = (m) => m.reply !== null && m.reply !== undefined;
  // What went wrong in this frame, always in view: what a bot's author opens a replay for.
  // Each reply the rules rejected, and each request its bot failed (no reply in time, a
  // crash, a process that could not start or had ended) or whose process ended after its
  // reply, in the order the requests were made.
  function showProblems(frame) {
    const problems = [];
    for (const m of frame.messages || []) {
      if (m.invalid) problems.push({ m, kind: "invalid" });
      if (m.failure || !replied(m)) problems.push({ m, kind: "failed" });
    }
    const list = $("problems");
    if (problems.length === 0) {
      list.replaceChildren(listItem("none this turn", "none"));
      return;
    }
    fillList(list, problems.length, (i) => problemText(problems[i]), (i) => problems[i].kind);
  }
  // A problem's line: the seat and its bot, then what the rules said of the reply, or why the
  // bot failed (only `no reply` in a replay of an older version, which kept no reason).
  function problemText({ m, kind }) {
    const seat = `seat ${m.seat} (${header.bots[m.seat]})`;
    if (kind === "invalid") return `${seat} sent ${JSON.stringify(m.reply)}: ${m.invalid}`;
    return `${seat}: ${m.failure || "no reply"}`;
  }
  function showMessages(frame) {
    const box = $("messages");
    box.replaceChildren();
    for (const m of frame.messages || []) {
      const label = document.createElement("div");
      label.textContent = `seat ${m.seat} (${header.bots[m.seat]})`;
      const req = document.createElement("pre");
      req.textContent = m.request;
      const rep = document.createElement("pre");
      // Without a reply, why: `failure` (missing in replays written before it was kept).
      rep.textContent = replied(m) ? m.reply : `(${m.failure || "no reply"})`;
      box.append(label, req, rep);
      if (m.invalid) {
        rep.classList.add("invalid");
        box.append(reason(`invalid: ${m.invalid}`));
      }
      if (m.failure) rep.classList.add("failed");
      if (replied(m) && m.failure) box.append(reason(m.failure));
    }
  }
  // A line under a reply: why the rules rejected it, or why its process ended after it.
  function reason(text) {
    const div = document.createElement("div");
    div.className = "reason";
    div.textContent = text;
    return div;
  }
  $("messages-box").addEventListener("toggle", () => showMessages(frames[current] || {}));

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = "play";
  }
  function play() {
    if (current >= frames.length - 1) show(0);
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (current >= frames.length - 1) pause(); else show(current + 1);
    }, 1000 / Number($("speed").value));
  }
  $("play").addEventListener("click", () => (timer === null ? play() : pause()));
  $("speed").addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
  $("step").addEventListener("click", () => { pause(); show(current + 1); });
  $("back").addEventListener("click", () => { pause(); show(current - 1); });
  $("first").addEventListener("click", () => { pause(); show(0); });
  $("last").addEventListener("click", () => { pause(); show(frames.length - 1); });
  slider.addEventListener("input", () => { pause(); show(Number(slider.value)); });
  document.addEventListener("keydown", (e) => {
    const keys = { ArrowRight: "step", ArrowLeft: "back", Home: "first", End: "last", " ": "play" };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  });

  // `#turn=N` opens the frame of turn N; `messages` unfolds its requests and replies;
  // `step=K` then presses the step button K times; `play` starts playing.
  const params = new URLSearchParams(location.hash.slice(1));
  let start = 0;
  if (params.has("turn")) {
    const turn = Number(params.get("turn"));
    const found = frames.findIndex((f) => f.turn >= turn);
    start = found < 0 ? frames.length - 1 : found;
  }
  // Unfolded before the first frame shows, so that frame's messages are drawn with it.
  if (params.has("messages")) $("messages-box").open = true;
  show(start);
  for (let i = 0; i < Number(params.get("step") || 0); i++) $("step").click();
  if (params.has("play")) $("play").click();
})();
