#!/usr/bin/env python3
"""Where the request threads spend their CPU, from a JFR recording (python3 stdlib and the JDK's `jfr` tool).

  jfr_top.py RECORDING.jfr [EVENT]     EVENT: jdk.CPUTimeSample (default when the recording has it) or
                                       jdk.ExecutionSample

Prints, over the samples of the EVENT:
  - by layer: each sample goes to the library of its innermost frame outside the JDK (java.*, jdk.*, sun.*),
    so the JDK code a library calls (HashMap, regex, BigDecimal, crypto) counts for that library;
  - inclusive shares of named steps of a request (JWT verification, JSON, MyBatis, the driver, ...): the share of
    samples with that step anywhere on the stack;
  - the hottest leaf methods (self time).
"""
import collections
import json
import os
import subprocess
import sys

LAYERS = [  # (label, package prefixes), first match wins
    ('JWT (Nimbus JOSE)', ('com.nimbusds.',)),
    ('Spring Security', ('org.springframework.security.',)),
    ('Jackson', ('tools.jackson.', 'com.fasterxml.jackson.')),
    ('MyBatis', ('org.apache.ibatis.', 'org.mybatis.')),
    ('MariaDB driver', ('org.mariadb.',)),
    ('Hikari', ('com.zaxxer.hikari.',)),
    ('Redis (Lettuce, Spring Data Redis, Netty)', ('io.lettuce.', 'org.springframework.data.redis.', 'io.netty.', 'reactor.')),
    ('Micrometer, observation', ('io.micrometer.',)),
    ('logging', ('ch.qos.logback.', 'org.slf4j.', 'org.apache.logging.')),
    ('Spring MVC, web', ('org.springframework.web.', 'org.springframework.http.')),
    ('Spring transactions, JDBC', ('org.springframework.transaction.', 'org.springframework.jdbc.', 'org.springframework.dao.')),
    ('Spring other', ('org.springframework.',)),
    ('Tomcat', ('org.apache.tomcat.', 'org.apache.catalina.', 'org.apache.coyote.')),
    ('perflab', ('dev.perflab.',)),
]
STEPS = [  # (label, substring of "class.method" on the stack)
    ('Spring Security filter chain, all (includes the app behind it)', 'FilterChainProxy.doFilterInternal'),
    ('JWT: authenticate (decode, verify, validate, convert)', 'JwtAuthenticationProvider.authenticate'),
    ('JWT: NimbusJwtDecoder.decode', 'NimbusJwtDecoder.decode'),
    ('JWT: HMAC verify', 'MACVerifier.verify'),
    ('JWT: claim validation', 'DelegatingOAuth2TokenValidator.validate'),
    ('Bearer token resolver', 'BearerTokenResolver.resolve'),
    ('Spring MVC DispatcherServlet.doDispatch', 'DispatcherServlet.doDispatch'),
    ('request body read (message converters)', 'readWithMessageConverters'),
    ('response body write (message converters)', 'writeWithMessageConverters'),
    ('Transfers.transfer (the feature, all)', 'dev.perflab.wallet.Transfers.transfer'),
    ('transaction (TransactionTemplate.execute)', 'TransactionTemplate.execute'),
    ('MyBatis MapperProxy.invoke (incl. driver)', 'MapperProxy.invoke'),
    ('MariaDB driver, all', 'org.mariadb.jdbc.'),
    ('Hikari getConnection', 'HikariDataSource.getConnection'),
    ('Redis cache get', 'RedisCache.'),
    ('idempotency record (hash, JSON, insert)', 'IdempotencyRecords.record'),
    ('PIN hash', 'dev.perflab.wallet.Pins.'),
    ('request hash (sha256)', 'dev.perflab.wallet.Pins.sha256Hex'),
    ('UUID.randomUUID', 'java.util.UUID.randomUUID'),
    ('Micrometer, all', 'io.micrometer.'),
    ('Observation (ServerHttpObservationFilter)', 'ServerHttpObservationFilter'),
    ('logging, all', 'ch.qos.logback.'),
    ('Tomcat request parsing (Http11InputBuffer)', 'Http11InputBuffer'),
    ('socket write (NioSocketWrapper.doWrite)', 'NioSocketWrapper.doWrite'),
    ('SecurityContextHolderFilter', 'SecurityContextHolderFilter.doFilter'),
    ('exception creation (Throwable.fillInStackTrace)', 'Throwable.fillInStackTrace'),
    ('regex (java.util.regex)', 'java.util.regex.'),
    ('BigDecimal', 'java.math.BigDecimal.'),
]
JDK = ('java.', 'javax.', 'jdk.', 'sun.', 'com.sun.', 'jakarta.')


def frames(event):
    stack = event.get('values', event).get('stackTrace') or {}
    out = []
    for f in stack.get('frames', []):
        m = f.get('method', {})
        out.append(m.get('type', {}).get('name', '?').replace('/', '.') + '.' + m.get('name', '?'))
    return out  # leaf first


def layer_of(stack):
    for frame in stack:
        if frame.startswith(JDK):
            continue
        for label, prefixes in LAYERS:
            if frame.startswith(prefixes):
                return label
        return 'other: ' + frame.rsplit('.', 2)[0]
    return 'JDK only (no library frame on the stack)'


def main():
    path = sys.argv[1]
    jfr = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'jfr')
    wanted = sys.argv[2] if len(sys.argv) > 2 else None
    for event in ([wanted] if wanted else ['jdk.CPUTimeSample', 'jdk.ExecutionSample']):
        text = subprocess.run([jfr, 'print', '--json', '--stack-depth', '256', '--events', event, path],
                              check=True, capture_output=True, text=True).stdout
        events = json.loads(text)['recording']['events']
        if events:
            break
    stacks = [frames(e) for e in events]
    stacks = [s for s in stacks if s]
    n = len(stacks)
    print(f'{path}: {n} samples of {event}')
    if not n:
        return
    print('\nby layer (innermost non-JDK frame):')
    for label, count in collections.Counter(layer_of(s) for s in stacks).most_common(20):
        print(f'  {100 * count / n:5.1f}%  {label}')
    print('\nsteps of a request (inclusive: the step anywhere on the stack):')
    for label, needle in STEPS:
        count = sum(1 for s in stacks if any(needle in f for f in s))
        print(f'  {100 * count / n:5.1f}%  {label}')
    print('\nhottest leaf methods (self):')
    for frame, count in collections.Counter(s[0] for s in stacks).most_common(25):
        print(f'  {100 * count / n:5.1f}%  {frame}')
    threads = collections.Counter((e.get('values', e).get('eventThread') or {}).get('javaName', '?').rstrip('0123456789')
                                  for e in events)
    print('\nby thread (name without its number):')
    for name, count in threads.most_common(8):
        print(f'  {100 * count / len(events):5.1f}%  {name}')


if __name__ == '__main__':
    main()
