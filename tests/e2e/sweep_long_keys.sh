#!/bin/bash
# End to end: an error quotes a very long key (or hook command, or table
# key or metric) by its first 80 characters and its length, as it quotes a
# long --sweep argument (docs/sweep.md). A key of 5000 characters printed a
# 10 KB line with the key twice, and 23 KB with a --sweep-cmd naming it.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
K=$(printf 'k%.0s' {1..5000})
# short NAME ARGS...: refused (exit 2) with one line of at most 400 bytes on
# stderr that says the key's length.
short() {
  local name=$1
  shift
  "$bin" "${job[@]}" "$@" >out 2>err
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <err)" -ne 1 ] || [ "$(wc -c <err)" -gt 400 ] ||
    ! grep -qE "\.\.\. \(50[0-9]{2} characters\)" err; then
    fail "$name: exit $rc, $(wc -c <err) bytes: $(head -c 300 err)"
  else
    echo "ok   $name ($(wc -c <err) bytes)"
  fi
}
short "unknown key" --sweep "$K=1,2"
short "hook template key" --sweep iodepth=1,2 --sweep-cmd "echo {$K}"
short "hook naming a key not swept" --sweep "iodepth=1,2" --sweep "x$K=1,2" --sweep-cmd "echo {x$K}x{y}"
short "--table-rows" --sweep iodepth=1,2 --table-rows="$K" --output-format=table
short "--table-cols" --sweep iodepth=1,2 --table-cols="$K" --output-format=table
short "--table-metric" --sweep iodepth=1,2 --table-metric="$K" --output-format=table
[ "$fails" -eq 0 ]
