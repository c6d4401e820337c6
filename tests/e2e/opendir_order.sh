#!/bin/bash
# opendir= files take their place in the job's file list as fio 3.33 adds
# them: in a job file's section before the filename= ones, whatever the
# order written (fio parses filename= after the section's other options),
# on the command line in the order written. With filename=x:y opendir=od
# file_service_type=sequential fio issues a a x x y y in a job file, and
# x x y y a a for --filename=x:y --opendir=od (iobench issued a a x x y y
# for both). Its files are named as written, od/a.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir od
for f in od/a x y; do head -c 8192 /dev/zero >"$f"; done
files_read() { awk '$3 == "read" { n = $2; sub(".*/", "", n); printf "%s ", n }' log.txt; }
for order in "--filename=x:y --opendir=od" "--opendir=od --filename=x:y"; do
  rm -f log.txt
  # shellcheck disable=SC2086
  "$bin" --name=j --rw=read --bs=4k $order --file_service_type=sequential --write_iolog=log.txt \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$order: exit" "$?" 0
  case $order in
    --filename*) want="x x y y a a " ;;
    *) want="a a x x y y " ;;
  esac
  expect_eq "$order: files read" "$(files_read)" "$want"
  # Named as written (fio's log says od/a; iobench's said /abs/path/od/a).
  expect_eq "$order: the opendir file's name in the log" \
    "$(awk '$3 == "open" && $2 ~ /a$/ { print $2; exit }' log.txt)" "od/a"
done
for lines in "filename=x:y\nopendir=od" "opendir=od\nfilename=x:y"; do
  rm -f log.txt
  printf "[j]\nrw=read\nbs=4k\nfile_service_type=sequential\n$lines\n" >j.fio
  "$bin" j.fio --write_iolog=log.txt --output-format=terse >/dev/null 2>err.txt
  expect_eq "job file, $lines: exit" "$?" 0
  expect_eq "job file, $lines: files read" "$(files_read)" "a a x x y y "
done
[ "$fails" -eq 0 ]
