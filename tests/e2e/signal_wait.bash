# Sourced by e2e scripts that signal a backgrounded iobench ($bin).
# wait_catching PID SIGNO: waits (up to 20 s) until PID runs $bin and catches
# the signal (its SigCgt mask has the bit), so the signal cannot arrive before
# iobench installs its handler. A background command of a non-interactive
# shell starts with SIGINT ignored: sent that early, it is lost, and the run
# goes on as if never interrupted (seen under ASan on a loaded machine,
# where start-up took more than the script's fixed sleep). Until it execs,
# the background process is a fork of the script's own bash, with the
# script's handlers (an EXIT trap makes bash catch SIGHUP, SIGINT and
# SIGTERM): the mask alone said "caught" there, and a SIGHUP in that window
# ran the script's EXIT trap in the fork, which removed the work directory
# (seen in CI). So the process must first show $bin as its executable.
# Returns 1 if the process exited or never caught it.
wait_catching() {
  local pid=$1 bit=$(( 1 << ($2 - 1) )) mask want exe
  want=$(readlink -f "$bin")
  for _ in $(seq 400); do
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || return 1
    if [ "$exe" = "$want" ]; then
      mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
      [ -n "$mask" ] || return 1
      (( 0x$mask & bit )) && return 0
    fi
    sleep 0.05
  done
  return 1
}
