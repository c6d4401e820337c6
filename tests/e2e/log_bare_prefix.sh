#!/bin/bash
# A bare write_bw_log (write_iops_log, write_lat_log, write_hist_log) turns
# the log on and keeps the prefix set before it, as fio 3.33 does: a
# [global] write_bw_log=x and a bare write_bw_log in the job write
# x_bw.1.log. The bare flag used to put the job name back (cd_bw.1.log).
# Only a value replaces the prefix; with none set the job name is used.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# Runs iobench in a fresh directory, then lists the logs it wrote.
logs() {
  rm -rf run && mkdir run && cd run || return
  "$bin" --eta=never "$@" >/dev/null 2>err || echo "exit $?: $(cat err)"
  ls -- *.log 2>/dev/null | tr '\n' ' '
  cd ..
}
head='[global]\nioengine=null\nsize=16k\n'

printf "$head"'write_bw_log=x\nwrite_iops_log=x\nwrite_lat_log=x\nwrite_hist_log=x\n[cd]\nwrite_bw_log\nwrite_lat_log\nwrite_hist_log\n' >inherit.fio
expect_eq "bare in the job keeps [global]'s prefix" "$(logs ../inherit.fio)" \
  "x_bw.1.log x_clat.1.log x_clat_hist.1.log x_iops.1.log x_lat.1.log x_slat.1.log "

printf "$head"'[cd]\nwrite_bw_log=y\nwrite_bw_log\n' >same.fio
expect_eq "bare after a value in the same section" "$(logs ../same.fio)" "y_bw.1.log "

printf "$head"'write_bw_log\n[cd]\nwrite_bw_log=y\n' >later.fio
expect_eq "a value after a bare [global] flag" "$(logs ../later.fio)" "y_bw.1.log "
expect_eq "bare on the command line after the job file's value" \
  "$(logs ../later.fio --write_bw_log)" "y_bw.1.log "

printf "$head"'write_bw_log=x\n[cd]\nwrite_bw_log=\n' >empty.fio
expect_eq "an empty value names the logs after the job" "$(logs ../empty.fio)" "cd_bw.1.log "

printf "$head"'[cd]\nwrite_bw_log\n' >bare.fio
expect_eq "bare with no prefix set" "$(logs ../bare.fio)" "cd_bw.1.log "
[ "$fails" -eq 0 ]
