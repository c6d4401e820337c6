# Sourced by e2e scripts that count failures and go on: fail MESSAGE
# prints it and counts it in $fails; expect_eq NAME GOT WANT says ok or
# fails. The script ends with `[ "$fails" -eq 0 ]` (or prints the count).
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
expect_eq() {  # NAME GOT WANT
  if [ "$2" = "$3" ]; then echo "ok   $1 ($2)"; else fail "$1: got '$2', want '$3'"; fi
}
