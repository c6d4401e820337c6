#!/bin/bash
# opendir= files come before the filename= ones, as fio adds them: with
# filename=x:y opendir=od file_service_type=sequential fio issues a a x x y y
# (whatever the order of the options); iobench issued x x y y a a. Its
# files are named as written, od/a.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir od
for f in od/a x y; do head -c 8192 /dev/zero >"$f"; done
for order in "--filename=x:y --opendir=od" "--opendir=od --filename=x:y"; do
  rm -f log.txt
  # shellcheck disable=SC2086
  "$bin" --name=j --rw=read --bs=4k $order --file_service_type=sequential --write_iolog=log.txt \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$order: exit" "$?" 0
  got=$(awk '$3 == "read" { n = $2; sub(".*/", "", n); printf "%s ", n }' log.txt)
  expect_eq "$order: files read" "$got" "a a x x y y "
  # Named as written (fio's log says od/a; iobench's said /abs/path/od/a).
  expect_eq "$order: the opendir file's name in the log" \
    "$(awk '$3 == "open" { print $2; exit }' log.txt)" "od/a"
done
[ "$fails" -eq 0 ]
