#!/bin/bash
# The header's target lines and JSON iobench.context.targets[] list each
# path once, in the jobs' order, as the Disk stats list their disks
# (iobench sorted them by path: aa before zz, /dev/loop10 before /dev/loop7).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

args=(--ioengine=psync --size=64k --rw=read --name=z --filename="$tmp/zz" --name=a
  --filename="$tmp/aa" --name=m --filename="$tmp/mm" --name=z2 --filename="$tmp/zz")
out=$("$bin" "${args[@]}" 2>&1) || fail "normal run: $out"
expect_eq "target lines" "$(grep '^target ' <<<"$out" | sed 's/:.*//' | tr '\n' ' ')" \
  "target $tmp/zz target $tmp/aa target $tmp/mm "
got=$("$bin" "${args[@]}" --output-format=json 2>err | python3 -c '
import json, sys
print(" ".join(t["path"] for t in json.load(sys.stdin)["iobench"]["context"]["targets"]))') ||
  fail "json run: $(cat err)"
expect_eq "json targets" "$got" "$tmp/zz $tmp/aa $tmp/mm"
[ "$fails" -eq 0 ]
