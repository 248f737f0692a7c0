#!/bin/sh
# Plays shard I of N of an arena tournament: the one entrypoint of the Slurm array
# (deploy/slurm-array.sh) and the Kubernetes Job (deploy/kubernetes-job.yaml).
#
#   deploy/shard.sh I N
#
# It runs `arena run TOURNAMENT --shard I/N --out RESULTS/shard-I`, or `--resume` that folder
# when it already holds a journal (a retried or resubmitted shard keeps its finished games),
# and `exec`s arena, so its exit status is arena's. The shard count is always given: it is
# never guessed from the scheduler (a resubmitted Slurm task is an array of one).
#
# Environment:
#   TOURNAMENT  the tournament file (default tournaments/petri.toml)
#   RESULTS     the folder holding every shard's folder (default results/<file name>)
#   ARENA       the arena binary (default: `arena` on PATH)
#   ARENA_ARGS  more `arena run` options, split on blanks, e.g. "--games 10 --seed 7"; give
#               every shard, and every resume of one, the same. The leaderboard a shard
#               prints is JSON (`--format json`) unless ARENA_ARGS gives a `--format`
#   SLURM_CPUS_PER_TASK  the CPUs Slurm granted the task: `--jobs` is that many
#   ARENA_CGROUP_ROOT    the cgroup file system (default /sys/fs/cgroup; for tests)
# Without SLURM_CPUS_PER_TASK, `--jobs` is the container's CPU quota (cgroup v2 cpu.max, or
# v1 cpu.cfs_quota_us / cpu.cfs_period_us), rounded up; with no quota arena uses every core.
# Bad arguments exit with status 2, as arena does for a bad command line.
set -eu

fail() {
    echo "shard.sh: error: $*" >&2
    exit 2
}

# A whole number from 1 up, without leading zeros (sh reads those as octal).
counting() {
    case $1 in
        '' | 0* | *[!0-9]*) return 1 ;;
    esac
    # Longer than 9 digits is no shard count or CPU count and would overflow.
    [ "${#1}" -le 9 ]
}

[ $# -eq 2 ] || fail "usage: shard.sh INDEX COUNT (shard INDEX of COUNT, from 1)"
INDEX=$1
COUNT=$2
counting "$COUNT" || fail "the shard count must be a whole number from 1, not '$COUNT'"
counting "$INDEX" || fail "the shard index must be a whole number from 1, not '$INDEX'"
[ "$INDEX" -le "$COUNT" ] || fail "shard $INDEX is not one of $COUNT (index 1 to $COUNT)"

# The CPU quota of this cgroup as a whole number of CPUs, rounded up; nothing if none.
cgroup_cpus() {
    root=${ARENA_CGROUP_ROOT:-/sys/fs/cgroup}
    quota=
    period=
    if [ -r "$root/cpu.max" ]; then
        read -r quota period <"$root/cpu.max" || true
    elif [ -r "$root/cpu/cpu.cfs_quota_us" ] && [ -r "$root/cpu/cpu.cfs_period_us" ]; then
        read -r quota <"$root/cpu/cpu.cfs_quota_us" || true
        read -r period <"$root/cpu/cpu.cfs_period_us" || true
    fi
    # "max" (v2) or -1 (v1) is no quota.
    if ! counting "$quota" || ! counting "$period"; then
        return 0
    fi
    cpus=$(((quota + period - 1) / period))
    [ "$cpus" -ge 1 ] || cpus=1
    echo "$cpus"
}

if [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then
    counting "$SLURM_CPUS_PER_TASK" ||
        fail "SLURM_CPUS_PER_TASK must be a whole number from 1, not '$SLURM_CPUS_PER_TASK'"
    JOBS=$SLURM_CPUS_PER_TASK
else
    JOBS=$(cgroup_cpus)
fi

ARENA=${ARENA:-arena}
TOURNAMENT=${TOURNAMENT:-tournaments/petri.toml}
RESULTS=${RESULTS:-results/$(basename "$TOURNAMENT" .toml)}
DIR=$RESULTS/shard-$INDEX
if [ -f "$DIR/journal.jsonl" ]; then
    set -- --resume "$DIR"
else
    set -- --out "$DIR"
fi
if [ -n "$JOBS" ]; then
    set -- "$@" --jobs "$JOBS"
fi
# JSON for the job's log, unless the user asked for another format (arena takes one).
case " ${ARENA_ARGS:-} " in
    *" --format "* | *" --format="*) ;;
    *) set -- "$@" --format json ;;
esac
mkdir -p "$RESULTS"
# ARENA_ARGS is split into words on purpose; no glob is expanded in it.
set -f
# shellcheck disable=SC2086
exec "$ARENA" run "$TOURNAMENT" --shard "$INDEX/$COUNT" "$@" ${ARENA_ARGS:-}
