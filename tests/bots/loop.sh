#!/bin/sh
# A Petri LOOP-mode bot for tests: speaks the persistent protocol, resting with every cell,
# then misbehaves as its first argument says once it has answered that many requests
# (second argument, default 0).
mode=$1
after=${2:-0}
if ! read -r _; then
    # The one-shot setup request: "BEGIN" with no newline, then EOF.
    echo "5 6 1 LOOP"
    exit 0
fi
# The session's first line was "BEGIN".
echo "5 6 1 LOOP"
answered=0
while read -r w h; do
    [ "$w" = END ] && exit 0
    i=0
    while [ "$i" -le "$h" ]; do read -r _; i=$((i + 1)); done
    read -r _
    if [ "$answered" -ge "$after" ]; then
        case "$mode" in
            hang) exec sleep 600 ;;
            exit) exit 0 ;;
            no-newline) printf 'REST'; exit 0 ;;
            flood) exec yes DIVIDE ;;
            garbage) printf '\377\376\000\n'; continue ;;
            late) sleep 3 ;;
            nap) sleep 0.05 ;;
            nap-garbage) sleep 0.05; echo JUNK; continue ;;
            children) for i in 1 2 3 4 5; do sleep 600 & done ;;
            close-stdout) exec >&-; exec sleep 600 ;;
            memory) exec /usr/bin/python3 -S -c 'bytearray(1 << 34)' ;;
        esac
    fi
    echo "REST"
    answered=$((answered + 1))
done
