# perflab app: build with the Maven wrapper on a JDK 25, run on a Temurin 25 JRE.
#   docker compose up                      the `app` target (the default), and the `seed` target for the one-shot
#                                          service that migrates the database and loads the data sets
#   docker build --network host --target app-aot -t perflab-app:aot .
#                                          the same app started from a JDK 25 AOT cache, trained on real traffic
#                                          against a running, seeded stack (docs/cold-start.md, "The AOT cache (perflab's own)")
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:go-offline
COPY src src
RUN ./mvnw -B -q -DskipTests package

# the jar extracted: the AOT cache only works with plain jars on the class path
FROM eclipse-temurin:25-jre AS extracted
WORKDIR /app
COPY --from=build /src/target/perflab.jar /tmp/perflab.jar
RUN java -Djarmode=tools -jar /tmp/perflab.jar extract --destination /app && rm /tmp/perflab.jar

# the training run: the app records what it loads, links and profiles while k6 drives the cold-start mix
# (login, transfer, routes) through it; the JVM writes /app/perflab.aot as it exits. The stack's published ports
# must answer on the build host (docker build --network host), with the data of ./perflab seed coldstart.
FROM grafana/k6:1.8.1 AS k6
FROM extracted AS aot-train
ARG PERFLAB_DB_NAME=perflab_wallet_after
ARG PERFLAB_AUTH_API_URL=https://127.0.0.1:8443
ARG AOT_TRAIN_REQUESTS=6000
COPY --from=k6 /usr/bin/k6 /usr/local/bin/k6
COPY db/migrations /app/db/migrations
COPY k6 /app/k6
COPY stack/heap-preset.sh /app/heap-preset.sh
RUN PERFLAB_DB_NAME=$PERFLAB_DB_NAME PERFLAB_AUTH_API_URL=$PERFLAB_AUTH_API_URL PERFLAB_APP_PORT=18080 \
      java $(sh /app/heap-preset.sh after) --sun-misc-unsafe-memory-access=allow -XX:AOTCacheOutput=/app/perflab.aot \
      -jar /app/perflab.jar --spring.profiles.active=after > /tmp/train.log 2>&1 & \
    app=$!; \
    k6 run -q -e BASE_URL=http://127.0.0.1:18080 -e REQUESTS=$AOT_TRAIN_REQUESTS /app/k6/cold-start.js > /tmp/k6.log 2>&1; \
    kill -TERM $app; wait $app; \
    grep 'AOTCache creation is complete' /tmp/train.log || { tail -n 40 /tmp/train.log /tmp/k6.log; exit 1; }

FROM eclipse-temurin:25-jre AS runtime
WORKDIR /app
RUN useradd --system --uid 10001 perflab
COPY db/migrations /app/db/migrations
COPY stack/heap-preset.sh /app/heap-preset.sh
EXPOSE 8080
# PERFLAB_HEAP: the heap preset; empty = by profile, from stack/heap-preset.sh as ./perflab does (seed 001).
# PERFLAB_JVM_OPTS: anything else.
# --sun-misc-unsafe-memory-access=allow: fastjson2 and Fory (route codecs) use sun.misc.Unsafe, which JDK 25 warns on.
ENV PERFLAB_HEAP="" PERFLAB_JVM_OPTS="" PERFLAB_AOT_OPTS=""
# arguments after the image name are the app's own (--perflab.login.client=pooled ...): the A/B runner's app
# containers give each variant's knobs that way (tooling/perflab/lab/composelab.py)
ENTRYPOINT ["sh", "-c", "heap=$(sh /app/heap-preset.sh \"$SPRING_PROFILES_ACTIVE\"); exec java ${PERFLAB_HEAP:-$heap} --sun-misc-unsafe-memory-access=allow $PERFLAB_AOT_OPTS $PERFLAB_JVM_OPTS -jar /app/perflab.jar \"$@\"", "perflab"]

# compose's one-shot service `seed`: migrates the app's database (the app's migrate-only mode, MigrateOnly, from the
# extracted jar) and loads the data sets with the tooling's perflab.lab.datasets.seeding (Python's standard library and the mariadb and redis-cli
# clients, as ./perflab seed on a host), each only when its cheap check misses it: seconds once they are loaded.
# apt-get runs only when a client is missing from the base image.
FROM runtime AS seed
USER root
RUN command -v python3 >/dev/null && command -v mariadb >/dev/null && command -v redis-cli >/dev/null || { \
      apt-get update && apt-get install -y --no-install-recommends python3 mariadb-client redis-tools \
      && rm -rf /var/lib/apt/lists/*; }
COPY --from=extracted /app /app
COPY .env /opt/perflab/.env
COPY scripts/seed/pin_hash_sql.py /opt/perflab/scripts/seed/
# every module of the tooling package that the data sets' loader imports, directly or not, with the packages around
# them (tooling/tests/lab/test_seed_image.py checks the list)
COPY tooling/perflab/__init__.py tooling/perflab/paths.py /opt/perflab/tooling/perflab/
COPY tooling/perflab/lab/__init__.py tooling/perflab/lab/labenv.py tooling/perflab/lab/labsecrets.py /opt/perflab/tooling/perflab/lab/
COPY tooling/perflab/lab/datasets/ /opt/perflab/tooling/perflab/lab/datasets/
ENV PERFLAB_APP_CLASSPATH=/app/perflab.jar PERFLAB_MIGRATIONS=filesystem:/app/db/migrations \
    WALLET_SEED_DIR=/tmp/perflab-wallet-seed PYTHONPATH=/opt/perflab/tooling
USER perflab
ENTRYPOINT ["python3", "-m", "perflab.lab.datasets.seeding"]
CMD ["defaults"]

# The A/B runner as an image, for a host with only Docker (docs/docker.md): docker compose run --rm runner ab wallet
# --smoke. The tooling and its pinned Python packages, k6 where the runner looks for it, the seed's mariadb and redis
# clients, and the docker CLI, which starts each variant's app container (this file's default image, built by
# compose as perflab-app) through the engine's socket that the runner service mounts. PIP_WHEELS names a folder of
# the build context holding every wheel, for an engine that cannot reach PyPI (CI's: stack/docker/compose-ci.sh).
FROM docker:27-cli AS docker-cli
FROM seed AS runner
USER root
RUN python3 -m venv --help >/dev/null 2>&1 || { apt-get update && apt-get install -y --no-install-recommends \
      python3-venv && rm -rf /var/lib/apt/lists/*; }
WORKDIR /perflab
COPY tooling/requirements.txt tooling/requirements-dev.txt tooling/requirements-installer.txt tooling/
ARG PIP_WHEELS=
RUN --mount=type=bind,target=/context \
    python3 -m venv .perflab/venv \
    && .perflab/venv/bin/pip install -q --no-cache-dir --disable-pip-version-check \
         ${PIP_WHEELS:+--no-index --find-links /context/$PIP_WHEELS} \
         -r tooling/requirements.txt -r tooling/requirements-dev.txt \
    && cat tooling/requirements.txt tooling/requirements-dev.txt tooling/requirements-installer.txt \
         > .perflab/venv/.requirements
COPY --from=k6 /usr/bin/k6 /var/lib/perflab/bin/k6
COPY --from=docker-cli /usr/local/bin/docker /usr/local/bin/docker
COPY . .
ENTRYPOINT ["./perflab"]
CMD ["help"]

FROM runtime AS app-aot
COPY --from=aot-train /app /app
ENV PERFLAB_AOT_OPTS="-XX:AOTCache=/app/perflab.aot"
USER perflab

# the default target: the plain app, no AOT cache (seed 000's baseline)
FROM runtime AS app
COPY --from=extracted /app /app
USER perflab
