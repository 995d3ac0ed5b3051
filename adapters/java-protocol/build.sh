#!/usr/bin/env bash
# Builds a Java adapter (a Maven project whose parent is adapters/java-protocol/parent.xml, by
# path in this checkout or by coordinates anywhere else) from Maven Central and writes DIR/target/classpath.args, the `java` argument file that makes its
# run command a plain `java @DIR/target/classpath.args MAIN`: no Maven at run time. Maven's
# output is shown only when the build fails.
#
# Start-up (the JVM starts once per run): the argument file asks for C1 only
# (-XX:TieredStopAtLevel=1: a run is too short for C2 to pay off) and, when MAIN is given, for an
# application class-data archive (AppCDS, DIR/target/app.jsa) recorded by a training run of MAIN
# over every vector's request. JVM log lines go to stderr, never into the protocol's stdout.
# Usage: adapters/java-protocol/build.sh DIR [MAIN]
set -euo pipefail
dir="$(cd "${1:?usage: build.sh ADAPTER_DIR [MAIN_CLASS]}" && pwd)"
main="${2:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
for tool in java mvn; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is required" >&2; exit 1; }
done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
fail() {
    cat "$log" >&2
    echo "build.sh: $1" >&2
    exit 1
}
# One build at a time writes to the local Maven repository (~/.m2): two adapters' installs, or a
# test's, run at once in CI, and Maven does not lock what it installs.
mkdir -p "$HOME/.m2"
exec 9>"$HOME/.m2/bip37-java-build.lock"
flock 9
# The shared build settings and the protocol loop into the local repository first: an adapter
# outside this checkout (a copy of template-java) names them by coordinates,
# org.bip37conformance:bip37-java-parent and :bip37-protocol, 1.0.0; the adapters in this
# checkout read the parent through its path and are not affected. Built from a copy, so that
# java-protocol/target (its own tests' build) is never written by two builds at once.
protocol="$root/adapters/java-protocol"
work="$(mktemp -d)"
trap 'rm -f "$log"; rm -rf "$work"' EXIT
cp -R "$protocol/pom.xml" "$protocol/parent.xml" "$protocol/src" "$work/"
mvn -B -q -f "$work/parent.xml" install >"$log" 2>&1 ||
    fail "installing $protocol/parent.xml into the local Maven repository failed"
mvn -B -q -f "$work/pom.xml" install -Dmaven.test.skip=true >"$log" 2>&1 ||
    fail "installing the protocol loop $protocol into the local Maven repository failed"
mvn -B -q -f "$dir/pom.xml" package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile="$dir/target/classpath.txt" -Dmdep.includeScope=runtime >"$log" 2>&1 ||
    fail "the Maven build of $dir failed"
jars=("$dir"/target/*.jar)
[[ ${#jars[@]} -eq 1 && -f "${jars[0]}" ]] || fail "expected one jar in $dir/target, found: ${jars[*]}"
# A jar, not target/classes: class-data archives take jars only.
classpath="${jars[0]}:$(cat "$dir/target/classpath.txt")"
logging=(-Xlog:disable -Xlog:all=warning:stderr)
options=(-XX:TieredStopAtLevel=1 "${logging[@]}")
if [[ -n "$main" ]]; then
    archive="$dir/target/app.jsa"
    rm -f "$archive"
    # The training run: one request per vector test, as the harness sends them (group input
    # merged into each test's); the answers are not looked at.
    python3 - "$root/vectors" <<'PY' |
import json, os, pathlib, sys
n = 0
try:
    for path in sorted(pathlib.Path(sys.argv[1]).glob("*_test.json")):
        for group in json.loads(path.read_text())["testGroups"]:
            for test in group["tests"]:
                n += 1
                request = {"id": n, "op": group["operation"], "input": {**group.get("input", {}), **test["input"]}}
                print(json.dumps(request), flush=True)
except BrokenPipeError:  # the adapter stopped early: said below
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
PY
        java -XX:TieredStopAtLevel=1 "${logging[@]}" -XX:ArchiveClassesAtExit="$archive" -cp "$classpath" "$main" \
            >/dev/null 2>"$log" || training=$?
    # An adapter that stops on some request (a crash the suite will report) still builds: its
    # archive holds the classes of the requests before it; without one it starts without.
    if [[ ${training:-0} -ne 0 ]]; then
        echo "build.sh: the training run of $main ended with exit $training (the suite reports such a stop as a crash); its last lines:" >&2
        tail -n 5 "$log" | cut -c1-300 >&2
    fi
    if [[ -f "$archive" ]]; then
        options+=(-XX:SharedArchiveFile="$archive")
    else
        echo "build.sh: the training run wrote no class-data archive: $main starts without one" >&2
    fi
fi
args="$dir/target/classpath.args"
{
    printf '%s\n' "${options[@]}"
    printf -- '-cp "%s"\n' "$classpath"
} >"$args.tmp"
mv "$args.tmp" "$args"
