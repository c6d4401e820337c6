# Sourced by tests/e2e/verify_*.sh (not a test itself: ctest runs *.sh only).
# $1: iobench binary, $2: source dir. Makes a temp dir on $VERIFY_FS (default
# /var/tmp, ext4 here) and cd's there: state and dump files land in the cwd.
# The common preamble (setup.bash) on $VERIFY_FS; its counting fail() is
# replaced below by one that stops the script.
E2E_FS=${VERIFY_FS:-/var/tmp}
source "$(dirname "${BASH_SOURCE[0]}")/setup.bash"

fail() {
  echo "FAIL: $*"
  for f in out.json err.txt; do [ -f "$f" ] && { echo "--- $f"; head -c 3000 "$f"; echo; }; done
  exit 1
}

# run ARGS...: runs iobench with JSON output into out.json, stderr into
# err.txt; sets $rc.
run() {
  "$bin" "$@" --output-format=json >out.json 2>err.txt
  rc=$?
}

# jget EXPR: evaluates a Python expression over `doc` (the JSON of out.json).
jget() {
  python3 -c 'import json,sys; doc=json.load(open("out.json")); print(eval(sys.argv[1]))' "$1"
}

# engine_ok NAME: the engine is usable on this machine (--list-engines).
engine_ok() {
  "$bin" --name=probe --ioengine="$1" --filename="$tmp/probe" --size=64k --rw=read \
    --output-format=json >/dev/null 2>&1
  local r=$?
  rm -f "$tmp/probe"
  return $r
}

# flip FILE OFFSET: inverts one byte.
flip() {
  python3 - "$1" "$2" <<'PY'
import sys
path, off = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ 0xff]))
PY
}
