#!/usr/bin/env bash
# A sharded run on a real Slurm cluster: a one-node cluster on this machine (munged,
# slurmctld, slurmd, all from Debian's slurm-wlm and munge, installed when missing), a
# tournament submitted as deploy/slurm-array.sh with 4 array tasks, task 3 cancelled once it
# has played a game, resubmitted with the documented command (`SHARDS=4 sbatch --array=3
# deploy/slurm-array.sh`, plus the --cpus-per-task=1 both submissions get: the node has 2
# CPUs, the script asks for 4), and the 4 shards merged: the merged leaderboard must be byte
# for byte that of the same tournament run on one machine.
#
#   deploy/test-slurm.sh        # as root (the daemons run as root); .ci/run runs it
#
# GAMES (default 20 per pairing) sizes the tournament. Everything is written in one
# temporary folder; on exit every job is cancelled and every daemon it started is stopped
# by its PID, then it checks that no process it started is left.
set -euo pipefail
started=$SECONDS
cd "$(dirname "$0")/.."
repo=$PWD
GAMES=${GAMES:-20}

[ "$(id -u)" = 0 ] || { echo "test-slurm: must run as root (slurmd runs jobs as any user)" >&2; exit 2; }
missing=()
command -v slurmctld >/dev/null || missing+=(slurm-wlm)
command -v munged >/dev/null || missing+=(munge)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

cargo build --release --locked
arena=$repo/target/release/arena

tmp=$(mktemp -d -t arena-slurm.XXXXXX)
# Every process this test starts carries this variable (the daemons, and through them
# slurmstepd; the jobs through sbatch), so the leftovers check finds them, and only them.
tag=ARENA_SLURM_TEST=$tmp
log() { echo "test-slurm: $*" >&2; }

tagged() {
    local p
    for p in /proc/[0-9]*; do
        if grep -qxzF "$tag" "$p/environ" 2>/dev/null; then echo "${p#/proc/}"; fi
    done
}

# Whether a process exists and is not a zombie (which only waits to be reaped).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat:0:1}" != Z ]
}

jobs_submitted=()
daemons=()
cleanup() {
    local status=$? pid i
    set +e
    if [ ${#jobs_submitted[@]} -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
        scancel "${jobs_submitted[@]}" 2>/dev/null
        for ((i = 0; i < 100; i++)); do
            [ -z "$(squeue -h -j "$(IFS=,; echo "${jobs_submitted[*]}")" 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    # Every process of ours now, by the tag: one that is exiting can no longer be read, so
    # these are waited for by PID below.
    local ours
    ours=$(tagged)
    # Newest first: slurmd (it ends the job steps it runs), slurmctld, munged.
    for pid in "${daemons[@]}"; do
        kill -TERM "$pid" 2>/dev/null
        for ((i = 0; i < 100; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        wait "$pid" 2>/dev/null
    done
    # A job step's slurmstepd may still be exiting: give it a few seconds.
    local left
    for ((i = 0; i < 100; i++)); do
        left=$(
            for pid in $ours; do alive "$pid" && echo "$pid"; done
            tagged
        )
        left=$(sort -un <<<"$left" | sed '/^$/d')
        [ -z "$left" ] && break
        sleep 0.1
    done
    if [ -n "$left" ]; then
        log "left running: $(paste -sd ' ' <<<"$left")"
        ps -o pid,args -p "$(paste -sd , <<<"$left")" >&2
        # Killed only if they still carry the tag: a PID alone may have been reused.
        # shellcheck disable=SC2046 # one PID a word
        kill -KILL $(tagged) 2>/dev/null
        [ "$status" = 0 ] && status=1
    fi
    if [ "$status" != 0 ]; then
        for f in "$tmp"/*.log "$tmp"/logs/*; do
            [ -f "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }
        done
    fi
    rm -rf "$tmp"
    if [ "$status" = 0 ]; then
        log "passed in $((SECONDS - started)) s, no Slurm or munge process left"
    else
        log "FAILED (status $status) after $((SECONDS - started)) s"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports on loopback for slurmctld and slurmd (another cluster may use 6817).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')

mkdir -p "$tmp/munge" "$tmp/socket" "$tmp/state" "$tmp/spool" "$tmp/logs" "$tmp/results"
chmod 700 "$tmp/munge"
# munged wants its socket's folder searchable by all (clients of any user connect).
chmod 755 "$tmp" "$tmp/socket"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/socket/munge.socket
env "$tag" munged --foreground --force --socket="$socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munged.log" \
    --seed-file="$tmp/munge/munged.seed" >"$tmp/logs/munged.out" 2>&1 &
daemons=("$!")

cat >"$tmp/slurm.conf" <<EOF
ClusterName=arena-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
KillWait=5
# Finished jobs stay visible to scontrol long enough to read their states.
MinJobAge=600
# Two CPUs: this machine's and CI's cores, so two tasks run at once.
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

for ((i = 0; i < 50; i++)); do
    [ -S "$socket" ] && break
    sleep 0.1
done
[ -S "$socket" ] || { log "munged did not start"; exit 1; }
env "$tag" slurmctld -D -f "$SLURM_CONF" >"$tmp/logs/slurmctld.out" 2>&1 &
daemons=("$!" "${daemons[@]}")
env "$tag" slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/logs/slurmd.out" 2>&1 &
daemons=("$!" "${daemons[@]}")

state=
for ((i = 0; i < 300; i++)); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.1
done
[ "$state" = idle ] || { log "the node is not idle after 30 s: '$state'"; exit 1; }
log "cluster up after $((SECONDS - started)) s (slurmctld :$ctld_port, slurmd :$slurmd_port)"

# The same tournament on one machine.
tournament=tournaments/petri.toml
export ARENA_ARGS="--games $GAMES"
# shellcheck disable=SC2086 # ARENA_ARGS is words, as deploy/shard.sh splits it
"$arena" run "$tournament" --out "$tmp/single" --format json -q $ARENA_ARGS >"$tmp/single.json"
log "single-machine run done after $((SECONDS - started)) s"

# What every task gets: the release binary, the tournament, the results folder, and the
# tag. Two CPUs in the node, so each task asks for one (the script asks for 4).
export ARENA=$arena TOURNAMENT=$tournament RESULTS=$tmp/results SHARDS=4
export SBATCH_OUTPUT=$tmp/logs/slurm-arena-%A_%a.log
# Sets `submitted` to the job id (not in a subshell: the cleanup needs every id).
submit() {
    submitted=$(env "$tag" sbatch --parsable --cpus-per-task=1 "$@" deploy/slurm-array.sh)
    submitted=${submitted%%;*}
    jobs_submitted+=("$submitted")
}
running() { [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; }
# JobState of array task $2 of job $1, e.g. COMPLETED.
task_state() {
    scontrol -o show job "$1_$2" | tr ' ' '\n' | sed -n 's/^JobState=//p'
}
games_in() { [ -f "$1/journal.jsonl" ] && echo $(($(wc -l <"$1/journal.jsonl") - 1)) || echo 0; }
wait_for() { # job id, seconds
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        running "$1" || return 0
        sleep 0.1
    done
    log "job $1 still running after $2 s"
    squeue >&2
    exit 1
}

submit --array=1-4
job=$submitted
log "submitted job $job: array tasks 1-4"
for ((i = 0; i < 1200; i++)); do
    [ "$(games_in "$RESULTS/shard-3")" -ge 1 ] && break
    sleep 0.1
done
played=$(games_in "$RESULTS/shard-3")
[ "$played" -ge 1 ] || { log "task 3 played no game in 120 s"; exit 1; }
scancel "${job}_3"
log "cancelled task ${job}_3 after $played game(s)"
wait_for "$job" 300
for task in 1 2 3 4; do
    log "task $task: $(task_state "$job" "$task"), $(games_in "$RESULTS/shard-$task") games"
done
[ "$(task_state "$job" 3)" = CANCELLED ] || { log "task 3 was not cancelled"; exit 1; }
for task in 1 2 4; do
    [ "$(task_state "$job" "$task")" = COMPLETED ] || { log "task $task did not complete"; exit 1; }
done
cut_short=$(games_in "$RESULTS/shard-3")
expected=$(($(games_in "$tmp/single") / 4))
[ "$cut_short" -lt "$expected" ] || { log "task 3 finished before its cancel landed"; exit 1; }

# The documented resubmission of one failed shard (same SHARDS and environment).
submit --array=3
again=$submitted
log "resubmitted shard 3 of 4 as job $again"
wait_for "$again" 300
[ "$(task_state "$again" 3)" = COMPLETED ] || { log "the resubmitted task did not complete"; exit 1; }
[ "$(games_in "$RESULTS/shard-3")" = "$expected" ] || { log "shard 3 is incomplete"; exit 1; }

"$arena" merge "$RESULTS"/shard-{1,2,3,4} --out "$tmp/merged" --format json >"$tmp/merged.json"
cmp "$tmp/single/leaderboard.json" "$tmp/merged/leaderboard.json"
cmp "$tmp/single.json" "$tmp/merged.json"
"$arena" standings "$tmp/single/journal.jsonl" >"$tmp/single.txt"
"$arena" standings "$tmp/merged/journal.jsonl" >"$tmp/merged.txt"
cmp "$tmp/single.txt" "$tmp/merged.txt"
log "merged leaderboard.json, printed JSON and standings table are byte for byte the" \
    "single-machine run's ($(games_in "$tmp/single") games, shard 3 resumed from $cut_short)"
