#!/usr/bin/env bash
# A --plot script that cannot be written says why and leaves nothing: on a
# full file system it said "--plot: cannot write p.gp" with no reason and
# left a 0-byte p.gp. The file size limit stands in for the full file
# system (SIGXFSZ ignored, so write(2) fails with EFBIG).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

run() {
  (
    trap '' XFSZ
    ulimit -f 0
    "$bin" --name=s --ioengine=null --size=1m --sweep iodepth=1,2 --plot=p.svg >/dev/null
    echo "rc=$?"
  ) 2>&1
}
out=$(run)
case $out in
  *"iobench: --plot: cannot write p.gp: File too large"*"rc=1") echo "ok   EFBIG named, exit 1" ;;
  *) fail "--plot under ulimit -f 0: want the reason and exit 1, got '$out'" ;;
esac
[ -e p.gp ] && fail "--plot left the script it could not write ($(stat -c %s p.gp) bytes)"

[ "$fails" -eq 0 ] || exit 1
echo "plot write error: ok"
