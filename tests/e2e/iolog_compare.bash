# Sourced (after fio_side.bash) by the e2e scripts that compare the I/O of
# iobench's and fio's write_iolog: each tool has written TOOL.log (iob.log,
# fio.log) in the current directory.
log_offsets() { awk '$3 == "read" || $3 == "write" { printf "%g ", $4 / 1024 }' "$1"; }
log_ios() { awk '$3 == "read" || $3 == "write" { n++ } END { print n + 0 }' "$1"; }

# expect_log WANT NAME: iob.log holds WANT (offsets in KiB, or n=COUNT for
# random jobs, whose offsets differ between the tools) and, when fio's side
# runs, the same as fio.log.
expect_log() {
  local want=$1 name=$2
  case $want in
    n=*) expect_eq "$name: I/Os" "$(log_ios iob.log)" "${want#n=}" ;;
    *) expect_eq "$name: offsets" "$(log_offsets iob.log)" "$want" ;;
  esac
  if fio_side; then
    case $want in
      n=*) expect_eq "$name: I/Os as fio" "$(log_ios iob.log)" "$(log_ios fio.log)" ;;
      *) expect_eq "$name: offsets as fio" "$(log_offsets iob.log)" "$(log_offsets fio.log)" ;;
    esac
  fi
}

# check_log WANT NAME ARGS...: runs each tool (tools) with ARGS and
# --write_iolog=TOOL.log, then expect_log WANT NAME.
check_log() {
  local want=$1 name=$2 tool
  shift 2
  for tool in $(tools); do
    rm -f "$tool.log"
    "$(cmd "$tool")" "$@" --write_iolog="$tool.log" --output=/dev/null >/dev/null 2>"$tool.err" ||
      fail "$name: $tool failed: $(cat "$tool.err")"
  done
  expect_log "$want" "$name"
}
