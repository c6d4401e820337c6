# Sourced by e2e scripts that count failures and go on: fail MESSAGE
# prints it and counts it in $fails; expect_eq NAME GOT WANT says ok or
# fails. The script ends with `[ "$fails" -eq 0 ]` (or prints the count).
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
expect_eq() {  # NAME GOT WANT
  if [ "$2" = "$3" ]; then echo "ok   $1 ($2)"; else fail "$1: got '$2', want '$3'"; fi
}
# expect_run NAME WANT_RC STDERR_REGEX -- CMD...: runs CMD in $work (at most
# 30 s; its output in $work/out and $work/err), checks its exit code
# (WANT_RC, or "nonzero": any failure short of a signal) and, unless the
# regex is empty, that stderr matches it. Returns 1 when it failed.
expect_run() {
  local name=$1 want=$2 regex=$3
  shift 4
  (cd "$work" && timeout 30 "$@") >"$work/out" 2>"$work/err"
  local rc=$?
  local ok=1
  if [ "$want" = "nonzero" ]; then
    [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || ok=""
  else
    [ "$rc" -eq "$want" ] || ok=""
  fi
  [ -z "$ok" ] && fail "$name: exit $rc, want $want ($(head -c 400 "$work/err"))" && return 1
  if [ -n "$regex" ] && ! grep -qE -- "$regex" "$work/err"; then
    fail "$name: stderr does not match /$regex/: $(head -c 400 "$work/err")"
    return 1
  fi
  echo "ok   $name (exit $rc)"
}
# drop_file_cache FILE...: writes the files' dirty pages back and drops
# their page cache (POSIX_FADV_DONTNEED through dd). Tests never write to
# /proc/sys/vm/drop_caches: that drops every file's cache, and the tests
# running beside this one measure theirs.
drop_file_cache() {
  local f
  sync -- "$@" || fail "sync $*"
  for f; do
    dd if="$f" iflag=nocache count=0 status=none || fail "drop the cache of $f"
  done
}
# interim_errors FILE: the JSON documents one after another in FILE (a
# --status-interval run's interim and final reports), one line per
# document: "name:error" of each job, in order ("a:0 b:20 c:0").
interim_errors() {
  python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
dec, i = json.JSONDecoder(), 0
while (j := s.find("{", i)) >= 0:
    d, i = dec.raw_decode(s, j)
    print(" ".join(f'{x["jobname"]}:{x["error"]}' for x in d["jobs"]))
PY
}
# expect_interim NAME FILE WANT: FILE holds at least 2 reports, each with
# WANT from interim_errors.
expect_interim() {
  local got
  got=$(interim_errors "$2") || { fail "$1: $(head -c 300 "$2")"; return 1; }
  [ "$(wc -l <<<"$got")" -ge 2 ] || fail "$1: want >= 2 reports: $got"
  [ -z "$(grep -vxF -- "$3" <<<"$got")" ] || fail "$1: want '$3' in each: $got"
}
