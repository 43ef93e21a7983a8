#!/bin/sh
# A deliberately wrong implementation, for tests/conformance_wrong_impl.py: it runs the real vx
# (VX_REAL) in the runner's MODE (`run`, or `check` for a `// check-only` program), then changes
# the first character of stdout, drops stderr, and always exits 0, so that refused programs look
# accepted and runtime errors look like success; on the programs of conformance/formatting/ it
# crashes (SIGSEGV) instead.
# usage: VX_REAL=build/vx flip_stdout.sh MODE [RUN-FLAGS...] FILE
vx="${VX_REAL:?set VX_REAL to the vx binary}"
mode="$1"
shift
for last; do :; done
case "$last" in
*/formatting/*) kill -SEGV $$ ;;
esac
"$vx" "$mode" "$@" 2>/dev/null | sed '1s/^./#/;1s/^$/#/'
exit 0
