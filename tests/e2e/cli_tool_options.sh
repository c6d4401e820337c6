#!/bin/bash
# fio's command-line (tool) options as iobench takes them, against what
# fio 3.33 does with the same arguments: exit codes, which stream, files.
# Runs only --version/--help and null-engine jobs of 1 MiB (well under a
# second). $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
work=$(mktemp -d /tmp/iobench-cliopts.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# -v is fio's short --version (exit 0, version on stdout); iobench refused it.
out=$("$bin" -v 2>err) || fail "-v: exit $?: $(cat err)"
[ "$out" = "$("$bin" --version)" ] || fail "-v printed '$out'"
[ -s err ] && fail "-v wrote to stderr: $(cat err)"

echo "$fails failed"
[ "$fails" -eq 0 ]
