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
