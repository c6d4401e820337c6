#!/bin/bash
# Started with stdout, stderr or stdin closed (cron, daemons, `>&-`), iobench
# must not write its own text into the files it benchmarks. The first file
# it opened used to take the free descriptor: the status line ("Jobs: ..."),
# interim reports and error messages landed at offset 0 of a write job's
# target, and verify then failed on iobench's own text. fio leaves the data
# alone. Each case writes a 0xAA pattern and checks every byte is still 0xAA.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# only_pattern FILE BYTES: FILE holds BYTES bytes, every one 0xAA.
only_pattern() {
  local size other
  size=$(stat -c %s "$1")
  other=$(tr -d '\252' <"$1" | wc -c)
  [ "$size" -eq "$2" ] && [ "$other" -eq 0 ]
}

job=(--name=j --bs=4k --size=1m --rw=write --buffer_pattern=0xAA --rate=1m --eta=always
  --eta-interval=250ms)

# stdout closed: the status line and the report have nowhere to go; the
# report's own error path says so on stderr (exit 1), the file is intact.
"$bin" "${job[@]}" --filename=out.dat >&- 2>err.txt
expect_eq "stdout closed: exit" "$?" 1
only_pattern out.dat 1048576 || fail "stdout closed: iobench's text in the target: $(head -c 64 out.dat | od -c | head -2)"
grep -q "cannot write the report to stdout" err.txt || fail "stdout closed: stderr: $(cat err.txt)"

# Interim reports every 250 ms with stdout closed.
"$bin" "${job[@]}" --filename=status.dat --status-interval=250ms >&- 2>/dev/null
only_pattern status.dat 1048576 || fail "status-interval, stdout closed: text in the target"

# stderr closed: an error printed mid-run went to fd 2, into the target. The
# run's descriptors 0-2 must not be the target while it runs.
"$bin" --name=long --bs=4k --size=1m --rw=write --filename=long.dat --time_based --runtime=30 \
  --eta=never <&- >&- 2>&- &
pid=$!
for _ in $(seq 200); do [ -e long.dat ] && break; sleep 0.05; done
sleep 0.3
for fd in 0 1 2; do
  target=$(readlink "/proc/$pid/fd/$fd" 2>/dev/null)
  expect_eq "all closed: descriptor $fd" "$target" /dev/null
done
kill -INT $pid
wait $pid
"$bin" --name=bad --ioengine=nope --filename=err.dat --size=4k 2>&- >/dev/null
expect_eq "stderr closed, bad engine: exit" "$?" 2
[ -e err.dat ] && fail "stderr closed: a refused run created its target"

# stdout and stderr closed together, with verify: the run's own text used to
# turn into a verify failure ("bad magic 0x73626f4a", that is "Jobs").
"$bin" --name=v --bs=4k --size=1m --rw=write --rate=2m --verify=crc32c --eta=always \
  --eta-interval=250ms --filename=verify.dat >&- 2>&-
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 0 ] || fail "stdout+stderr closed, verify: exit $rc"
"$bin" --name=v --bs=4k --size=1m --rw=read --verify=crc32c --verify_only=1 \
  --filename=verify.dat --output-format=terse >check.txt 2>check.err
expect_eq "stdout+stderr closed, verify: the file verifies afterwards" "$?" 0

# stdin closed as well: the run works and leaves the data alone.
"$bin" "${job[@]}" --filename=in.dat <&- >/dev/null 2>&1
expect_eq "stdin closed: exit" "$?" 0
only_pattern in.dat 1048576 || fail "stdin closed: text in the target"

# A job file from stdin ('-') that cannot be read is an error, not an empty
# job file ("the job files define no jobs").
"$bin" --parse-only - <&- >/dev/null 2>err.txt
expect_eq "job file '-', stdin closed: exit" "$?" 2
grep -q "cannot read the job file from stdin ('-'): Bad file descriptor" err.txt ||
  fail "stdin closed: $(cat err.txt)"
"$bin" --parse-only - <. >/dev/null 2>err.txt
expect_eq "job file '-', stdin a directory: exit" "$?" 2
grep -q "^iobench: job file from stdin ('-') is a directory$" err.txt ||
  fail "stdin a directory: $(cat err.txt)"
# A stdin that never ends is read up to a bound, as a job file is, not
# until memory runs out (2.1 GB in 4.8 s from /dev/full).
"$bin" --parse-only - </dev/full >/dev/null 2>err.txt
expect_eq "job file '-', stdin /dev/full: exit" "$?" 2
grep -q "^iobench: job file from stdin ('-'): a character device that reads NUL bytes, not a job file's text$" err.txt ||
  fail "stdin /dev/full: $(cat err.txt)"
yes | "$bin" --parse-only - >/dev/null 2>err.txt
expect_eq "job file '-', stdin an endless pipe: exit" "${PIPESTATUS[1]}" 2
grep -q "^iobench: job file from stdin ('-') is larger than 64 MiB (a pipe that does not end?)$" err.txt ||
  fail "stdin an endless pipe: $(cat err.txt)"

[ "$fails" -eq 0 ] && echo "ok: no closed standard descriptor lets iobench write into a target"
[ "$fails" -eq 0 ]
