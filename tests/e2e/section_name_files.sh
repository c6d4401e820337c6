#!/usr/bin/env bash
# `name=` inside a section renames the job, not its files, as fio 3.33 does
# (add_job makes the files from the section's name): [a] name=b is reported
# as b but writes a.0.0 (filename_format=$jobname.x: a.x), where iobench
# wrote b.0.0 and b.x. Its logs and verify state take the name b (fio's
# first clone does too). --section selects the job as a; --showcmd writes
# a line that makes the same files. Exact file names, fio alike when
# installed.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/setup.bash"

cat >n.fio <<'EOF2'
[a]
name=b
ioengine=psync
size=8k
rw=write
EOF2
{
  cat n.fio
  printf '%s\n' 'filename_format=$jobname.x' write_bw_log verify=crc32c
} >fmt.fio

# files TOOL ARGS...: runs TOOL in a fresh directory t/ and lists what it made.
files() {
  local tool=$1
  shift
  rm -rf t && mkdir t && cp ./*.fio t/
  (cd t && "$(cmd "$tool")" --output-format=terse "$@" >out 2>err) || fail "$tool $*: exit $?: $(cat t/err)"
  (cd t && ls | grep -v -e '\.fio$' -e '^out$' -e '^err$' | tr '\n' ' ')
}

for t in $(tools); do
  expect_eq "$t: [a] name=b makes a.0.0" "$(files "$t" n.fio)" "a.0.0 "
  expect_eq "$t: reported as b" "$(cut -d';' -f3 t/out)" "b"
  expect_eq "$t: filename_format=\$jobname.x is a.x, logs and state b's" "$(files "$t" fmt.fio)" \
    "a.x b_bw.1.log local-b-0-verify.state "
  expect_eq "$t: --section=a selects it" "$(files "$t" --section=a n.fio)" "a.0.0 "
done

# --showcmd's line makes the same files and the same job name.
line=$("$bin" --showcmd n.fio fmt.fio) || fail "showcmd: exit $?"
expect_eq "showcmd" "$line" "iobench --name=b --ioengine=psync --size=8k --rw=write \
'--filename_format=a.\$jobnum.\$filenum' --name=b --stonewall --ioengine=psync --size=8k \
--rw=write '--filename_format=\$jobname.x' --write_bw_log --verify=crc32c --filename_format=a.x"
eval "set -- ${line#iobench }"
# The second job's state is numbered by its place in the run, as its bw log
# (fio n.fio fmt.fio: b_bw.2.log, local-b-1-verify.state).
expect_eq "showcmd line's files" "$(files iob "$@")" "a.0.0 a.x b_bw.2.log local-b-1-verify.state "
expect_eq "showcmd line's jobs" "$(cut -d';' -f3 t/out | tr '\n' ' ')" "b b "
[ "$fails" -eq 0 ]
