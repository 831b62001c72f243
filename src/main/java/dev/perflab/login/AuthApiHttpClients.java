package dev.perflab.login;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLSocket;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.impl.DefaultConnectionReuseStrategy;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Builds the Apache HttpClient 5 that every client variant uses, so that they differ only in what the
 * variant decides: whether and how long a connection is kept alive and how many there may be. Every connection the
 * client opens counts in {@code perflab_login_http_connections_opened_total}, every request (one lease
 * each) in {@code perflab_login_http_requests_total}: their ratio is new connections per call.
 */
public final class AuthApiHttpClients {

    private final AuthApiProperties properties;
    private final SslBundles sslBundles;
    private final MeterRegistry registry;

    public AuthApiHttpClients(AuthApiProperties properties, SslBundles sslBundles, MeterRegistry registry) {
        this.properties = properties;
        this.sslBundles = sslBundles;
        this.registry = registry;
    }

    /**
     * How a variant reuses connections.
     *
     * @param keepAlive      how long a connection stays open after its last call when the server does not say
     *                       ({@code Keep-Alive: timeout}); zero closes it after every response
     * @param evictIdleAfter a background thread closes connections idle this long, and expired ones, so that the
     *                       socket goes as soon as it may no longer be used
     */
    public record Reuse(Duration keepAlive, Duration evictIdleAfter) {

        /** A new connection for every call. */
        public static final Reuse NONE = new Reuse(Duration.ZERO, Duration.ZERO);

        boolean reuses() {
            return keepAlive.isPositive();
        }
    }

    /** A variant's connections: how they are reused and how many there may be. */
    public interface Connections {

        Reuse reuse();

        int maxTotal();

        /** Connections to the auth API at once. */
        int maxPerRoute();
    }

    /** The auth API's TLS trust: the install's own stub certificate; none is committed, so without it no start. */
    private SslBundle trust() {
        try {
            return sslBundles.getBundle(properties.sslBundle());
        } catch (NoSuchSslBundleException e) {
            throw new IllegalStateException("no certificate to trust for the auth API (SSL bundle '"
                    + properties.sslBundle() + "'): set spring.ssl.bundle.pem." + properties.sslBundle()
                    + ".truststore.certificate, or run stack/secrets.sh, which writes the stub's into the secrets folder "
                    + "(PERFLAB_SECRETS_DIR, default .perflab/secrets)", e);
        }
    }

    public CloseableHttpClient build(String variant, Connections sizing) {
        Reuse reuse = sizing.reuse();
        Counter opened = Counter.builder("perflab.login.http.connections.opened")
                .description("TCP (+TLS) connections opened to the auth API").tag("client", variant).register(registry);
        Counter requests = Counter.builder("perflab.login.http.requests")
                .description("requests sent to the auth API, each on a leased connection").tag("client", variant)
                .register(registry);
        AuthApiProperties.Pool pool = properties.pool();
        PoolingHttpClientConnectionManager connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setTlsSocketStrategy(new DefaultClientTlsStrategy(trust().createSslContext()))
                .setConnectionFactory(counting(opened))
                .setMaxConnTotal(sizing.maxTotal())
                .setMaxConnPerRoute(sizing.maxPerRoute())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(properties.connectTimeout()))
                        .setSocketTimeout(Timeout.of(properties.responseTimeout()))
                        .setTimeToLive(TimeValue.of(pool.timeToLive()))
                        .setValidateAfterInactivity(TimeValue.of(pool.validateAfterInactivity()))
                        .build())
                .build();
        new PoolingHttpClientConnectionManagerMetricsBinder(connections, "auth-api").bindTo(registry);
        RequestConfig.Builder requestConfig = RequestConfig.custom()
                .setConnectionRequestTimeout(Timeout.of(properties.connectionRequestTimeout()))
                .setResponseTimeout(Timeout.of(properties.responseTimeout()));
        HttpClientBuilder builder = org.apache.hc.client5.http.impl.classic.HttpClients.custom()
                .setConnectionManager(connections)
                .addRequestInterceptorFirst((request, entity, context) -> requests.increment())
                .addExecInterceptorFirst("in-flight", countingInFlight(variant))
                .disableAutomaticRetries();
        if (reuse.reuses()) {
            // DefaultConnectionKeepAliveStrategy: the server's Keep-Alive timeout, else this
            requestConfig.setConnectionKeepAlive(TimeValue.of(reuse.keepAlive()));
            builder.setConnectionReuseStrategy(DefaultConnectionReuseStrategy.INSTANCE)
                    .evictExpiredConnections().evictIdleConnections(TimeValue.of(reuse.evictIdleAfter()));
        } else {
            builder.setConnectionReuseStrategy((request, response, context) -> false);
        }
        return builder.setDefaultRequestConfig(requestConfig.build()).build();
    }

    /**
     * Records, as each call starts, how many calls are in flight, into {@code perflab_login_http_in_flight} (its
     * {@code _max}: the high-water mark of the last few seconds). The pool's leased gauge is only read when a scrape
     * gets a request thread, that is, when a call has just ended: with every thread in a call it reads one short.
     */
    private ExecChainHandler countingInFlight(String variant) {
        AtomicInteger inFlight = new AtomicInteger();
        DistributionSummary atStart = DistributionSummary.builder("perflab.login.http.in.flight")
                .description("calls in flight to the auth API, recorded as each starts (max: the high-water mark)")
                .tag("client", variant).distributionStatisticExpiry(Duration.ofSeconds(10))
                .distributionStatisticBufferLength(2).register(registry);
        return (request, scope, chain) -> {
            atStart.record(inFlight.incrementAndGet());
            try {
                return chain.proceed(request, scope);
            } finally {
                inFlight.decrementAndGet();
            }
        };
    }

    private static HttpConnectionFactory<ManagedHttpClientConnection> counting(Counter opened) {
        return new HttpConnectionFactory<>() {
            @Override
            public ManagedHttpClientConnection createConnection(Socket socket) throws IOException {
                opened.increment();
                return ManagedHttpClientConnectionFactory.INSTANCE.createConnection(socket);
            }

            @Override
            public ManagedHttpClientConnection createConnection(SSLSocket sslSocket, Socket socket) throws IOException {
                opened.increment();
                return ManagedHttpClientConnectionFactory.INSTANCE.createConnection(sslSocket, socket);
            }
        };
    }
}
