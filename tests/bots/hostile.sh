#!/bin/sh
# A Petri bot for tests: answers the setup request properly, then misbehaves on every cell
# request as its first argument says. As a Slime bot (the board is a second argument, stdin
# is empty) it misbehaves on every turn.
mode=$1
if [ "$mode" = ignore-stdin ]; then
    echo "5 6 1"
    exit 0
fi
input=$(cat)
if [ "$input" = BEGIN ]; then
    echo "5 6 1"
    exit 0
fi
case "$mode" in
    hang) exec sleep 600 ;;
    crash-after-print) echo "REST"; exit 3 ;;
    crash-silently) exit 5 ;;
    silent) exit 0 ;;
    flood) exec yes DIVIDE ;;
    grandchild) sleep 600 & echo "REST" ;;
    garbage) printf '\377\376 MOVE\000 E\r' ;;
    illegal) echo "ATTACK N 9" ;;
    late) sleep 3; echo "REST" ;;
    children) for i in 1 2 3 4 5 6 7 8 9 10; do sleep 600 & done; echo "REST" ;;
    close-stdout) exec >&-; exec sleep 600 ;;
    memory) exec /usr/bin/python3 -S -c 'bytearray(1 << 34)' ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
