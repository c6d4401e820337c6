#!/bin/bash
# fallocate=native/posix that runs out of room partway keeps what it
# allocated (ext4; fio 3.33 leaves the same file), and the job's writes do
# the rest. The report's note said "F was not preallocated" of a file left
# 13.4 MiB long and allocated; it now says how much was: "preallocated only
# 13.4MiB of 32MiB". A call that allocates nothing still says "not".
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 16m 512 "-b 1024" ""

# notes FILE: out.json's notes about FILE, one per line.
notes() {
  python3 -c 'import json, sys
j = json.load(open("out.json"))["jobs"][0]
[print(n) for n in j["iobench"].get("notes", []) if n.startswith(sys.argv[1] + " was ")]' "$1"
}
# human BYTES: as the report prints sizes (HumanBytes: one decimal, MiB).
human() { python3 -c "v = $1 / 1048576; print(('%d' if v == int(v) else '%.1f') % v + 'MiB')"; }

for mode in native posix; do
  rm -f "$mnt/n" "$mnt/m"
  "$bin" --name=fa --filename="$mnt/n" --rw=write --size=32m --io_size=64k --bs=64k \
    --fallocate=$mode --output-format=json >out.json 2>err.txt
  expect_eq "$mode: exit" "$?" 0
  [ -s err.txt ] && fail "$mode: stderr: $(cat err.txt)"
  alloc=$(($(stat -c '%b * %B' "$mnt/n")))
  [ "$alloc" -gt $((1 << 20)) ] || fail "$mode: only $alloc bytes allocated: no partial preallocation"
  expect_eq "$mode: note" "$(notes "$mnt/n")" \
    "$mnt/n was preallocated only $(human "$alloc") of 32MiB (fallocate=$mode: $([ $mode = posix ] && echo posix_)fallocate: No space left on device); the job's writes allocate the rest"

  # The filesystem is full now: a second file gets nothing.
  "$bin" --name=fb --filename="$mnt/m" --rw=write --size=4m --io_size=64k --bs=64k \
    --fallocate=$mode --output-format=json >out.json 2>err.txt
  # (its writes may find no room either; only the note matters here)
  expect_eq "$mode: nothing allocated: note" "$(notes "$mnt/m" | sed 's/ (.*//')" "$mnt/m was not preallocated"
  # A job that does not write: the note said "the job's writes allocate it"
  # of a trim-only job.
  rm -f "$mnt/m"
  "$bin" --name=fc --filename="$mnt/m" --rw=trim --size=4m --io_size=64k --bs=64k \
    --fallocate=$mode --output-format=json >out.json 2>err.txt
  expect_eq "$mode: trim job: note" "$(notes "$mnt/m" | sed 's/.*); //')" \
    "the job does not write, so its I/O finds holes there"
done

if fio_side; then
  rm -f "$mnt/n" "$mnt/m"
  "$bin" --name=fa --filename="$mnt/n" --rw=write --size=32m --io_size=64k --bs=64k \
    --output-format=json >/dev/null 2>&1
  iob=$(stat -c '%s %b' "$mnt/n")
  rm -f "$mnt/n" "$mnt/m"
  fio --thread --name=fa --filename="$mnt/n" --rw=write --size=32m --io_size=64k --bs=64k \
    --output-format=json >/dev/null 2>&1
  expect_eq "the file left (size, blocks) as fio 3.33" "$iob" "$(stat -c '%s %b' "$mnt/n")"
fi
[ "$fails" -eq 0 ]
