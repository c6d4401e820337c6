#!/usr/bin/env bash
# The order in which the verify phase reads back a sequential write over
# several files, as fio 3.33: one file after the other, each from its start,
# each write as it was written (fio gives a sequential job no random map, so
# its record of writes is sorted by file, then offset). iobench used to read
# back in the order written: nrfiles=3 roundrobin read a0 b0 c0 a1 b1 c1 ...
# where fio reads a0 a1 ... a15 b0 ...; file_service_type=random read
# 1 1 0 0 0 2 ... where fio reads 0 0 0 ... 1 1 1 ... Same counts and bytes.
# Unchanged, and checked too: a random job with a random map reads back in
# the order written (roundrobin 0 1 2 0 1 2 ...), as fio; one file in
# offset order; verify=null too. Every verify phase (loops) is checked from write_iolog,
# with fio on the same jobs when it is installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

# order TOOL HOW ARGS...: runs TOOL with write_iolog and checks each verify
# phase's reads against the pass before it: HOW "sorted" (the pass's writes
# by file, then offset) or "written" (the pass's writes as issued). Prints
# "phases reads" and, on a mismatch, the first differing read.
order() {
  local t=$1 how=$2
  shift 2
  rm -rf d io.log && mkdir d
  "$(cmd "$t")" --name=j --directory=d --verify="${VERIFY:-crc32c}" --bs=4k --write_iolog=io.log \
    --output-format=json "$@" >out.json 2>err.txt || echo "exit $? $(head -c 300 err.txt)"
  python3 - io.log "$how" <<'PY'
import sys
files, phases, cur, last = [], [], None, None
for line in open(sys.argv[1]):
    x = line.split()
    if len(x) == 3 and x[2] == "add":
        files.append(x[1])
    if len(x) != 5 or x[2] not in ("read", "write"):
        continue
    io = (files.index(x[1]), int(x[3]), int(x[4]))
    if x[2] == "write" and last != "write":
        cur = ([], [])
        phases.append(cur)
    cur[x[2] == "read"].append(io)
    last = x[2]
for w, r in phases:
    want = {"sorted": sorted(w), "unique": sorted(set(w))}.get(sys.argv[2], w)
    if r != want:
        bad = next((i for i, (a, b) in enumerate(zip(r, want)) if a != b), min(len(r), len(want)))
        print("read %d of %d: %s, wanted %s" % (bad, len(r), r[bad:bad + 3], want[bad:bad + 3]))
        sys.exit()
print(len(phases), sum(len(r) for _, r in phases))
PY
}

libaio=0
"$bin" --name=probe --ioengine=libaio --filename=probe --size=64k --rw=read \
  --output-format=json >/dev/null 2>&1 && libaio=1
rm -f probe

# Several files, sequential: (file, offset) order.
for t in $(tools); do
  expect_eq "$t roundrobin" "$(order "$t" sorted --nrfiles=3 --filesize=64k --rw=write)" "1 48"
  expect_eq "$t file_service_type=random" "$(order "$t" sorted --nrfiles=3 --filesize=64k \
    --rw=write --file_service_type=random)" "1 48"
  expect_eq "$t roundrobin:2 loops=3" "$(order "$t" sorted --filename=a:b:c --offset=16k \
    --size=96k --loops=3 --file_service_type=roundrobin:2 --rw=write)" "3 72"
  # Each write read back as written (the counts are each tool's own draws).
  got=$(order "$t" sorted --nrfiles=3 --filesize=64k --rw=write --bsrange=4k-16k \
    --file_service_type=random)
  [[ "$got" =~ ^1\ [0-9]+$ ]] || fail "$t bsrange: $got"
  if [ "$libaio" = 1 ]; then
    expect_eq "$t libaio" "$(order "$t" sorted --nrfiles=3 --filesize=64k --rw=write \
      --ioengine=libaio --iodepth=8)" "1 48"
  fi
  # What the reads look like, file by file: aaaaaaaabbbbbbbbcccccccc.
  order "$t" sorted --filename=a:b:c --offset=16k --size=96k --rw=write >/dev/null
  expect_eq "$t letters" "$(awk '$3 == "read" { printf "%s", substr($2, length($2)) }' io.log)" \
    "aaaaaaaabbbbbbbbcccccccc"
  # Unchanged: a random map reads back in the order written; one file in
  # offset order.
  expect_eq "$t randwrite" "$(order "$t" written --nrfiles=3 --filesize=64k --rw=randwrite)" "1 48"
  expect_eq "$t one file" "$(order "$t" written --filesize=64k --rw=write --loops=2)" "2 32"
done

# verify=null keeps the record too (no headers): the same order, and a
# random job without the random map reads back each block it wrote, once,
# in offset order, as fio (iobench read nothing back there).
for t in $(tools); do
  expect_eq "$t verify=null" "$(VERIFY=null order "$t" sorted --nrfiles=3 --filesize=64k \
    --rw=write)" "1 48"
  got=$(VERIFY=null order "$t" unique --filesize=64k --rw=randwrite --norandommap)
  [[ "$got" =~ ^1\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 6 ] ||
    fail "$t verify=null norandommap: $got"
done

# verify_only reads back a sequential writer's files in the same order.
for t in $(tools); do
  rm -rf d w.log io.log && mkdir d
  job=(--name=j --directory=d --verify=crc32c --bs=4k --nrfiles=3 --filesize=64k --rw=write
    --file_service_type=random --output-format=json)
  "$(cmd "$t")" "${job[@]}" --do_verify=0 --write_iolog=w.log >out.json 2>err.txt
  expect_eq "$t writer exit" $? 0
  "$(cmd "$t")" "${job[@]}" --verify_only --write_iolog=io.log >out.json 2>err.txt
  expect_eq "$t verify_only exit" $? 0
  expect_eq "$t verify_only order" "$(python3 - w.log io.log <<'PY'
import sys
def ios(path, what):
    out = []
    for line in open(path):
        x = line.split()
        if len(x) == 5 and x[2] == what:
            out.append((x[1], int(x[3]), int(x[4])))
    return out
w, r = ios(sys.argv[1], "write"), ios(sys.argv[2], "read")
print("ok" if r == sorted(w) and len(r) == 48 else "%d reads, first %s" % (len(r), r[:4]))
PY
)" ok
done

[ "$fails" -eq 0 ]
