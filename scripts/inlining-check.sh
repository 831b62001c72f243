#!/usr/bin/env bash
# Seed 000's inlining finding with the JDK's own flags: runs HeaderParsingDriver hot in a child JVM with
# -Xbatch -XX:+PrintCompilation -XX:+PrintInlining and prints, for each naive and lean header-parsing method,
# what C2 said. Exits 1 when a lean method is not inlined ("inline (hot)") or the naive Bearer parse is
# (it must be "hot method too big": 370 bytecode bytes > FreqInlineSize 325). See docs/parsing.md.
#   scripts/inlining-check.sh                         the check; the driver's whole output in target/inlining-check.log
#   scripts/inlining-check.sh -XX:FreqInlineSize=400  the same with more JVM flags for the driver (this one fails it)
# Builds the test classes with ./mvnw when a source is newer; needs JAVA_HOME or a JDK 25 at the default path.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
CHECK=target/test-classes/dev/perflab/support/parse/InliningCheck.class
CLASSPATH_FILE=target/inlining-check.classpath

if [[ ! -f $CHECK || -n $(find src/main src/test pom.xml -newer "$CHECK" -type f -print -quit) ]]; then
  ./mvnw -B -q test-compile
fi
if [[ ! -s $CLASSPATH_FILE || pom.xml -nt $CLASSPATH_FILE ]]; then
  ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CLASSPATH_FILE" >/dev/null
fi
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat "$CLASSPATH_FILE")" \
  dev.perflab.support.parse.InliningCheck --log target/inlining-check.log "$@"
