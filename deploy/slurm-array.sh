#!/bin/bash
# One arena tournament as a Slurm job array: task I plays shard I of SHARDS (8 unless set,
# the size of the array below; set both together: `SHARDS=16 sbatch --array=1-16 ...`).
#
#   sbatch deploy/slurm-array.sh                       # from the repository (or any folder
#                                                      # holding the tournament and the bots)
#   sbatch --dependency=afterok:<job id> --wrap \
#       'arena merge results/petri/shard-* --out results/petri/merged'
#
# What must be shared by every node (a shared file system such as the submit directory):
# - the `arena` binary (one version for all shards) and the tournament file;
# - the bots at the paths the tournament file names, with their interpreters installed;
# - the results folder: each task writes only results/<name>/shard-<I>, and `arena merge`
#   reads them all. It refuses a missing, duplicate or unfinished shard; resubmit a failed
#   task (`sbatch --array=<I> deploy/slurm-array.sh`, with the same SHARDS) and it continues
#   where it stopped. The shard count is never taken from the array's size, which is 1 for
#   such a resubmission.
#
#SBATCH --job-name=arena
#SBATCH --array=1-8
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=slurm-arena-%A_%a.log
set -euo pipefail

ARENA=${ARENA:-arena}
TOURNAMENT=${TOURNAMENT:-tournaments/petri.toml}
RESULTS=${RESULTS:-results/$(basename "$TOURNAMENT" .toml)}
SHARDS=${SHARDS:-8}
if [ "$SLURM_ARRAY_TASK_ID" -lt 1 ] || [ "$SLURM_ARRAY_TASK_ID" -gt "$SHARDS" ]; then
    echo "error: array task $SLURM_ARRAY_TASK_ID is not a shard of $SHARDS (set SHARDS)" >&2
    exit 2
fi
SHARD="$SLURM_ARRAY_TASK_ID/$SHARDS"
DIR="$RESULTS/shard-$SLURM_ARRAY_TASK_ID"

mkdir -p "$RESULTS"
if [ -f "$DIR/journal.jsonl" ]; then
    # A resubmitted task keeps the games its first attempt finished.
    exec "$ARENA" run "$TOURNAMENT" --shard "$SHARD" --resume "$DIR" \
        --jobs "${SLURM_CPUS_PER_TASK:-0}" --format json
else
    exec "$ARENA" run "$TOURNAMENT" --shard "$SHARD" --out "$DIR" \
        --jobs "${SLURM_CPUS_PER_TASK:-0}" --format json
fi
