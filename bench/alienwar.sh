#!/usr/bin/env bash
# A full AlienWar game with a large field of Java aliens, their JVM shared against one JVM per
# alien (BENCHMARKS.md, "AlienWar: a full game of original aliens").
#
#   bench/alienwar.sh ALIENS [COPIES] [ROUNDS]
#
# ALIENS is a folder of original aliens, one folder per alien holding <Name>.java (such as
# the original challenge's answers). The field is COPIES (default 6) seats of each of them,
# three of the Java sample alien Nomad and four Python sample aliens (hermit twice, stalker,
# drifter), plus the five built-in prey: with the six original aliens of the challenge's
# scoreboard that is 43 species, 48 with the prey, the field of the original's timing. Each
# of ROUNDS (default 3) runs both ways in turn, shared first in odd rounds; one untimed run
# compiles the Java cache first. Needs cargo, a JDK, GNU time and /usr/bin/python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
aliens="$(cd "${1:?usage: bench/alienwar.sh ALIENS [COPIES] [ROUNDS]}" && pwd)"
copies="${2:-6}"
rounds="${3:-3}"
cd "$root"
cargo build --release --locked --quiet
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The field's folder is its Java bots' working folder: sandboxed, they run as another user.
chmod 755 "$scratch"

field="$scratch/field.toml"
{
    printf 'game = "alienwar"\ngames = 1\n'
    for copy in $(seq "$copies"); do
        for folder in "$aliens"/*/; do
            name="$(basename "$folder")"
            [ -f "$folder/$name.java" ] || continue
            printf '\n[[bots]]\nname = "%s-%s"\njava = ["%s"]\n' "$name" "$copy" "$folder$name.java"
        done
    done
    for copy in 1 2 3; do
        printf '\n[[bots]]\nname = "Nomad-%s"\njava = ["%s"]\n' "$copy" "$root/bots/alienwar/Nomad.java"
    done
    for bot in hermit-1 hermit-2 stalker-1 drifter-1; do
        printf '\n[[bots]]\nname = "%s"\ncommand = "/usr/bin/python3 -S -I %s.py"\ndir = "%s"\n' \
            "$bot" "${bot%-*}" "$root/bots/alienwar"
    done
} > "$field"
sed 's/^games = 1$/games = 1\njava_host = "separate"/' "$field" > "$scratch/separate.toml"
echo "$(grep -c '^\[\[bots\]\]' "$field") species + 5 prey; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

run() { # mode file: prints "mode wall-seconds cpu-seconds"
    rm -rf "$scratch/out"
    /usr/bin/time -f "$1 %e %U %S" -o "$scratch/time" \
        target/release/arena run "$2" -q --out "$scratch/out" > /dev/null
    awk '{ printf "%s %.2f %.2f\n", $1, $2, $3 + $4 }' "$scratch/time"
}
run warm-up "$field" > /dev/null
run warm-up "$scratch/separate.toml" > /dev/null
for round in $(seq "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then
        run shared "$field"; run separate "$scratch/separate.toml"
    else
        run separate "$scratch/separate.toml"; run shared "$field"
    fi
done | tee "$scratch/runs"
awk '{ wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " $3 }
     END { for (m in wall) printf "%-8s wall s:%s   cpu s:%s\n", m, wall[m], cpu[m] }' "$scratch/runs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
