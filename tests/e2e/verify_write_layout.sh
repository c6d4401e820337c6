#!/usr/bin/env bash
# A write-only job with verify= is not laid out with data before it runs, as
# in fio 3.33: its own writes fill the file and the verify pass reads back
# what they wrote (fio's examples/enospc-pressure.fio relies on it).
#  - a fresh file, size=2m bs=4k fallocate=none: 512 pwrites (strace, when
#    installed), the file 2 MiB; iobench used to write the file first (514)
#  - on a 1 MiB tmpfs (root: mount), size=2m continue_on_error=write
#    ignore_error=,ENOSPC: exit 0, 512 writes of which 256 fail with ENOSPC,
#    256 verify reads of 1 MiB; iobench used to fail in the layout ("lay out
#    F: No space left on device", exit 1)
# Checked against fio on the same jobs when it is installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
. "$src/tests/e2e/fio_side.bash"
. "$src/tests/e2e/check.bash"
work=$(mktemp -d /var/tmp/iobench-verify-layout.XXXXXX)
mnt=""
cleanup() {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
# counts FILE: "exit error total_err w_ios w_bytes r_ios r_bytes" of the JSON in FILE.
counts() {
  python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.JSONDecoder().raw_decode(t[t.find("{"):])[0]["jobs"][0]
print(j["error"], j["total_err"], j["write"]["total_ios"], j["write"]["io_bytes"],
      j["read"]["total_ios"], j["read"]["io_bytes"])
PY
}

# --- a fresh file: only the job's writes ---
job=(--name=l --bs=4k --rw=write --fallocate=none --verify=crc32c --size=2m)
if command -v strace >/dev/null; then
  for t in $(tools); do
    rm -f "$work/f" "$work"/*.state
    # LeakSanitizer cannot run under ptrace (the ASan stage runs this too).
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -o "$work/strace.$t" -e trace=pwrite64 "$(cmd "$t")" "${job[@]}" \
      --filename="$work/f" --output-format=json >"$work/fresh.$t" 2>"$work/fresh.$t.err"
    expect_eq "fresh $t exit" $? 0
    expect_eq "fresh $t pwrites" "$(grep -c 'pwrite64(' "$work/strace.$t")" 512
    expect_eq "fresh $t size" "$(stat -c %s "$work/f")" 2097152
  done
else
  echo "note: strace not installed: the fresh-file pwrite count is not checked"
fi

# --- a filesystem with less room than size= ---
if [ "$(id -u)" = 0 ] && command -v mount >/dev/null; then
  mkdir "$work/mnt"
  if mount -t tmpfs -o size=1m tmpfs "$work/mnt" 2>/dev/null; then
    mnt=$work/mnt
    for t in $(tools); do
      rm -f "$mnt"/* "$work"/*.state
      timeout 60 "$(cmd "$t")" "${job[@]}" --filename="$mnt/f" --continue_on_error=write \
        --ignore_error=,ENOSPC --output-format=json >"$work/full.$t" 2>"$work/full.$t.err"
      rc=$?
      expect_eq "enospc $t exit" "$rc" 0
      grep -q "lay out" "$work/full.$t.err" && fail "enospc $t: $(head -1 "$work/full.$t.err")"
      expect_eq "enospc $t counts" "$(counts "$work/full.$t")" "28 256 512 1048576 256 1048576"
      expect_eq "enospc $t size" "$(stat -c %s "$mnt/f")" 1048576
    done
  else
    echo "note: cannot mount a tmpfs: the ENOSPC case is not checked"
  fi
else
  echo "note: not root: the ENOSPC case (a 1 MiB tmpfs) is not checked"
fi

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
