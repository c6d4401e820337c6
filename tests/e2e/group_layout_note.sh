#!/bin/bash
# With group_reporting the "Laying out" note is the group's: numjobs=8 with
# a file of 1 MiB each lays out 8 files, and the note says "8 files / total
# 8MiB" (fio 3.33 prints "Laying out IO file (1 file / 1MiB)" once per job
# before the run). The members' identical notes used to collapse into one:
# "1 file / 1MiB" for the 8 files. Without group_reporting each job keeps
# its own note.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

run() {  # DIR, extra options...
  local dir=$1
  shift
  mkdir -p "$dir"
  "$bin" --name=mytest --directory="$dir" --size=1M --rw=rw --bs=64k --ioengine=psync \
    --numjobs=8 --number_ios=2 "$@" --output-format=normal,json 2>err
}
out=$(run g --group_reporting)
expect_eq "group: exit" $? 0
expect_eq "group: files laid out" "$(ls g | wc -l)" 8
expect_eq "group: normal note" "$(grep -c 'note: Laying out IO files (8 files / total 8MiB)$' <<<"$out")" 1
expect_eq "group: no member's note" "$(grep -c 'Laying out IO file (1 file' <<<"$out")" 0
expect_eq "group: JSON note" \
  "$(sed -n '/^{/,/^}/p' <<<"$out" | jq -r '.jobs[0].iobench.notes[] | select(startswith("Laying"))')" \
  "Laying out IO files (8 files / total 8MiB)"
out=$(run each)
expect_eq "each: exit" $? 0
expect_eq "each: a note per job" "$(grep -c 'note: Laying out IO file (1 file / 1MiB)$' <<<"$out")" 8
[ "$fails" -eq 0 ]
