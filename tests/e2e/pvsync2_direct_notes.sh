#!/usr/bin/env bash
# pvsync2 with direct=1 and uncached=1 (and nowait=1): the report's note says
# what the flags do under O_DIRECT. With uncached=1 alone the note ended in
# a space ("...bypassed anyway. "); the sentences are now joined by one
# space and the line ends with its full stop. ext4 (/var/tmp): tmpfs
# refuses uncached=1.
set -u
bin=$1
source "$2/tests/e2e/check.bash"
work=$(mktemp -d /var/tmp/iobench_pvsync2_notes.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$bin" --name=p --ioengine=pvsync2 --direct=1 --uncached=1 --filename=f --size=256k --rw=read \
  >out 2>err || { echo "SKIP: uncached=1 does not run here: $(cat err)"; exit 77; }
note=$(grep "note: pvsync2 with direct=1" out)
expect_eq "uncached=1: the note" "${note#  note: }" \
  "pvsync2 with direct=1: uncached=1 (RWF_DONTCACHE) only affects buffered I/O; with O_DIRECT the page cache is bypassed anyway."
"$bin" --name=p --ioengine=pvsync2 --direct=1 --uncached=1 --nowait=1 --filename=f --size=256k \
  --rw=read >out 2>err
expect_eq "uncached=1 nowait=1: exit status" "$?" 0
grep -q "bypassed anyway\. nowait=1 (RWF_NOWAIT) with O_DIRECT returns EAGAIN" out ||
  fail "uncached=1 nowait=1: want both sentences, one space apart: $(grep 'note: pvsync2' out)"
[ "$fails" -eq 0 ]
