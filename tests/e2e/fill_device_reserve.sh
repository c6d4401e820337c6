#!/bin/bash
# fill_device=1 as root on ext4 fills the blocks ext4 keeps for root too
# (mkfs's -m, 5% by default): root can write them, fio 3.33 does, and ends
# at ENOSPC. iobench sized the job by statvfs's f_bavail, which leaves them
# out: on a 24 MiB ext4 it wrote 311 64k blocks where fio wrote 329 and the
# file system was left with 1.2 MiB free and no ENOSPC. As an unprivileged
# user f_bavail is all there is, and the run is sized by it.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 24m 512 "-m 5" ""

"$bin" --name=f --filename="$mnt/f" --rw=write --bs=64k --fill_device=1 \
  --output-format=json >out.json 2>err.txt
expect_eq "exit" "$?" 0
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
# Full: the run went on to the write that found no space (ENOSPC, which
# the note reports); sized by f_bavail it stopped short, no note. (ext4
# keeps some blocks even from root: bfree is not 0 after fio's run either.)
free=$(python3 -c "import os; s = os.statvfs('$mnt'); print(s.f_bfree * s.f_frsize)")
python3 - out.json <<'PY' || fail "no 'filesystem was full' note"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert any("the filesystem was full" in n for n in j["iobench"].get("notes", [])), j["iobench"]
PY
iob=$(python3 -c "import json; j = json.load(open('out.json'))['jobs'][0]; print(j['write']['io_bytes'])")
[ "$iob" -eq "$(stat -c %s "$mnt/f")" ] || fail "io_bytes $iob, file $(stat -c %s "$mnt/f")"
[ "$fails" -eq 0 ] && echo "ok   root fills ext4's reserved blocks ($iob bytes, $free left)"

if fio_side; then
  rm -f "$mnt/f"
  fio --name=f --filename="$mnt/f" --rw=write --bs=64k --fill_device=1 --output-format=json \
    >fio.json 2>/dev/null
  fiob=$(python3 -c "import json; j = json.load(open('fio.json'))['jobs'][0]; print(j['write']['io_bytes'])")
  expect_eq "bytes as fio 3.33" "$iob" "$fiob"
fi
[ "$fails" -eq 0 ]
