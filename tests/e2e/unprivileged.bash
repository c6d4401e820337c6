# Sourced by e2e scripts that need a user whom permissions stop (a directory
# it cannot write, a file it cannot open). unprivileged_workdir MODE makes
# $work (a temp directory, removed at exit, whatever the tests made
# read-only in it) and sets the array `as` to the command prefix: setpriv to
# nobody when root (root may write anything), opening $work to nobody with
# chmod MODE; nothing otherwise. Exits 77 when root has no setpriv.
unprivileged_workdir() {
  as=()
  if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null; then
    echo "skip: root without setpriv"
    exit 77
  fi
  work=$(mktemp -d)
  trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
  [ "$(id -u)" -eq 0 ] || return 0
  as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  chmod "$1" "$work"
}
