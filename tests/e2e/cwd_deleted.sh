#!/usr/bin/env bash
# Relative outputs when the current directory was deleted while iobench sat
# in it: access(".", W_OK) still succeeds there, and open() of a new name
# fails (ENOENT). --output was found unwritable only after the run (fio
# 3.33: "output file open error", exit 1, before the run); the run is
# refused before it starts, exit 2, naming the option and the reason. The
# job's file and the logs, found at open, say the reason too.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
source "$(dirname "$0")/check.bash"
bin=$(realpath "$1")
tmp=$(mktemp -d /tmp/iobench_cwd_deleted.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
truncate -s 1m "$tmp/f"

# Runs iobench in a directory deleted under it: exit code and stderr.
in_deleted() {
  mkdir "$tmp/gone"
  (cd "$tmp/gone" && rmdir "$tmp/gone" && exec "$bin" "$@") >"$tmp/out" 2>"$tmp/err"
  echo $?
}
file=(--name=t --filename="$tmp/f" --rw=read --size=1m --runtime=30 --time_based)
for opt in --output=o.json --plot=p.png; do
  extra=()
  [ "$opt" = --plot=p.png ] && extra=(--sweep bs=4k,8k)
  rc=$(in_deleted "${file[@]}" "$opt" "${extra[@]}")
  expect_eq "$opt: exit" "$rc" 2
  expect_eq "$opt: message" "$(cat "$tmp/err")" \
    "iobench: $opt: the current directory was deleted; give an absolute path or run from an existing directory"
  expect_eq "$opt: no report" "$(wc -c <"$tmp/out")" 0
done
rc=$(in_deleted --name=t --filename=f --rw=read --size=1m)
expect_eq "relative filename: exit" "$rc" 2
grep -q "create f (the current directory was deleted)" "$tmp/err" || fail "filename: $(cat "$tmp/err")"
rc=$(in_deleted "${file[@]}" --runtime=1 --write_bw_log=x)
expect_eq "write_bw_log: exit" "$rc" 2
grep -q "open log file x_bw.1.log (the current directory was deleted)" "$tmp/err" ||
  fail "write_bw_log: $(cat "$tmp/err")"
# verify_state_save goes to the current directory at the job's end: a
# warning there, as fio 3.33's, the run goes on; its prefix said once.
rc=$(in_deleted --name=t --filename="$tmp/f" --rw=write --size=64k --verify=crc32c --output-format=terse)
expect_eq "verify_state_save: exit" "$rc" 0
expect_eq "verify_state_save: message" "$(cat "$tmp/err")" \
  "iobench: job 't': verify_state_save: open local-t-0-verify.state.tmp: No such file or directory"
# An absolute --output is fine there.
rc=$(in_deleted "${file[@]}" --runtime=1 --output="$tmp/o.json" --output-format=json)
expect_eq "absolute --output: exit" "$rc" 0
[ -s "$tmp/o.json" ] || fail "absolute --output: no report"
[ "$fails" -eq 0 ]
