# shellcheck shell=bash
# The end-to-end scripts' one way to record a check: check NAME CONDITION-COMMAND... runs the condition and prints
# PASS or FAIL with the name; a failure also prints the last command's exit code ($code) and the start of its standard
# output and error ($out and $err). The caller sets out, err and code, and reads passed and failed at the end.
passed=0
failed=0
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name (exit $code)"
    sed 's/^/  stdout: /' "$out" | head -20
    sed 's/^/  stderr: /' "$err" | head -20
    failed=$((failed + 1))
  fi
}
