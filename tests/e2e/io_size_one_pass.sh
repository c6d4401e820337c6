#!/usr/bin/env bash
# io_size above size with an engine that completes each I/O inside its queue
# call (psync, null): fio 3.33 counts io_size as it counts loops (an I/O
# counts towards a loop's bytes only when the engine queued it), so a random
# job whose passes end by bytes is one stream of io_size bytes. fio: 768
# I/Os of rw=randread norandommap size=1m io_size=3m touch 246 distinct
# blocks with psync or null (libaio repeats, 166). iobench repeated the
# first pass's 256 offsets three times (166 distinct), since its io_size
# passes were re-seeded, while loops=3 were not.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

ios() { awk '$3 == "read" { n++ } END { print n + 0 }' "$1"; }
distinct() { awk '$3 == "read" { print $4 }' "$1" | sort -u | wc -l; }
opens() { grep -c ' open$' "$1"; }

for engine in null psync; do
  for extra in "" "--rw=randread:4" "--percentage_random=50" "--blockalign=8k"; do
    rm -f a.log b.log
    # shellcheck disable=SC2086
    "$bin" --name=j --ioengine="$engine" --filename="$tmp/f" --rw=randread --norandommap \
      --size=1m --io_size=3m --bs=4k $extra --write_iolog=a.log --output=/dev/null ||
      fail "$engine $extra io_size: iobench"
    # shellcheck disable=SC2086
    "$bin" --name=j --ioengine="$engine" --filename="$tmp/f" --rw=randread --norandommap \
      --size=1m --loops=3 --bs=4k $extra --write_iolog=b.log --output=/dev/null ||
      fail "$engine $extra loops: iobench"
    expect_eq "$engine $extra io_size=3m: I/Os" "$(ios a.log)" 768
    expect_eq "$engine $extra io_size=3m: one pass (opens)" "$(opens a.log)" 1
    # The same stream as loops=3.
    if ! cmp -s <(awk '$3 == "read" { print $4, $5 }' a.log) <(awk '$3 == "read" { print $4, $5 }' b.log); then
      fail "$engine $extra: io_size=3m differs from loops=3"
    fi
    if cmp -s <(awk '$3 == "read" { print $4 }' a.log | head -256) \
      <(awk '$3 == "read" { print $4 }' a.log | sed -n 257,512p); then
      fail "$engine $extra io_size=3m: the second 256 I/Os repeat the first"
    fi
    if [ -z "$extra" ]; then
      d=$(distinct a.log)
      [ "$d" -gt 200 ] || fail "$engine io_size=3m: $d distinct offsets (fio: 246)"
    fi
  done
done

[ "$fails" -eq 0 ]
