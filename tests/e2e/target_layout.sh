#!/usr/bin/env bash
# Laying out files as fio 3.33 does, on tmpfs and ext4, checked on iobench
# alone and, when fio is installed, against fio on the same job:
#  - the directories in filename= / filename_format= are created (0700);
#    a directory= that does not exist is refused, and nothing is created
#  - directory= takes '\:' for a literal colon, as filename= does
#  - size=N% with an offset ends at the file's end: the file is not grown
#  - a write-only job's file is what its fallocate mode and its writes make
#    it (none and keep leave only what was written), also on a full tmpfs
# $1: iobench binary, $2: source dir.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
. "$src/tests/e2e/fio_side.bash"
dirs=()
mnt=""
cleanup() {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  rm -rf "${dirs[@]}"
}
trap cleanup EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
xfile() { python3 -c "open('$1','wb').write(b'x'*$2)"; }
size() { stat -c %s "$1" 2>/dev/null || echo missing; }

for base in /dev/shm /var/tmp; do
  work=$(mktemp -d "$base/iobench-layout.XXXXXX") || continue
  dirs+=("$work")
  fs="$base ($(stat -f -c %T "$work"))"

  # --- directories in a file's name ---
  for t in $(tools); do
    mkdir "$work/$t"
    cat >"$work/$t/job.fio" <<'EOF'
[first]
ioengine=psync
bs=4k
size=64k
rw=write
filename=first.dat
[a]
ioengine=psync
bs=4k
size=64k
rw=write
filename=sub1/sub2/f
[r]
ioengine=psync
bs=4k
size=32k
rw=read
numjobs=2
nrfiles=2
filename_format=$jobnum/$jobname-$filenum
EOF
    (cd "$work/$t" && $(cmd $t) --output-format=terse job.fio >/dev/null 2>"$work/err") ||
      fail "$fs: $t: dirs job: exit $?: $(cat "$work/err")"
    (cd "$work/$t" && find . -mindepth 1 ! -name job.fio -printf '%M %s %p\n' | sort >"../$t.tree")
  done
  want='-rw-r--r-- 16384 ./0/r-0
-rw-r--r-- 16384 ./0/r-1
-rw-r--r-- 16384 ./1/r-0
-rw-r--r-- 16384 ./1/r-1
-rw-r--r-- 65536 ./first.dat
-rw-r--r-- 65536 ./sub1/sub2/f
drwx------ 4096 ./0
drwx------ 4096 ./1
drwx------ 4096 ./sub1
drwx------ 4096 ./sub1/sub2'
  # Directory sizes differ by filesystem (tmpfs: entries x 20 + 40): compare modes and names.
  norm() { sed -E 's/^(d[^ ]*) [0-9]+ /\1 D /' "$1" | sort; }
  [ "$(norm "$work/iob.tree")" = "$(echo "$want" | norm /dev/stdin)" ] ||
    fail "$fs: iobench's files: $(cat "$work/iob.tree")"
  if fio_side; then
    [ "$(norm "$work/iob.tree")" = "$(norm "$work/fio.tree")" ] ||
      fail "$fs: files differ from fio's: $(diff "$work/fio.tree" "$work/iob.tree")"
  fi

  # --- directory= must exist: refused, nothing created ---
  for t in $(tools); do
    $(cmd $t) --name=d --ioengine=psync --rw=write --bs=4k --size=16k \
      --directory="$work/$t.nodir/x" --output-format=terse >/dev/null 2>"$work/err"
    rc=$?
    [ $rc -ne 0 ] || fail "$fs: $t: a missing directory= was accepted"
    [ -e "$work/$t.nodir" ] && fail "$fs: $t: created the missing directory="
  done
  grep -qF "job 'd': directory=$work/iob.nodir/x (<cmdline>): No such file or directory" "$work/err" ||
    { fio_side || fail "$fs: message: $(cat "$work/err")"; }

  # --- directory= with an escaped colon ---
  for t in $(tools); do
    mkdir "$work/$t.d1:x"
    $(cmd $t) --name=a --ioengine=psync --rw=write --bs=4k --size=16k \
      "--directory=$work/$t.d1\\:x" --output-format=terse >/dev/null 2>"$work/err" ||
      fail "$fs: $t: directory=d1\\:x: $(cat "$work/err")"
    [ "$(size "$work/$t.d1:x/a.0.0")" = 16384 ] ||
      fail "$fs: $t: directory=d1\\:x: $(ls -R "$work" | head -20)"
  done

  # --- size=N% with an offset ends at the file's end ---
  while IFS='|' read -r opts want; do
    for t in $(tools); do
      xfile "$work/$t.p2" 65536
      got=$(job_counts "$work/err" "$(cmd $t)" --name=p --ioengine=psync --rw=read --bs=4k \
        --filename="$work/$t.p2" $opts)
      [ "$got" = "$want" ] || fail "$fs: $t: $opts: got '$got', want '$want' $(cat "$work/err")"
      [ "$(size "$work/$t.p2")" = 65536 ] || fail "$fs: $t: $opts: file is now $(size "$work/$t.p2") bytes"
    done
  done <<'EOF'
--offset=40k --size=50%|0 6 24576 0 0 0
--offset=90% --size=10%|0 1 4096 0 0 0
--offset=8k --size=100%|0 14 57344 0 0 0
--size=50%|0 8 32768 0 0 0
EOF

  # --- a write-only job's file: the fallocate mode and the writes ---
  while read -r mode want; do
    for t in $(tools); do
      rm -f "$work/$t.fa"
      got=$(job_counts "$work/err" "$(cmd $t)" --name=w --ioengine=psync --rw=write --bs=4k --size=64k \
        --number_ios=2 --fallocate="$mode" --filename="$work/$t.fa")
      [ "$got" = "0 0 0 2 8192 0" ] || fail "$fs: $t: fallocate=$mode: got '$got' $(cat "$work/err")"
      [ "$(size "$work/$t.fa")" = "$want" ] ||
        fail "$fs: $t: fallocate=$mode leaves $(size "$work/$t.fa") bytes, want $want"
    done
  done <<'EOF'
none 8192
keep 8192
truncate 65536
native 65536
posix 65536
EOF
done

# --- a full tmpfs (root: a 256 KiB mount): the file ends where the writes
# stopped (ENOSPC), not at the size the job asked for ---
if [ "$(id -u)" = 0 ] && command -v mount >/dev/null; then
  work=$(mktemp -d /var/tmp/iobench-layout-full.XXXXXX)
  dirs+=("$work")
  mkdir "$work/mnt"
  if mount -t tmpfs -o size=256k tmpfs "$work/mnt" 2>/dev/null; then
    mnt=$work/mnt
    for t in $(tools); do
      rm -f "$mnt"/*
      $(cmd $t) --name=w --ioengine=psync --rw=write --bs=4k --size=512k \
        --filename="$mnt/$t.full" --output-format=terse >/dev/null 2>&1
      eval "full_$t=$(size "$mnt/$t.full")"
    done
    # tmpfs may keep a page or two for itself: at most the 256 KiB it has.
    [ "$full_iob" -le 262144 ] 2>/dev/null || fail "full tmpfs: iobench left $full_iob bytes"
    if fio_side; then
      [ "$full_iob" = "$full_fio" ] || fail "full tmpfs: iobench left $full_iob bytes, fio $full_fio"
    fi
  else
    echo "note: cannot mount a tmpfs: the full-filesystem case is not checked"
  fi
fi

[ $fails = 0 ] || exit 1
echo "target layout: ok"
