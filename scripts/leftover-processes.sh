#!/usr/bin/env bash
# Usage: scripts/leftover-processes.sh MARKER [EXCLUDE_PID...]
# Prints "pid args" of every live process whose environment has FCS_TEST_RUN=MARKER (.ci/run sets it
# before the suite; every process a test starts inherits it), except the given pids and this script.
# Prints nothing when there is none.
marker=$1; shift
exclude=" $* $$ "
for env in $(grep -lzx "FCS_TEST_RUN=$marker" /proc/[0-9]*/environ 2>/dev/null); do
  pid=${env#/proc/}; pid=${pid%/environ}
  case "$exclude" in *" $pid "*) continue ;; esac
  args=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null)
  [ -n "$args" ] && echo "$pid $args"
done
exit 0
