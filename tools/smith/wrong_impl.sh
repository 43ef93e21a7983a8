#!/bin/sh
# A wrong Vx implementation for the test smith_wrong_impl (tests/smith.cmake): vx itself, but the
# first digit of its output becomes 7. `smith --impl 'sh wrong_impl.sh VX {file}'` must fail.
out=$("$1" run --offload=off "$2" 2>/dev/null)
rc=$?
printf '%s\n' "$out" | sed '1s/[0-9]/7/'
exit $rc
