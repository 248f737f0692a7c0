#!/usr/bin/env bash
# arena against the original in-process AlienWar controller on the original field
# (BENCHMARKS.md, "The Java host: profile").
#
#   bench/alienwar-original.sh ORIGINAL [ROUNDS]
#
# ORIGINAL is a checkout of the original controller (github.com/CommonGuy/AlienWar): its
# src/alien holds the 43 aliens of the final field, and its planet.Planet plays one game of
# them and the five prey, 100 instances each, 1000 rounds. The script builds that controller
# in a scratch folder (none of it enters this repository) and gives arena the same 43 aliens,
# a seat each, in one shared JVM (arena's prey are built in). After one untimed run of each
# (arena's compiles its Java cache), each of ROUNDS (default 8) runs the original, arena and
# arena --no-sandbox, in an order that rotates every round; with BASELINE=<an arena binary>
# that binary runs too (sandboxed). Prints every run (wall and CPU seconds from GNU time, of
# the whole process tree; for arena also its own split: runner, and bots = the shared JVM),
# then the medians and the median of each round's ratio to the original's CPU: of arena's
# whole CPU, and of its JVM alone. Needs cargo, a JDK
# and GNU time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
original="$(cd "${1:?usage: bench/alienwar-original.sh ORIGINAL [ROUNDS]}" && pwd)"
rounds="${2:-8}"
cd "$root"
cargo build --release --locked --quiet
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

mkdir "$scratch/original" "$scratch/field"
find "$original/src" -name '*.java' > "$scratch/sources"
javac -nowarn -encoding UTF-8 -d "$scratch/original" @"$scratch/sources" 2> /dev/null
field="$scratch/field/field.toml"
{
    printf 'game = "alienwar"\ngames = 1\n'
    for source in "$original"/src/alien/*.java; do
        name="$(basename "$source" .java)"
        [ "$name" = Alien ] && continue
        printf '\n[[bots]]\nname = "%s"\njava = ["%s"]\n' "$name" "$source"
    done
} > "$field"
echo "$(grep -c '^\[\[bots\]\]' "$field") aliens + 5 prey"

run() { # name command...: prints "name wall cpu runner bots load"
    local name="$1"
    shift
    rm -rf "$scratch/out"
    /usr/bin/time -f "%e %U %S" -o "$scratch/time" "$@" > /dev/null 2> "$scratch/log"
    local split
    split="$(sed -n 's/.*CPU time: runner \([0-9.]*\) s, bots \([0-9.]*\) s.*/\1 \2/p' "$scratch/log")"
    awk -v name="$name" -v cpus="${split:-- -}" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        '{ printf "%-10s %6.2f %6.2f %s %s\n", name, $1, $2 + $3, cpus, load }' "$scratch/time"
}
original() { run original java -cp "$scratch/original" planet.Planet; }
arena_run() { # name binary [flags]
    run "$1" "$2" run "$field" --out "$scratch/out" "${@:3}"
}
contenders=(original sandbox no-sandbox)
[ -n "${BASELINE:-}" ] && contenders+=(baseline)
play() {
    case "$1" in
        original) original ;;
        sandbox) arena_run sandbox target/release/arena ;;
        no-sandbox) arena_run no-sandbox target/release/arena --no-sandbox ;;
        baseline) arena_run baseline "$BASELINE" ;;
    esac
}
for contender in "${contenders[@]}"; do play "$contender" > /dev/null; done
echo "run        wall s  cpu s  runner bots  load"
count=${#contenders[@]}
for round in $(seq "$rounds"); do
    for k in $(seq 0 $((count - 1))); do
        play "${contenders[$(((round + k) % count))]}"
    done | sed "s/^/$round /"
done | tee "$scratch/runs" | cut -d' ' -f2-
awk '
    function median(list,   n, sorted, i, j, t) {
        n = split(list, sorted, " ")
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && sorted[j - 1] + 0 > sorted[j] + 0; j--) {
                t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
            }
        return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
    }
    { wall[$2] = wall[$2] " " $3; cpu[$2] = cpu[$2] " " $4; runner[$2] = runner[$2] " " $5
      bots[$2] = bots[$2] " " $6; w[$1, $2] = $3; c[$1, $2] = $4; b[$1, $2] = $6
      names[$2] = 1; rounds[$1] = 1 }
    END {
        for (m in names) {
            printf "%-10s median wall %.2f s, cpu %.2f s", m, median(wall[m]), median(cpu[m])
            if (m != "original") {
                cr = ""; wr = ""; br = ""
                for (r in rounds) {
                    cr = cr " " c[r, m] / c[r, "original"]; wr = wr " " w[r, m] / w[r, "original"]
                    br = br " " b[r, m] / c[r, "original"]
                }
                printf " (runner %.2f s, JVM %.2f s); per round / original: cpu %.2f, wall %.2f, JVM alone %.2f", \
                    median(runner[m]), median(bots[m]), median(cr), median(wr), median(br)
            }
            printf "\n"
        }
    }' "$scratch/runs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
