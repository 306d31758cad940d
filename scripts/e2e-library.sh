#!/usr/bin/env bash
# End-to-end check of docs/library.md as a newcomer follows it: a fresh Maven project made of the page's two files
# (its blocks marked "project-file: PATH"), built and run with the page's commands (the block marked "project-run"),
# against the Gantry artifacts of this checkout, which it first installs into a private local repository. Its output
# must be the page's (the block marked "project-output", the times aside) and carry no SLF4J warning.
#
# The private repository is chained to the user's (-Dmaven.repo.local.tail, Maven 3.9): what Gantry depends on is read
# from there, Gantry's own artifacts are written only to the private one, and the user's repository is never written.
# Central serves no snapshots, so Maven never looks elsewhere for Gantry's; a check below holds every Gantry jar of the
# project's class path to the private repository. MAVEN_ARGS=-o runs every Maven step offline.
# Run by scripts/test-all.sh after the build; runs alone too. Each check prints PASS or FAIL; the script fails if any
# check fails.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
doc=docs/library.md
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$work/out" err="$work/err"
code=0
# shellcheck source=lib/checks.sh
. "$root/scripts/lib/checks.sh"
: >"$out" && : >"$err"

private_repo="$work/repository"
user_repo="$HOME/.m2/repository"
# mvn ARGS... : Maven as the page's commands call it, on the private repository chained to the user's.
mvn() {
  "$root/mvnw" -B -ntp "-Dmaven.repo.local=$private_repo" "-Dmaven.repo.local.tail=$user_repo" "$@"
}
export -f mvn
# The wrapper's Maven stays where it is when the program's run below gets a home of its own.
export root private_repo user_repo MAVEN_USER_HOME="${MAVEN_USER_HOME:-$HOME/.m2}"

# --- the project, from the page -------------------------------------------------------------------------------------
project="$work/project"
# block MARKER: the text of the fenced block that follows the line <!-- MARKER --> in the page, or an error.
block() {
  python3 - "$doc" "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
found = re.findall(r'^<!-- ' + re.escape(sys.argv[2]) + r' -->\n```[a-z]*\n(.*?)^```$', text, re.M | re.S)
if len(found) != 1:
    sys.exit(f'{sys.argv[1]}: {len(found)} blocks marked <!-- {sys.argv[2]} -->; expected one')
sys.stdout.write(found[0])
PY
}
files=$(grep -oP '^<!-- project-file: \K[^ ]+(?= -->$)' "$doc")
check "the page marks the project's pom.xml and one Java source" bash -c \
  "grep -qx pom.xml <<<'$files' && [[ \$(grep -c '^src/main/java/.*\.java$' <<<'$files') -eq 1 ]]"
for file in $files; do
  mkdir -p "$project/$(dirname "$file")"
  block "project-file: $file" >"$project/$file" 2>"$err"
done
block project-run >"$work/run.sh" 2>>"$err"
block project-output >"$work/expected" 2>>"$err"
check "the page has the project's commands and output" bash -c "[[ -s '$work/run.sh' && -s '$work/expected' ]]"

# --- Gantry's artifacts that the project names, installed into the private repository ------------------------------
# Each dev.gantry artifact of the page's pom.xml, with what it needs from this build (-am); its tests ran in the build.
modules=$(python3 -c "import re, sys; print(','.join(':' + a for a in re.findall(
    r'<groupId>dev\.gantry</groupId>\s*<artifactId>([^<]+)</artifactId>', open(sys.argv[1]).read())))" "$project/pom.xml")
install_started=$SECONDS
mvn -q -pl "$modules" -am install -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true >"$out" 2>"$err"
code=$?
check "the artifacts the page names ($modules) install into a private repository" bash -c "[[ $code -eq 0 ]]"
echo "e2e-library: installing took $((SECONDS - install_started))s"

# --- built and run as the page says ----------------------------------------------------------------------------------
run_started=$SECONDS
# A home of its own: the program's state and jobs there, and none of this machine's Gantry configuration.
mkdir -p "$work/home"
(cd "$project" && HOME="$work/home" bash -e "$work/run.sh") >"$out" 2>"$err"
code=$?
echo "e2e-library: building and running the project took $((SECONDS - run_started))s"
check "the project builds and its program exits 0" bash -c "[[ $code -eq 0 ]]"
# The output as the page shows it: the numbers are the time the program ran, and the job's state when first asked
# may be any of those before it ends.
normalized() { sed -E 's/[0-9]+/N/g; s/^(hello-N is )[A-Z]+( on )/\1STATE\2/' "$1"; }
check "the program prints what the page shows" diff <(normalized "$work/expected") <(normalized "$out")
check "the program prints no SLF4J warning" bash -c "! grep -q 'SLF4J' '$out' '$err'"
classpath="$project/target/classpath"
check "the class path has slf4j-api 2 and the page's one binding" bash -c \
  "tr ':' '\n' <'$classpath' | grep -q '/slf4j-api-2\.' && [[ \$(tr ':' '\n' <'$classpath' | grep -c '/slf4j-\(simple\|nop\|jdk14\|reload4j\|log4j12\)-') -eq 1 ]]"
check "every Gantry jar on the class path is this checkout's, from the private repository" bash -c \
  "tr ':' '\n' <'$classpath' | grep '/dev/gantry/' >'$work/gantry-jars' && [[ -s '$work/gantry-jars' ]] \
    && ! grep -v '^$private_repo/' '$work/gantry-jars'"

echo
echo "e2e-library: $passed passed, $failed failed"
((failed == 0))
