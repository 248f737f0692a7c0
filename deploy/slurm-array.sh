#!/bin/bash
# One arena tournament as a Slurm job array: task I plays shard I of SHARDS (8 unless set,
# the size of the array below; set both together: `SHARDS=16 sbatch --array=1-16 ...`).
# Each task runs deploy/shard.sh I SHARDS, the entrypoint the Kubernetes Job uses too.
#
#   sbatch deploy/slurm-array.sh                       # from the repository (or any folder
#                                                      # holding the tournament, the bots and
#                                                      # deploy/shard.sh; or set SHARD_SH)
#   sbatch --dependency=afterok:<job id> --wrap \
#       'arena merge results/petri/shard-* --out results/petri/merged'
#
# The environment of sbatch reaches the tasks: ARENA, TOURNAMENT, RESULTS and ARENA_ARGS as
# deploy/shard.sh reads them (e.g. `ARENA_ARGS="--games 10" sbatch ...`); `--jobs` is the
# task's --cpus-per-task.
#
# What must be shared by every node (a shared file system such as the submit directory):
# - the `arena` binary (one version for all shards) and the tournament file;
# - the bots at the paths the tournament file names, with their interpreters installed;
# - the results folder: each task writes only results/<name>/shard-<I>, and `arena merge`
#   reads them all. It refuses a missing, duplicate or unfinished shard; resubmit a failed
#   task with the same SHARDS (and ARENA_ARGS) and it continues where it stopped, e.g. for
#   task 3 of 4: `SHARDS=4 sbatch --array=3 deploy/slurm-array.sh`. The shard count is never
#   taken from the array's size, which is 1 for such a resubmission.
#
#SBATCH --job-name=arena
#SBATCH --array=1-8
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=slurm-arena-%A_%a.log
set -euo pipefail

# sbatch runs a copy of this script from its spool folder, so the entrypoint is looked up in
# the folder sbatch was run from; run by hand, beside this script.
SHARD_SH=${SHARD_SH:-${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}/deploy/shard.sh}
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "error: SLURM_ARRAY_TASK_ID is not set: submit this as an array job (sbatch)" >&2
    exit 2
fi
exec "$SHARD_SH" "$SLURM_ARRAY_TASK_ID" "${SHARDS:-8}"
