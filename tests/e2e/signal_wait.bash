# Sourced by e2e scripts that signal a backgrounded iobench.
# wait_catching PID SIGNO: waits (up to 20 s) until the process catches the
# signal (its SigCgt mask has the bit), so the signal cannot arrive before
# iobench installs its handler. A background command of a non-interactive
# shell starts with SIGINT ignored: sent that early, it is lost, and the run
# goes on as if never interrupted (seen under ASan on a loaded machine,
# where start-up took more than the script's fixed sleep). Returns 1 if the
# process exited or never caught it.
wait_catching() {
  local pid=$1 bit=$(( 1 << ($2 - 1) )) mask
  for _ in $(seq 400); do
    mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
    [ -n "$mask" ] || return 1
    (( 0x$mask & bit )) && return 0
    sleep 0.05
  done
  return 1
}
