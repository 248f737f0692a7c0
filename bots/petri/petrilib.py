"""What the LOOP sample bots share: the eight directions, reading a cell request, and serving
the protocol (one-shot, or LOOP mode from one process) so that each bot only decides.

A bot calls `serve(SPEC, decide)`, where `decide(w, h, rows, x, y, hp, en, request)` returns
the cell's action and `request` is the text of the request's lines (header, rows, blank
line, stats), the same in one-shot and LOOP mode.
"""
import sys

DIRS = (("N", 0, -1), ("NE", 1, -1), ("E", 1, 0), ("SE", 1, 1),
        ("S", 0, 1), ("SW", -1, 1), ("W", -1, 0), ("NW", -1, -1))


def act(req, decide):
    """Answer one cell request (the text of the request); REST on anything odd."""
    try:
        lines = req.replace("\r", "").split("\n")
        w, h = map(int, lines[0].split())
        rows = lines[1:1 + h]
        x, y, hp, en = map(int, lines[h + 2].split())
        if len(rows) != h or lines[h + 1] or any(len(r) != w for r in rows) \
                or not (0 <= x < w and 0 <= y < h) or rows[y][x] != "o":
            return "REST"
        return decide(w, h, rows, x, y, hp, en, "\n".join(lines[:h + 3]))
    except Exception:
        return "REST"


def serve(spec, decide):
    """One-shot: one request, then EOF. LOOP: BEGIN, requests, END (or EOF)."""
    try:
        _serve(spec, decide)
    except (BrokenPipeError, KeyboardInterrupt):
        pass


def _serve(spec, decide):
    read = sys.stdin.buffer.readline
    answered = junk = False
    while True:
        line = read()
        if not line:
            break
        text = line.decode("latin-1").strip()
        t = text.split()
        if text == "END":
            return
        if text == "BEGIN":
            reply, junk = spec + " LOOP", False
        elif len(t) == 2 and t[0].isdecimal() and t[1].isdecimal() and len(t[1]) < 5:
            parts = [line]
            for _ in range(int(t[1]) + 2):  # H rows, the blank line, the stats line
                more = read()
                if not more:
                    break
                parts.append(more)
            reply, junk = act(b"".join(parts).decode("latin-1"), decide), False
        elif junk or not text:  # blank lines, and the rest of a garbled request
            continue
        else:  # a garbled request: one REST, then skip lines until the next header
            reply, junk = "REST", True
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        answered = True
    if not answered:
        sys.stdout.write("REST\n")
