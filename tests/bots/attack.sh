#!/bin/sh
# A Cave Rangers bot for the sandbox tests: on every turn it tries the attack its first
# argument names, then holds still (HNNHNN). Where it can tell that the attack worked, it
# answers BROKEN instead, an invalid move the tests look for. It never tries anything
# against the machine beyond what the tests give it: $CANARY, $VICTIM_DIR, $PORT, $HOME.
cat > /dev/null
broken=no
case "$1" in
    kill-parent)
        # The runner, if the bot can reach it; in a box $PPID is the box's init.
        kill -STOP "$PPID" 2>/dev/null
        kill -HUP "$PPID" 2>/dev/null
        kill -KILL "$PPID" 2>/dev/null
        ;;
    kill-opponent)
        for environ in /proc/[0-9]*/environ; do
            if tr '\0' '\n' < "$environ" 2>/dev/null | grep -qx "ROLE=victim"; then
                pid=${environ#/proc/}
                kill -KILL "${pid%/environ}" 2>/dev/null
            fi
        done
        ;;
    forge)
        line='{"type":"game","data":{"index":0,"seed":1,"summary":"forged","duration_ms":1,"seats":[]}}'
        for fd in /proc/"$PPID"/fd/* /proc/1/fd/*; do
            printf '%s\n' "$line" >> "$fd" 2>/dev/null
        done
        printf '%s\n' "$line" >> ../../journal.jsonl 2>/dev/null
        printf '%s\n' "$line" >> ../journal.jsonl 2>/dev/null
        ;;
    read-secret)
        # The runner's environment holds ARENA_TEST_SECRET; a bot's never does.
        # One grep per file and none after a find: unboxed, this reads every process on a
        # busy machine within the turn's time.
        for file in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do
            if grep -qa 'ARENA_TEST_SECRET=' "$file" 2>/dev/null; then
                broken=yes
                break
            fi
        done
        ;;
    read-other)
        cat "$VICTIM_DIR/secret.txt" > /dev/null 2>&1 && broken=yes
        # An empty folder may stand where the victim's is; nothing of it may show.
        [ -n "$(ls -A "$VICTIM_DIR" 2>/dev/null)" ] && broken=yes
        ;;
    read-home)
        cat "$HOME/.ssh/id_canary" > /dev/null 2>&1 && broken=yes
        [ -n "$(ls -A "$HOME/.ssh" 2>/dev/null)" ] && broken=yes
        # What `pip install --user` put there stays in view: a bot that needs it and finds
        # it gone crashes.
        [ -r "$HOME/.local/lib/python3/site-packages/module.py" ] || exit 1
        ;;
    daemon)
        # Three ways out of a process group: a new session, a new group, a double fork.
        setsid /bin/sh -c 'while :; do sleep 0.2; done' > /dev/null 2>&1 < /dev/null &
        /usr/bin/python3 -S -c 'import os, time
os.setpgid(0, 0)
time.sleep(60)' > /dev/null 2>&1 < /dev/null &
        ( /bin/sh -c 'sleep 60' > /dev/null 2>&1 < /dev/null & ) &
        ;;
    network)
        /usr/bin/python3 -S -c 'import os, socket
socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), timeout=1)' 2>/dev/null && broken=yes
        ;;
    namespace)
        # A user namespace of its own makes a process root there, and opens much of the
        # kernel to it.
        unshare --user --map-root-user true 2>/dev/null && broken=yes
        ;;
    unix-socket)
        # A socket the test listens on in a folder of its own under /run, where a machine
        # keeps its system bus's and container engine's.
        for socket in /run/arena-test*/listen.sock /run/user/*/arena-test*/listen.sock; do
            [ -S "$socket" ] || continue
            /usr/bin/python3 -S -c 'import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(1)
s.connect(sys.argv[1])' "$socket" 2>/dev/null && broken=yes
        done
        ;;
    symlink)
        # A runner that followed the link made last turn started this turn inside the
        # canary: empty it from here. Then replace the private folder by that link.
        if [ "$(pwd -P)" = "$CANARY" ]; then
            rm -rf ./* 2>/dev/null
            broken=yes
        fi
        folder=$(pwd)
        cd .. && rm -rf "$folder" 2>/dev/null && ln -s "$CANARY" "$folder" 2>/dev/null
        ;;
    hoard)
        # More than the runner keeps of a private folder between games: a sparse file of
        # 64 MiB (no disk of its own, 64 MiB in a copy) and a tree deeper than a path can
        # name, each made once a game.
        /usr/bin/python3 -S -c 'import os
if not os.path.exists("a"):
    with open("sparse", "wb") as f:
        f.truncate(64 << 20)
    fd = os.open(".", os.O_RDONLY)
    for _ in range(3000):
        os.mkdir("a", dir_fd=fd)
        fd = os.open("a", os.O_RDONLY, dir_fd=fd)' 2>/dev/null
        ;;
    fill)
        # The disk, during one turn: 64 MiB in one file, and 5000 empty files.
        head -c 67108864 /dev/zero > fill.bin 2>/dev/null
        [ "$(wc -c < fill.bin)" -ge 67108864 ] && broken=yes
        mkdir -p many 2>/dev/null
        made=0
        while [ "$made" -lt 5000 ] && : 2>/dev/null > "many/$made"; do
            made=$((made + 1))
        done
        [ "$made" -ge 5000 ] && broken=yes
        ;;
    move-up)
        # With the results folder under /tmp, the folders above the private folder are in the
        # box's own /tmp: move them away and leave a tree of the bot's at the folder's path.
        here=$(pwd)
        top=${here%/results/work/attacker}
        if [ "$top" != "$here" ] && mv "$top" "$top.moved" 2>/dev/null; then
            mkdir -p "$here" && echo planted > "$here/planted"
        fi
        ;;
    lock)
        # A file of its folder that its owner may not read: the runner's own user, when the
        # runner is not root, whose copy of the folders after each game must read it.
        echo remembered > memory.txt 2>/dev/null
        chmod 000 memory.txt
        ;;
    rm-rf)
        # The test checks the canary: it may be hidden here, or read-only.
        cd / && rm -rf "$CANARY" 2>/dev/null
        ;;
    fork-bomb)
        # At most 200 processes, whatever the sandbox does; counts how many it got.
        started=$(/usr/bin/python3 -S -c 'import os, time
n = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(2)
            os._exit(0)
        n += 1
    except OSError:
        break
print(n)')
        [ "${started:-0}" -ge "$MAX_PROCESSES" ] && broken=yes
        ;;
esac
if [ "$broken" = yes ]; then
    echo BROKEN
else
    echo HNNHNN
fi
