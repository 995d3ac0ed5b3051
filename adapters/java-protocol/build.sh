#!/usr/bin/env bash
# Builds a Java adapter (a Maven project whose parent is adapters/java-protocol/parent.xml) from
# Maven Central and writes DIR/target/classpath.args, the `java` argument file that makes its
# run command a plain `java @DIR/target/classpath.args MAIN` (no Maven at run time). Maven's
# output is shown only when the build fails.
# Usage: adapters/java-protocol/build.sh DIR
set -euo pipefail
dir="$(cd "${1:?usage: build.sh ADAPTER_DIR}" && pwd)"
for tool in java mvn; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is required" >&2; exit 1; }
done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! mvn -B -q -f "$dir/pom.xml" package dependency:build-classpath \
    -DskipTests -Dmdep.outputFile="$dir/target/classpath.txt" -Dmdep.includeScope=runtime >"$log" 2>&1; then
    cat "$log" >&2
    echo "build.sh: the Maven build of $dir failed" >&2
    exit 1
fi
# The JVM starts once per run; C1 only and class data sharing keep that start short.
args="$dir/target/classpath.args"
printf -- '-XX:TieredStopAtLevel=1\n-Xshare:auto\n-cp "%s:%s"\n' "$dir/target/classes" "$(cat "$dir/target/classpath.txt")" >"$args.tmp"
mv "$args.tmp" "$args"
