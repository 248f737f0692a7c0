#!/usr/bin/env bash
# Whole-process benchmarks of the release build (BENCHMARKS.md, figures d, e, f, g and l).
#
#   bench/whole.sh jobs [GAMES] [ROUNDS]  --jobs 1 against --jobs 2: tournaments/petri.toml
#                                         with GAMES games per pair (default 4), ROUNDS
#                                         alternating pairs of runs (default 3)
#   bench/whole.sh share [ARG ...]        the runner's share of all CPU time in tournaments of
#                                         the sample bots (petri LOOP, petri one-shot, slime),
#                                         and of a minimal loop driving the Petri LOOP bots
#                                         (blocking, and with io_uring);
#                                         ARGs go to every `arena run` (e.g. --no-sandbox)
#   bench/whole.sh petri-share [ROUNDS] [ARG ...]
#                                         the runner's share in tournaments/petri.toml
#                                         --games 10 alone, ROUNDS runs (default 3)
#   bench/whole.sh share-of FILE [ROUNDS] [ARG ...]
#                                         the runner's share in the tournament FILE alone,
#                                         ROUNDS runs (default 3)
#   bench/whole.sh memory [GAMES ...]     the runner's peak memory for bench/petri-c.toml with
#                                         each number of games (default 1000 10000 30000)
#   bench/whole.sh startup [ROUNDS]       CPU time of a Python start: plain, -S -I, and through
#                                         a pyenv shim if there is one (README, Speed)
#   bench/whole.sh sandbox [ROUNDS]       sandboxed against --no-sandbox, in alternating pairs
#                                         (default 3): tournaments/slime.toml,
#                                         tournaments/eggs.toml --games 2 and
#                                         tournaments/petri.toml (figure g)
#   bench/whole.sh flood [ROUNDS] [ARG ...]
#                                         the runner's CPU against a bot that floods its
#                                         stderr (bench/petri-flood.toml), ROUNDS runs
#                                         (default 3; figure l)
#   bench/whole.sh all                    jobs, share and memory with their defaults
#
# ARENA_BIN=PATH times another build of arena (e.g. one of an older commit) instead of this
# checkout's release build.
#
# Needs cargo, cc, GNU time (/usr/bin/time) and /usr/bin/python3. Results go to a scratch
# folder that is removed at the end. Absolute times vary with the machine and its load: the
# script prints the load average and, for `jobs`, the CPU time other processes used during
# each run (from /proc/stat); quote the ratios.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cargo build --release --locked --quiet
# GNU time wraps every run, for its peak memory (figure f) and its CPU time.
arena_binary="${ARENA_BIN:-$root/target/release/arena}"
arena() { /usr/bin/time -f '%M %U %S' -o "$scratch/rss" "$arena_binary" "$@"; }
# CPU time of the whole machine so far, in clock ticks (/proc/stat: user, nice, system, irq,
# softirq, steal).
busy_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
ticks_per_second=$(getconf CLK_TCK)
mkdir -p target/tmp/bench-bots
for bot in petri_rest loop_floor; do
    cc -O2 -o "target/tmp/bench-bots/$bot" "bench/bots/$bot.c"
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
run=0

# Runs arena with the given arguments into a fresh results folder and stops the script if it
# fails. Leaves the wall seconds in $scratch/wall, the CPU seconds other processes used
# meanwhile in $scratch/others, arena's log in $scratch/log and its JSON leaderboard in
# $scratch/board.json.
timed() {
    run=$((run + 1))
    local start end busy
    busy=$(busy_ticks)
    start=$(date +%s.%N)
    if ! arena run "$@" --out "$scratch/out-$run" --format json >"$scratch/board.json" \
        2>"$scratch/log"; then
        echo "arena run $* failed:" >&2
        tail -5 "$scratch/log" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    busy=$(($(busy_ticks) - busy))
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }' >"$scratch/wall"
    awk -v busy="$busy" -v hz="$ticks_per_second" '{ printf "%.2f\n", busy / hz - $2 - $3 }' \
        "$scratch/rss" >"$scratch/others"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }

jobs_bench() {
    local games="${1:-4}" rounds="${2:-3}" one=() two=() others_one=() others_two=()
    echo "== d. parallel scaling: tournaments/petri.toml --games $games, $rounds rounds"
    load
    for _ in $(seq "$rounds"); do
        timed tournaments/petri.toml --games "$games" --jobs 1
        one+=("$(cat "$scratch/wall")")
        others_one+=("$(cat "$scratch/others")")
        timed tournaments/petri.toml --games "$games" --jobs 2
        two+=("$(cat "$scratch/wall")")
        others_two+=("$(cat "$scratch/others")")
    done
    local m1 m2
    m1=$(printf '%s\n' "${one[@]}" | median)
    m2=$(printf '%s\n' "${two[@]}" | median)
    echo "--jobs 1: ${one[*]} s (median $m1); other processes' CPU meanwhile: ${others_one[*]} s"
    echo "--jobs 2: ${two[*]} s (median $m2); other processes' CPU meanwhile: ${others_two[*]} s"
    echo "throughput ratio jobs 2 / jobs 1: $(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2f", a / b }')"
    load
}

# Prints the runner's share of CPU from arena's closing log line, and its CPU per request
# (the requests counted from the leaderboard).
share_of() {
    timed "$@"
    local requests
    requests=$(/usr/bin/python3 -c 'import json, sys
print(sum(s["requests"] for s in json.load(sys.stdin)["leaderboard"]))' <"$scratch/board.json")
    grep -o 'CPU time: runner [0-9.]* s, bots [0-9.]* s' "$scratch/log" |
        awk -v n="$requests" '{ printf "runner %s s, bots %s s, %d requests: runner share %.1f%%, runner %.1f µs per request\n", $4, $7, n, 100 * $4 / ($4 + $7), 1e6 * $4 / n }'
}

share_bench() {
    echo "== e. runner share of CPU time${*:+ (arena run $*)}"
    load
    echo -n "petri, LOOP bots (tournaments/petri.toml --games 10): "
    share_of tournaments/petri.toml --games 10 "$@"
    echo "the floor: a minimal blocking C loop sending one request 20000 times to each bot,"
    echo "a write and a read each, then (uring) one io_uring call each:"
    for bot in grower hunter bomber; do
        for way in "" --uring; do
            echo -n "  $bot${way:+ (uring)}: "
            (cd bots/petri && "$root/target/tmp/bench-bots/loop_floor" $way 20000 /usr/bin/python3 -S -I "$bot.py")
        done
    done
    echo -n "petri, with a one-shot bot (tournaments/petri-classic.toml --games 1): "
    share_of tournaments/petri-classic.toml --games 1 "$@"
    echo -n "slime, one-shot (tournaments/slime.toml --games 1): "
    share_of tournaments/slime.toml --games 1 "$@"
    echo -n "petri, compiled LOOP bots (bench/petri-c.toml): "
    share_of bench/petri-c.toml "$@"
    load
}

petri_share_bench() {
    local rounds="${1:-3}"
    shift || true
    repeated_share_bench tournaments/petri.toml "$rounds" --games 10 "$@"
}

repeated_share_bench() {
    local file="$1" rounds="${2:-3}"
    shift
    shift || true
    echo "== e. runner share of CPU time, $file${*:+ $*}, $rounds runs"
    for _ in $(seq "$rounds"); do
        echo -n "$(load): "
        share_of "$file" "$@"
    done
}

memory_bench() {
    [ $# -gt 0 ] || set -- 1000 10000 30000
    echo "== f. runner peak memory: bench/petri-c.toml"
    load
    for games in "$@"; do
        timed bench/petri-c.toml --games "$games"
        local during
        during=$(grep -o 'runner peak memory [0-9]* MiB' "$scratch/log" | grep -o '[0-9]*')
        echo "$games games: peak RSS $(($(cut -d' ' -f1 "$scratch/rss") / 1024)) MiB for the whole process" \
            "(leaderboard included), $during MiB at the end of the games"
    done
}

# Milliseconds of CPU (user + system, from GNU time) per start of the command, over 20
# starts in a row (GNU time counts in hundredths of a second).
cpu_of() {
    /usr/bin/time -f '%U %S' -o "$scratch/cpu" \
        bash -c 'for _ in $(seq 20); do "$@" </dev/null >/dev/null 2>&1; done' - "$@"
    awk '{ printf "%.1f\n", ($1 + $2) * 1000 / 20 }' "$scratch/cpu"
}

startup_bench() {
    local rounds="${1:-5}" shim
    shim="$(command -v pyenv >/dev/null && echo "$(pyenv root)/shims/python3" || true)"
    echo "== interpreter start-up: CPU per start, median of $rounds rounds of 20, in turn"
    load
    local plain=() isolated=() shimmed=()
    for _ in $(seq "$rounds"); do
        plain+=("$(cpu_of /usr/bin/python3 -c pass)")
        isolated+=("$(cpu_of /usr/bin/python3 -S -I -c pass)")
        if [ -x "$shim" ]; then shimmed+=("$(cpu_of "$shim" -c pass)"); fi
    done
    echo "/usr/bin/python3 -c pass: $(printf '%s\n' "${plain[@]}" | median) ms"
    echo "/usr/bin/python3 -S -I -c pass: $(printf '%s\n' "${isolated[@]}" | median) ms"
    if [ -x "$shim" ]; then
        echo "$shim -c pass: $(printf '%s\n' "${shimmed[@]}" | median) ms"
    fi
}

# CPU (user + system of arena and every bot, from GNU time) and wall seconds of one run.
cpu_and_wall() {
    timed "$@"
    awk -v wall="$(cat "$scratch/wall")" '{ printf "%.2f %s\n", $2 + $3, wall }' "$scratch/rss"
}

sandbox_bench() {
    local rounds="${1:-3}"
    echo "== g. the sandbox's cost in whole tournaments, $rounds alternating pairs"
    load
    for tournament in "tournaments/slime.toml" "tournaments/eggs.toml --games 2" \
        "tournaments/petri.toml"; do
        local cpu=() wall=()
        for _ in $(seq "$rounds"); do
            # Not in a subshell: `timed` counts the runs for their output folders.
            # shellcheck disable=SC2086 # the tournament's words are meant to split
            cpu_and_wall $tournament >"$scratch/sandboxed"
            # shellcheck disable=SC2086
            cpu_and_wall $tournament --no-sandbox >"$scratch/unsandboxed"
            read -r a_cpu a_wall <"$scratch/sandboxed"
            read -r b_cpu b_wall <"$scratch/unsandboxed"
            cpu+=("$(awk -v a="$a_cpu" -v b="$b_cpu" 'BEGIN { printf "%.3f", a / b }')")
            wall+=("$(awk -v a="$a_wall" -v b="$b_wall" 'BEGIN { printf "%.3f", a / b }')")
        done
        echo "$tournament: sandboxed / unsandboxed, CPU ${cpu[*]} (median $(printf '%s\n' "${cpu[@]}" | median)), wall ${wall[*]} (median $(printf '%s\n' "${wall[@]}" | median))"
    done
    load
}

flood_bench() {
    local rounds="${1:-3}"
    shift || true
    echo "== l. a bot flooding its stderr: bench/petri-flood.toml${*:+ $*}, $rounds runs"
    for _ in $(seq "$rounds"); do
        timed bench/petri-flood.toml "$@"
        echo -n "$(load): "
        grep -o 'CPU time: runner [0-9.]* s, bots [0-9.]* s' "$scratch/log" |
            awk '{ printf "runner %s s, bots %s s: runner / bots %.2f\n", $4, $7, $4 / $7 }'
    done
}

case "${1:-all}" in
jobs) shift; jobs_bench "$@" ;;
share) shift; share_bench "$@" ;;
petri-share) shift; petri_share_bench "$@" ;;
share-of) shift; [ $# -gt 0 ] || { sed -n '2,36p' "$0"; exit 2; }; repeated_share_bench "$@" ;;
memory) shift; memory_bench "$@" ;;
startup) shift; startup_bench "$@" ;;
sandbox) shift; sandbox_bench "$@" ;;
flood) shift; flood_bench "$@" ;;
all) jobs_bench; share_bench; memory_bench ;;
*) sed -n '2,36p' "$0"; exit 2 ;;
esac
