#!/usr/bin/env bash
# Objects per header parse, counted one by one rather than derived from bytes: builds the JVMTI agent
# scripts/alloc-count/alloccount.c (gcc and the JDK's include/ directory) and runs AllocationCountDriver
# (src/jmh/java) twice: "hot", after C2 has compiled each loop, and "cold", with -Xint (the interpreter, no
# escape analysis: what the first requests after a start allocate). See docs/parsing.md.
# Needs JAVA_HOME or a JDK 25 at the default path; builds the jmh test classes with ./mvnw -Pjmh when needed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
DRIVER=target/test-classes/dev/perflab/support/parse/AllocationCountDriver.class
AGENT=target/alloc-count/liballoccount.so
CLASSPATH_FILE=target/alloc-count/classpath

command -v gcc >/dev/null || { echo "alloc-count: needs gcc to build the JVMTI agent" >&2; exit 1; }
mkdir -p target/alloc-count
if [[ ! -f $DRIVER || -n $(find src pom.xml -newer "$DRIVER" -type f -name '*.java' -print -quit) ]]; then
  ./mvnw -B -q -Pjmh test-compile
fi
if [[ ! -s $CLASSPATH_FILE || pom.xml -nt $CLASSPATH_FILE ]]; then
  ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CLASSPATH_FILE" >/dev/null
fi
if [[ ! -f $AGENT || scripts/alloc-count/alloccount.c -nt $AGENT ]]; then
  gcc -shared -fPIC -O2 -Wall -I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux" -o "$AGENT" scripts/alloc-count/alloccount.c
fi
CP="target/test-classes:target/classes:$(cat "$CLASSPATH_FILE")"
"$JAVA_HOME/bin/java" -agentpath:"$ROOT/$AGENT" -cp "$CP" dev.perflab.support.parse.AllocationCountDriver hot
"$JAVA_HOME/bin/java" -Xint -agentpath:"$ROOT/$AGENT" -cp "$CP" dev.perflab.support.parse.AllocationCountDriver cold | tail -n +2
