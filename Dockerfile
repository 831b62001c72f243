# perflab app: build with the Maven wrapper on a JDK 25, run on a Temurin 25 JRE.
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:go-offline
COPY src src
RUN ./mvnw -B -q -DskipTests package

FROM eclipse-temurin:25-jre
WORKDIR /app
RUN useradd --system --uid 10001 perflab
COPY --from=build /src/target/perflab.jar /app/perflab.jar
COPY db/migrations /app/db/migrations
USER perflab
EXPOSE 8080
# PERFLAB_HEAP: the heap preset; empty = by profile, as ./perflab does: -Xms = -Xmx (1g) for route-after,
# route-binary and after, else -Xmx1g only (seed 001). PERFLAB_JVM_OPTS: anything else.
# --sun-misc-unsafe-memory-access=allow: fastjson2 and Fory (route codecs) use sun.misc.Unsafe, which JDK 25 warns on.
ENV PERFLAB_HEAP="" PERFLAB_JVM_OPTS=""
ENTRYPOINT ["sh", "-c", "case \",$SPRING_PROFILES_ACTIVE,\" in *,route-after,*|*,route-binary,*|*,after,*) heap='-Xms1g -Xmx1g' ;; *) heap='-Xmx1g' ;; esac; exec java ${PERFLAB_HEAP:-$heap} --sun-misc-unsafe-memory-access=allow $PERFLAB_JVM_OPTS -jar /app/perflab.jar"]
