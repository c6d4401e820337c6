#!/bin/bash
# ctest-labels: threads
# Job files whose meaning was checked against fio 3.33: job count, reporting
# groups and exact bytes per direction (null engine, so no device). When fio
# is installed, the same numbers are also compared with a fio run.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
src=$(readlink -f "$2")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
work=$(mktemp -d /tmp/iobench-agree.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
page=$(getconf PAGESIZE)

# summary JSON: "name/group:read,write" per job, space separated
summary() {
  python3 -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t[t.find("{"):])
print(" ".join("%s/%d:%d,%d" % (j["jobname"], j["groupid"], j["read"]["io_bytes"],
                               j["write"]["io_bytes"]) for j in d["jobs"]))'
}

# check FILE EXPECTED [ALLOWED_STDERR_REGEX [JOB OPTIONS...]]
check() {
  local name=$1 f="$src/tests/jobs/$1" want=$2 allow=${3:-}
  shift 2
  [ $# -gt 0 ] && shift
  local got err rc
  got=$("$bin" --output-format=json "$@" "$f" 2>"$work/err" | summary); rc=${PIPESTATUS[0]}
  err=$(cat "$work/err")
  if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $rc"; echo "  want: $want"; echo "  got:  $got"; echo "  stderr: $err"
    fails=$((fails + 1))
  elif [ -n "$err" ] && { [ -z "$allow" ] || ! grep -qE -- "$allow" <<<"$err"; }; then
    echo "FAIL $name: stderr on success: $err"; fails=$((fails + 1))
  else
    echo "ok   $name $*"
  fi
  if fio_side; then
    local fgot
    fgot=$(fio --output-format=json "$@" "$f" 2>/dev/null | summary 2>/dev/null)
    if [ -n "$fgot" ] && [ "$fgot" != "$want" ]; then
      echo "FAIL $name: fio $(fio --version) disagrees: $fgot"; fails=$((fails + 1))
    fi
  fi
}

check agree_lexer.fio \
  "first/0:0,65536 first/1:65536,0 third/2:131072,0 third/2:131072,0"
check agree_values.fio \
  "keyword/0:$((16 * page)),0 skip/1:24576,0 backwards/1:65536,0 units/1:3584,0 profile/1:8192,0"
# Command-line jobs run first, and the job file's first jobs join their
# group (iobench once ran them after the file, in a group of their own).
check agree_lexer.fio \
  "cli/0:65536,0 first/0:0,65536 first/1:65536,0 third/2:131072,0 third/2:131072,0" "" \
  --name=cli --ioengine=null --size=64k
[ -z "$(ls -A "$work" | grep -v '^err$')" ] || { echo "FAIL: files left in $work"; fails=$((fails + 1)); }
echo "$fails failed"
[ "$fails" -eq 0 ]
