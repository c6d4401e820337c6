#!/bin/bash
# A NUL byte inside a comment refused the whole job file ("NUL byte in job
# file (is this a binary file?)"); fio 3.33 runs it, and comments may hold
# anything. Now both tools run such a file (a NUL in a trailing `;` comment
# and in a `#` line); a NUL outside a comment, a file of zeros and a binary
# file are still refused as binary files, by name.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

printf '[a]\nioengine=null\nsize=64k ; x\000y\n' >trailing.fio
printf '# x\000y\n[a]\nioengine=null\nsize=64k\n' >line.fio
for f in trailing.fio line.fio; do
  for t in $(tools); do
    "$(cmd "$t")" --output-format=terse "$f" >out 2>err
    expect_eq "$t $f: exit" "$?" 0
    [ -s err ] && fail "$t $f: stderr $(head -c 300 err)"
  done
done

refused() {  # NAME WANT-IN-STDERR FILE
  "$bin" --parse-only "$3" >out 2>err
  expect_eq "$1: exit" "$?" 2
  grep -qF -- "$2" err || fail "$1: stderr lacks '$2': $(head -c 300 err)"
  [ "$(wc -c <err)" -lt 1000 ] || fail "$1: $(wc -c <err) bytes on stderr"
}
printf '[a]\nioengine=null\nsize=64k\000 ; x\n' >value.fio
refused "NUL before the comment" "value.fio:3:9: NUL byte in job file (is this a binary file?)" \
  value.fio
head -c 1048576 /dev/zero >zeros.fio
refused "a file of zeros" "zeros.fio:1:1: NUL byte in job file (is this a binary file?)" zeros.fio
printf '\177ELF\002\001\001\000\000\000' >elf.fio
refused "an ELF header" "(is this a binary file?)" elf.fio
[ "$fails" -eq 0 ]
