#!/bin/bash
# End to end: a file name from opendir= holding an escape sequence reaches
# stderr escaped. The verify failure (and the error_dump line, the unlink
# warning, the verify_state_save error) printed the name as it is, so the
# terminal ran the sequence (here: "turn red") instead of showing the name.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
mkdir d
name=$'d/f\033[31mred'
head -c 65536 /dev/zero >"$name"
common=(--name=w --opendir=d --size=64k --bs=4k --verify=crc32c --output-format=terse)
"$bin" "${common[@]}" --rw=write --do_verify=0 >/dev/null 2>w.err ||
  fail "write pass: $(cat -A w.err)"
printf 'XXXX' | dd of="$name" bs=1 seek=8192 conv=notrunc 2>/dev/null
"$bin" "${common[@]}" --rw=write --verify_only=1 >/dev/null 2>v.err
expect_eq "verify_only exit" "$?" 1
grep -q 'verify: d/f\\x1b\[31mred: corrupted block at offset 8192' v.err ||
  fail "verify failure does not name the escaped file: $(cat -A v.err)"
if grep -q $'\033' v.err; then fail "raw escape byte on stderr: $(cat -A v.err)"; fi
[ "$fails" -eq 0 ]
