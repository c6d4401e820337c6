#!/usr/bin/env bash
# ctest-cost: 30
# Which files numjobs clones get, and how a job's file names are read, as
# fio 3.33 does (bytes per job from the JSON report, iobench and fio alike):
#  - a clone after the first gets none of the names from filename_format
#    that a job with numjobs > 1 took before it (fio's add_file "clean
#    cloned siblings"): --numjobs=2 --filename_format=fixed moves 8 KiB, not
#    16; such a clone reports zeros and says why, in every report format;
#    filename= is shared by all clones, non-regular files are kept
#  - filename_format keywords in any case ($JOBNAME), as fio's strcasestr
#  - directory= skips empty parts (x::y, x:); none left is refused
#  - filename=- (fio's stdin/stdout) is refused, naming option and line
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/setup.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

# bytes TOOL ARGS...: "r/w" bytes of each job, in report order.
bytes() {
  local tool=$1
  shift
  "$tool" --output-format=json "$@" 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
print(" ".join("%d/%d" % (j["read"]["io_bytes"], j["write"]["io_bytes"])
               for j in json.loads(t[t.find("{"):])["jobs"]))'
}

cat >man.fio <<'EOF'
[global]
filename_format=testfiles.$filenum
nrfiles=2
size=16k
[w]
rw=write
[r]
rw=read
stonewall
numjobs=2
EOF

# args | bytes per job as fio 3.33 reports them
while IFS='|' read -r args want; do
  for t in $(tools); do
    rm -rf "$t" && mkdir -p "$t/x" "$t/y" "$t/sub" && cp man.fio "$t/"
    # shellcheck disable=SC2086
    got=$(cd "$t" && bytes "$(cmd $t)" --bs=4k --ioengine=psync $args)
    [ "$got" = "$want" ] || fail "$t: $args: got '$got', want '$want': $(cat "$t/err")"
  done
done <<'EOF'
--name=j --size=8k --rw=write --numjobs=2 --filename_format=fixed|0/8192 0/0
--name=j --size=8k --rw=write --numjobs=2 --filename_format=fixed --ioengine=null|0/8192 0/0
man.fio|0/16384 16384/0 0/0
--name=j --size=8k --rw=write --numjobs=4 --filename_format=f --directory=x:y|0/8192 0/8192 0/0 0/8192
--name=a --size=8k --rw=write --numjobs=2 --filename_format=f --name=b --size=8k --rw=write --numjobs=2 --filename_format=f|0/8192 0/0 0/8192 0/0
--name=a --size=8k --rw=write --filename_format=f --name=b --size=8k --rw=write --numjobs=2 --filename_format=f|0/8192 0/8192 0/0
--name=a --size=8k --rw=write --numjobs=2 --filename=f1 --name=b --size=8k --rw=write --numjobs=2 --filename_format=f$jobnum|0/8192 0/8192 0/8192 0/0
--name=a --size=8k --rw=write --filename=f1 --numjobs=2 --name=b --size=8k --rw=write --numjobs=2 --filename_format=f$jobnum|0/8192 0/8192 0/8192 0/8192
--name=j --size=8k --rw=write --numjobs=2 --filename=fixed|0/8192 0/8192
--name=j --size=8k --rw=write --numjobs=2 --filename_format=/dev/null|0/8192 0/8192
--name=a --size=8k --rw=write --numjobs=2 --filename_format=sub/g0 --name=b --directory=.:sub --filename_format=g$filenum --nrfiles=2 --size=16k --numjobs=2 --rw=write|0/8192 0/0 0/16384 0/16384
--name=j --size=8k --rw=write --numjobs=2 --filename_format=$JOBNAME.$JobNum|0/8192 0/8192
--name=j --size=4k --rw=write --numjobs=4 --filename_format=f$jobnum --directory=x::y|0/4096 0/4096 0/4096 0/4096
--name=j --size=4k --rw=write --numjobs=2 --filename_format=f$jobnum --directory=x:|0/4096 0/4096
EOF

# Where the files went (the last two runs above, and $JOBNAME).
for t in $(tools); do
  rm -rf "$t" && mkdir -p "$t/x" "$t/y"
  (cd "$t" && "$(cmd $t)" --name=j --size=4k --rw=write --numjobs=2 '--filename_format=$JOBNAME.$JobNum' \
    --output-format=terse >/dev/null 2>err &&
    "$(cmd $t)" --name=k --size=4k --rw=write --numjobs=4 '--filename_format=f$jobnum' \
      --directory=x::y --output-format=terse >/dev/null 2>err &&
    "$(cmd $t)" --name=k --size=4k --rw=write --numjobs=2 '--filename_format=g$jobnum' \
      --directory=:y: --output-format=terse >/dev/null 2>err) || fail "$t: files runs: $(cat "$t/err")"
  got=$(cd "$t" && find . -type f ! -name err | sort | tr '\n' ' ')
  want="./j.0 ./j.1 ./x/f0 ./x/f2 ./y/f1 ./y/f3 ./y/g0 ./y/g1 "
  [ "$got" = "$want" ] || fail "$t: files '$got', want '$want'"
done

# A clone with no file: zeros and a note in every format, no crash.
rm -rf iob && mkdir iob && cd iob || exit 1
"$bin" --name=j --size=64k --rw=randwrite --bs=4k --numjobs=2 --filename_format=fixed \
  --output-format=normal,terse,json+,table --write_bw_log=l --write_lat_log=l --write_iops_log=l \
  --log_avg_msec=100 --time_based --runtime=1500ms --status-interval=1 --rate_iops=2000 --fsync=2 \
  >out 2>err || fail "no-file clone: exit $?: $(cat err)"
[ ! -s err ] || fail "no-file clone: stderr: $(cat err)"
grep -qF "note: file fixed belongs to this job's first clone: as fio" out ||
  fail "no-file clone: no note: $(head -c 2000 out)"
grep -qF "this clone has no file and did no I/O" out || fail "no-file clone: note: $(head -c 2000 out)"
"$bin" --name=j --size=64k --rw=randwrite --bs=4k --numjobs=2 --filename_format=fixed \
  --group_reporting --output-format=normal,json >out 2>err || fail "group_reporting: exit $?: $(cat err)"
grep -qF 'WRITE: bw=' out || fail "group_reporting: $(head -c 2000 out)"
cd .. || exit 1

# Refused: filename=- and a directory= with no part, naming option and line.
printf '[j]\nsize=4k\nrw=write\nfilename=a:-\n' >dash.fio
mkdir -p d
printf '[j]\nsize=4k\nrw=write\ndirectory=:\n' >nodir.fio
while IFS='|' read -r args msg; do
  # shellcheck disable=SC2086
  "$bin" $args >out 2>err && fail "$args: accepted"
  grep -qF -- "$msg" err || fail "$args: message: $(cat err)"
  [ ! -e ./- ] && [ ! -e d/- ] || fail "$args: created a file -"
done <<'EOF'
dash.fio|dash.fio:4:10: option 'filename': '-' is standard input/output in fio
--name=j --size=4k --filename=- --directory=d|option 'filename': '-' is standard input/output in fio
nodir.fio|nodir.fio:4:11: option 'directory': directory=: names no directory
--name=j --size=4k --directory=::|option 'directory': directory=:: names no directory
EOF

[ "$fails" = 0 ] || exit 1
echo "job file names: ok"
