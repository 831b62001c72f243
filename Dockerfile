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
# PERFLAB_HEAP: the heap preset (-Xmx only, or -Xms = -Xmx); PERFLAB_JVM_OPTS: anything else
ENV PERFLAB_HEAP="-Xmx1g" PERFLAB_JVM_OPTS=""
ENTRYPOINT ["sh", "-c", "exec java $PERFLAB_HEAP $PERFLAB_JVM_OPTS -jar /app/perflab.jar"]
