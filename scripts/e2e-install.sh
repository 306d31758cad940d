#!/usr/bin/env bash
# End-to-end checks of the installable archive (cli/target/gantry-VERSION.tar.gz and .zip, made by ./mvnw package):
# unpacked outside the checkout, run through a symbolic link with an empty home, it must plan exactly as ./gantry
# does, make its start-up archive in the user's cache (never in the installation), and shrug off a damaged one.
# Run by scripts/e2e.sh; runs alone too. Each check prints PASS or FAIL; the script fails if any check fails.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shopt -s nullglob
tars=(cli/target/gantry-*.tar.gz)
zips=(cli/target/gantry-*.zip)
if ((${#tars[@]} != 1 || ${#zips[@]} != 1)); then
  echo "FAIL the installable archive: expected one cli/target/gantry-VERSION.tar.gz and one .zip, found" \
    "[${tars[*]:-}] [${zips[*]:-}]; make them with ./mvnw package (-DskipTests is enough)"
  exit 1
fi
tar_file=$root/${tars[0]}
zip_file=$root/${zips[0]}
name=$(basename "$tar_file" .tar.gz)

work="$(mktemp -d)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
out="$work/out" err="$work/err"
code=0
# shellcheck source=lib/checks.sh
. "$root/scripts/lib/checks.sh"
: >"$out" && : >"$err"

# --- the archive's contents ----------------------------------------------------------------------------------------
tar tzf "$tar_file" | grep -v '/$' | sort >"$work/tar.list"
unzip -Z1 "$zip_file" | grep -v '/$' | sort >"$work/zip.list"
check "the .tar.gz and the .zip hold the same files" cmp -s "$work/tar.list" "$work/zip.list"
check "everything is under $name/" bash -c "! grep -v '^$name/' '$work/tar.list'"
for f in bin/gantry bin/gantry.cmd NOTICE THIRD-PARTY.txt INSTALL.md examples/quickstart.yaml lib/classpath \
  lib/gantry-build.properties; do
  check "the archive holds $f" grep -qx "$name/$f" "$work/tar.list"
done
check "bin/gantry is executable in the tar" bash -c "tar tvzf '$tar_file' '$name/bin/gantry' | grep -q '^-rwxr-xr-x'"
check "lib/ holds the CLI, its backends and their dependencies" bash -c \
  "grep -q '^$name/lib/gantry-cli-.*\.jar$' '$work/tar.list' && grep -q '^$name/lib/gantry-backend-manual-' '$work/tar.list' \
    && grep -q '^$name/lib/gantry-backend-aks-' '$work/tar.list' && grep -q '^$name/lib/picocli-' '$work/tar.list'"

install_root="$work/install"
mkdir -p "$install_root"
tar xzf "$tar_file" -C "$install_root"
gantry_home="$install_root/$name"
check "lib/classpath names exactly the jars in lib/" bash -c \
  "diff <(sort '$gantry_home/lib/classpath') <(cd '$gantry_home/lib' && ls *.jar | sort)"
# bin/gantry.cmd puts lib\* on the class path, in no set order: that is only safe while no class is in two jars.
check "no class is in two of the jars in lib/ (so that their order cannot matter)" python3 -c "
import collections, glob, sys, zipfile
owners = collections.defaultdict(list)
for jar in glob.glob('$gantry_home/lib/*.jar'):
    for entry in zipfile.ZipFile(jar).namelist():
        if entry.endswith('.class') and not entry.startswith('META-INF/') and entry != 'module-info.class':
            owners[entry].append(jar.rsplit('/', 1)[1])
twice = {c: j for c, j in owners.items() if len(j) > 1}
print('\n'.join(f'  {c}: {j}' for c, j in list(twice.items())[:10]))
sys.exit(1 if twice else 0)"
third_party_jars=$(cd "$gantry_home/lib" && ls *.jar | grep -vc '^gantry-')
check "THIRD-PARTY.txt names a license for each of the $third_party_jars third-party jars" bash -c \
  "grep -q '^$third_party_jars third-party jars\.$' '$gantry_home/THIRD-PARTY.txt' \
    && [[ \$(grep -c '^  License: ' '$gantry_home/THIRD-PARTY.txt') -ge $third_party_jars ]] \
    && ! grep -q 'not declared' '$gantry_home/THIRD-PARTY.txt'"

# The installation is made read-only and its listing kept: no run may create or change anything in it. (As root,
# chmod does not stop writes; the listing catches them.)
chmod -R a-w "$gantry_home"
listing() { find "$gantry_home" -printf '%P %s %T@ %m\n' | sort; }
listing >"$work/install.before"

# Reached through a link in a bin directory on PATH, as a user installs it; run outside the checkout, with no Maven
# anywhere on PATH and an empty home.
mkdir -p "$work/bin" "$work/home1"
ln -s "$gantry_home/bin/gantry" "$work/bin/gantry"
java_dir=$(dirname "$(command -v java)")
user_path="$work/bin:$java_dir:/usr/bin:/bin"
# user_gantry HOME ARGS...: the installed gantry as a user runs it, from the installation's directory
user_gantry() {
  local home=$1
  shift
  (cd "$gantry_home" && env -u JAVA_HOME -u XDG_CACHE_HOME -u GANTRY_STATE_DIR -u GANTRY_JAVA_OPTS \
    PATH="$user_path" HOME="$home" gantry "$@") >"$out" 2>"$err"
  code=$?
}

# The reference: the checkout's ./gantry, with a home of its own.
mkdir -p "$work/home0"
HOME="$work/home0" GANTRY_STATE_DIR="$work/home0/state" ./gantry plan examples/quickstart.yaml >"$work/expected" 2>"$work/expected.err"
expected_code=$?
check "./gantry plan examples/quickstart.yaml succeeds" bash -c "[[ $expected_code -eq 0 && -s '$work/expected' ]]"

start=$(date +%s%N)
user_gantry "$work/home1" plan examples/quickstart.yaml
first_ms=$((($(date +%s%N) - start) / 1000000))
check "the installed gantry plans the quickstart exactly as ./gantry does" bash -c \
  "[[ $code -eq 0 ]] && cmp -s '$out' '$work/expected'"
check "its first run prints nothing else (the start-up archive is made silently)" bash -c "[[ ! -s '$err' ]]"

# wait_for_archive HOME: waits (60 s at most) until the background training run has left its archive and stamp
wait_for_archive() {
  local i
  for ((i = 0; i < 120; i++)); do
    for stamp in "$1"/.cache/gantry/*/gantry.*.stamp; do
      archive=${stamp%.stamp}
      if [[ -s "$archive" && ! "$archive" -nt "$stamp" && ! -e "$(dirname "$stamp")/training.lock" ]] \
        && ! grep -q '^failed ' "$stamp"; then
        return 0
      fi
    done
    sleep 0.5
  done
  return 1
}
check "the start-up archive is made in \$HOME/.cache/gantry/VERSION-HASH/" wait_for_archive "$work/home1"
cache_dirs=("$work"/home1/.cache/gantry/*/)
check "one cache directory, named for the version" bash -c \
  "[[ ${#cache_dirs[@]} -eq 1 && \$(basename '${cache_dirs[0]:-none}') =~ ^${name#gantry-}-[0-9a-f]{8}$ ]]"

# uses_archive HOME: a plan through the installed gantry loads its classes from the start-up archive
uses_archive() {
  rm -f "$work/classes.log"
  (cd "$gantry_home" && env -u JAVA_HOME -u XDG_CACHE_HOME PATH="$user_path" HOME="$1" \
    GANTRY_JAVA_OPTS="-Xlog:class+load:file=$work/classes.log" gantry plan examples/quickstart.yaml) >/dev/null 2>&1 \
    || return 1
  # A dynamic archive's classes say "(top)"; with a Java 25 AOT cache, a cache it cannot use means no sharing at all.
  grep -q 'source: shared objects file (top)' "$work/classes.log" \
    || { [[ -n $(compgen -G "$1/.cache/gantry/*/gantry.aot") ]] && grep -q 'source: shared objects file' "$work/classes.log"; }
}
check "later runs load their classes from the archive" uses_archive "$work/home1"
start=$(date +%s%N)
user_gantry "$work/home1" plan examples/quickstart.yaml
later_ms=$((($(date +%s%N) - start) / 1000000))
check "a later run plans the same" bash -c "[[ $code -eq 0 ]] && cmp -s '$out' '$work/expected' && [[ ! -s '$err' ]]"
echo "     (first run ${first_ms} ms, with the archive ${later_ms} ms)"

# A damaged archive: ignored, the command still works, and the archive is made again.
archive=$(compgen -G "$work/home1/.cache/gantry/*/gantry.*[at]" | head -n 1)
chmod u+w "$archive"
printf 'garbage, not an archive\n' >"$archive"
user_gantry "$work/home1" plan examples/quickstart.yaml
check "with garbage in the archive the plan is the same and nothing is printed" bash -c \
  "[[ $code -eq 0 ]] && cmp -s '$out' '$work/expected' && [[ ! -s '$err' ]]"
check "the damaged archive is made again" wait_for_archive "$work/home1"
check "and is used again" uses_archive "$work/home1"

# Two first runs at once: both plan, one archive results, no temporary file is left behind.
mkdir -p "$work/home2"
(user_gantry "$work/home2" plan examples/quickstart.yaml && cp "$out" "$work/concurrent1") &
(cd "$gantry_home" && env -u JAVA_HOME -u XDG_CACHE_HOME PATH="$user_path" HOME="$work/home2" \
  gantry plan examples/quickstart.yaml) >"$work/concurrent2" 2>&1
wait
check "two first runs at once both plan the quickstart" bash -c \
  "cmp -s '$work/concurrent1' '$work/expected' && cmp -s '$work/concurrent2' '$work/expected'"
check "two first runs at once leave one archive and no temporary file" bash -c \
  "wait_for() { for ((i = 0; i < 120; i++)); do [[ -n \$(compgen -G '$work/home2/.cache/gantry/*/gantry.*.stamp') \
      && ! -e \$(compgen -G '$work/home2/.cache/gantry/*/')training.lock ]] && return 0; sleep 0.5; done; return 1; }
   wait_for && [[ \$(ls '$work'/home2/.cache/gantry/*/ | grep -c '^gantry\.\(jsa\|aot\)$') -eq 1 ]] \
   && ! ls '$work'/home2/.cache/gantry/*/ | grep -q 'tmp'"

# gantry version: the commit it was built from and the embedded catalog's date.
user_gantry "$work/home1" version
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
check "gantry version prints the version and commit ($commit)" grep -qx "gantry ${name#gantry-} (commit $commit)" "$out"
check "gantry version prints the embedded catalog's source and date" \
  grep -qE '^catalog: SkyPilot .*, [0-9]{4}-[0-9]{2}-[0-9]{2} \(embedded\)$' "$out"
check "gantry version prints the Java runtime" grep -qE '^java: +[0-9]+.* \(.+\), /' "$out"

# --help and --version map no start-up archive (it costs them more than it saves) and so start no training run.
mkdir -p "$work/home3"
user_gantry "$work/home3" --version
check "gantry --version prints the version line" grep -qx "gantry ${name#gantry-} (commit $commit)" "$out"
user_gantry "$work/home3" --help
check "gantry --help prints the usage" grep -q '^Usage: gantry' "$out"
check "gantry --version and --help in a fresh home start no start-up archive" bash -c \
  "sleep 2; [[ ! -e '$work/home3/.cache/gantry' ]]"

# Arguments reach the CLI verbatim: a path with spaces.
mkdir -p "$work/a dir"
cp "$gantry_home/examples/quickstart.yaml" "$work/a dir/quick start.yaml"
user_gantry "$work/home1" validate "$work/a dir/quick start.yaml"
check "a spec path with spaces reaches the CLI as one argument" bash -c "[[ $code -eq 0 ]]"

# Java: a clear error for a missing JAVA_HOME and for a Java older than 17.
(cd "$gantry_home" && JAVA_HOME="$work/no-such-jdk" HOME="$work/home1" bin/gantry version) >"$out" 2>"$err"
code=$?
check "a JAVA_HOME without bin/java exits 2 naming JAVA_HOME and the fix" bash -c \
  "[[ $code -eq 2 ]] && grep -q 'JAVA_HOME is .$work/no-such-jdk.' '$err' && grep -q 'Java 17 or newer' '$err'"
mkdir -p "$work/old-jdk/bin"
printf 'JAVA_VERSION="11.0.2"\n' >"$work/old-jdk/release"
printf '#!/bin/sh\necho "should not run" >&2; exit 1\n' >"$work/old-jdk/bin/java"
chmod +x "$work/old-jdk/bin/java"
(cd "$gantry_home" && JAVA_HOME="$work/old-jdk" HOME="$work/home1" bin/gantry version) >"$out" 2>"$err"
code=$?
check "Java 11 is refused with exit 2: Java 17 or newer is needed, and how to get it" bash -c \
  "[[ $code -eq 2 ]] && grep -q 'Java 17 or newer is needed, but .* is Java 11.0.2' '$err' && grep -q 'JAVA_HOME' '$err'"

# A backend plugin: a jar built here from a few lines of Java against the installation's gantry-api, copied into the
# user's plugins directory (\$XDG_DATA_HOME/gantry/plugins, by default ~/.local/share/gantry/plugins), is listed by
# gantry backends with its jar and version; one given by GANTRY_PLUGIN_PATH too; a corrupt one is reported.
plugin_src="$work/plugin-src"
mkdir -p "$plugin_src/src/org/example/e2e" "$plugin_src/classes/META-INF/services"
cat >"$plugin_src/src/org/example/e2e/Provider.java" <<'JAVA'
package org.example.e2e;

import dev.gantry.api.backend.*;
import java.util.List;

public final class Provider implements BackendProvider {
    public String name() { return "e2eplugin"; }
    public String description() { return "a plugin built by e2e-install.sh"; }
    public Capabilities capabilities() { return Capabilities.builder().build(); }
    public List<ConfigKey> configKeys() { return List.of(); }
    public Backend create(BackendConfig config, BackendContext context) {
        throw new UnsupportedOperationException("listed only");
    }
}
JAVA
printf 'org.example.e2e.Provider\n' >"$plugin_src/classes/META-INF/services/dev.gantry.api.backend.BackendProvider"
printf 'Implementation-Version: 0.0.7\n' >"$plugin_src/manifest.txt"
api_jar=$(compgen -G "$gantry_home/lib/gantry-api-*.jar" | head -n 1)
check "the test plugin compiles against the installation's gantry-api and is packed as a jar" bash -c \
  "'$java_dir/javac' --release 17 -d '$plugin_src/classes' -cp '$api_jar' '$plugin_src/src/org/example/e2e/Provider.java' \
    && '$java_dir/jar' --create --file '$plugin_src/e2e-plugin.jar' --manifest '$plugin_src/manifest.txt' \
      -C '$plugin_src/classes' ."
mkdir -p "$work/home4/.local/share/gantry/plugins"
cp "$plugin_src/e2e-plugin.jar" "$work/home4/.local/share/gantry/plugins/"
user_jar="$work/home4/.local/share/gantry/plugins/e2e-plugin.jar"
user_gantry "$work/home4" backends
check "gantry backends lists the plugin in ~/.local/share/gantry/plugins with its jar and version" bash -c \
  "[[ $code -eq 0 ]] && grep -qE '^e2eplugin +yes +0\.0\.7 +$user_jar +a plugin built by e2e-install\.sh$' '$out' \
    && grep -qE '^manual \* +yes +${name#gantry-} +built in ' '$out' && [[ ! -s '$err' ]]"
printf 'not a jar\n' >"$work/home4/.local/share/gantry/plugins/broken.jar"
mkdir -p "$work/elsewhere"
cp "$plugin_src/e2e-plugin.jar" "$work/elsewhere/copy.jar"
(cd "$gantry_home" && env -u JAVA_HOME -u XDG_CACHE_HOME PATH="$user_path" HOME="$work/home4" \
  GANTRY_PLUGIN_PATH="$work/elsewhere/copy.jar" gantry backends --output json) >"$out" 2>"$err"
code=$?
check "with GANTRY_PLUGIN_PATH first, its jar provides the plugin; the same name in ~/.local/share is refused" bash -c \
  "[[ $code -eq 0 ]] && jq -e --arg jar '$work/elsewhere/copy.jar' --arg dup '$user_jar' \
    '(.[] | select(.name == \"e2eplugin\" and .loaded) | .origin == \$jar) and (.[] | select(.plugin == \$dup)
      | .loaded == false and (.unavailableReason | startswith(\"DUPLICATE_BACKEND\")))' '$out' >/dev/null"
check "a corrupt jar in the plugins directory is reported with its path and the reason, the others work" bash -c \
  "jq -e '(.[] | select(.plugin == \"$work/home4/.local/share/gantry/plugins/broken.jar\") | .unavailableReason
    | startswith(\"cannot be read: broken.jar is not a readable jar\")) and ([.[] | select(.loaded)] | length == 5)' \
    '$out' >/dev/null"

# The example plugin examples/podman-backend (jobs as containers of the local Podman), as the reactor built it: its
# jar copied into the user's plugins directory is listed with its version, and the quickstart runs on it. The
# quickstart's train.py is in the checkout, not the archive: the run starts in the checkout, whose directory the job
# sees as its working directory.
plugin_jars=()
for jar in examples/podman-backend/target/gantry-example-podman-backend-*.jar; do
  [[ $jar == *-sources.jar || $jar == *-javadoc.jar || $jar == *-tests.jar ]] || plugin_jars+=("$jar")
done
if ((${#plugin_jars[@]} != 1)); then
  echo "FAIL the podman plugin: expected one examples/podman-backend/target/gantry-example-podman-backend-VERSION.jar," \
    "found [${plugin_jars[*]:-}]; build it with ./mvnw -pl examples/podman-backend -am package -DskipTests"
  failed=$((failed + 1))
else
  plugin_jar=$root/${plugin_jars[0]}
  plugin_version=$(basename "$plugin_jar" .jar)
  plugin_version=${plugin_version#gantry-example-podman-backend-}
  mkdir -p "$work/home5/.local/share/gantry/plugins"
  cp "$plugin_jar" "$work/home5/.local/share/gantry/plugins/"
  podman_jar="$work/home5/.local/share/gantry/plugins/$(basename "$plugin_jar")"
  user_gantry "$work/home5" backends
  check "gantry backends lists the podman plugin from the plugins directory with its version and jar" bash -c \
    "[[ $code -eq 0 ]] && grep -qE '^podman +yes +${plugin_version//./\\.} +$podman_jar +containers,follow-logs +jobs as containers' '$out'"
  # Podman as the tests drive it (scripts/setup-podman.sh, test-support's TestPodman): a storage root of its own,
  # runc with cgroupfs, events in a file, ulimits a restricted host grants, no network.
  podman_root=${GANTRY_PODMAN_ROOT:-/var/tmp/gantry-podman}
  cat >"$work/podman.yaml" <<YAML
backends:
  podman:
    podmanOptions: [--root, $podman_root/storage, --runroot, $podman_root/run, --storage-driver, vfs,
      --runtime, runc, --cgroup-manager, cgroupfs, --events-backend, file]
    runOptions: [--network=none, --ulimit=nofile=1024:1024, --ulimit=nproc=4096:4096]
YAML
  # podman_gantry ARGS...: the installed gantry with the plugin, run from the checkout
  podman_gantry() {
    (cd "$root" && env -u JAVA_HOME -u XDG_CACHE_HOME -u GANTRY_STATE_DIR -u GANTRY_JAVA_OPTS PATH="$user_path" \
      HOME="$work/home5" gantry "$@") >"$out" 2>"$err"
    code=$?
  }
  podman_job=e2e-podman-$$
  podman_gantry run --config "$work/podman.yaml" --backend podman --idempotency-key "$podman_job" \
    examples/quickstart.yaml
  check "examples/quickstart.yaml runs on the podman plugin and succeeds" bash -c \
    "[[ $code -eq 0 ]] && grep -q '^done: accuracy 0\.9' '$out' && grep -q '^gantry: $podman_job: SUCCEEDED (exit 0) after .* on podman$' '$out'"
  podman_gantry status --config "$work/podman.yaml" --output json "$podman_job"
  check "gantry status asks the plugin: SUCCEEDED, exit 0, the container's message" bash -c \
    "[[ $code -eq 0 ]] && jq -e '.backend == \"podman\" and .state == \"SUCCEEDED\" and .exitCode == 0
      and .message == \"exited with code 0\"' '$out' >/dev/null"
  podman_gantry logs --config "$work/podman.yaml" "$podman_job"
  check "gantry logs reads the job's output through the plugin" bash -c \
    "[[ $code -eq 0 ]] && grep -q '^epoch 5/5 ' '$out' && grep -q '^done: accuracy 0\.9' '$out'"
  podman --root "$podman_root/storage" --runroot "$podman_root/run" --storage-driver vfs --runtime runc \
    --cgroup-manager cgroupfs --events-backend file rm --force "gantry-podman-$podman_job" >/dev/null 2>&1
fi

listing >"$work/install.after"
check "nothing was created or changed in the installation directory" diff "$work/install.before" "$work/install.after"

echo
echo "e2e-install: $passed passed, $failed failed"
((failed == 0))
