package dev.perflab.login;

import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import dev.perflab.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.ssl.SslBundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * On the native stack the app trusts only the stub key pair made for this install (stack/secrets.sh): a host that
 * presents another key for the same names (made here with keytool, as anyone could), as one reached through a
 * repointed proxy would, fails the handshake, while the stub itself passes it. No key pair is committed.
 */
@IntegrationTest
class AuthApiTrustIT {

    private static final Path GENERATED = Path.of(".perflab", "secrets", "spring.ssl.bundle.pem.auth-api.truststore.certificate");

    @Autowired
    SslBundles bundles;

    @Test
    void aHostPresentingAnotherKeyIsNotTrustedButTheInstallsStubIs() throws Exception {
        assumeTrue(Files.exists(GENERATED) && System.getenv("PERFLAB_SECRETS_DIR") == null,
                "the native stack's generated key pair (stack/secrets.sh) is what this checks");
        SSLContext client = bundles.getBundle("auth-api").createSslContext();
        try (SSLServerSocket impostor = impostorServer()) {
            CompletableFuture.runAsync(() -> {
                try (SSLSocket accepted = (SSLSocket) impostor.accept()) {
                    accepted.startHandshake();
                } catch (Exception expected) {
                    // the client aborts the handshake
                }
            });
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", impostor.getLocalPort())) {
                assertThatThrownBy(socket::startHandshake).isInstanceOf(SSLHandshakeException.class);
            }
        }
        int stubPort = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_WIREMOCK_HTTPS_PORT", "8443"));
        try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", stubPort)) {
            assertThatCode(socket::startHandshake).doesNotThrowAnyException();
        }
    }

    /** A TLS server with a self-signed key pair for the stub's names, made now by the JDK's keytool. */
    private static SSLServerSocket impostorServer() throws Exception {
        Path store = Files.createTempDirectory("impostor").resolve("impostor.p12");
        char[] password = "impostor-only".toCharArray();
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "auth-api", "-keyalg", "RSA", "-keysize", "2048", "-validity", "1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", new String(password), "-keypass", new String(password))
                .redirectErrorStream(true).start();
        assertThat(keytool.waitFor()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(store.toFile())) {
            keys.load(in, password);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, password);
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(factory.getKeyManagers(), null, null);
        return (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0);
    }
}
