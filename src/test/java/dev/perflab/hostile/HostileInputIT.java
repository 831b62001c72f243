package dev.perflab.hostile;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.perflab.support.security.JwtProperties;
import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.wallet.Pins;
import dev.perflab.wallet.WalletFixtures;
import dev.perflab.wallet.WalletSideDatabase;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hostile-input suite (issue 14): the real app on MariaDB and Redis, attacked the way an attacker would:
 * forged and malformed tokens, oversized and deeply nested bodies, numbers beyond double and BigDecimal, NaN,
 * wrong types, duplicate keys, injection strings, invalid UTF-8, wrong content types, malformed URLs and headers
 * that Tomcat rejects before Spring. Every answer must be a 4xx problem+json that names no class, package, SQL or
 * stack frame, and a {@code CHECKSUM TABLE} over every table of the database must not change.
 */
@IntegrationTest
@Import(WalletSideDatabase.class)
@ActiveProfiles("wallet-after")
class HostileInputIT {

    /** What must never reach a client: stack frames, class and package names, SQL, the server's name. */
    private static final Pattern LEAK = Pattern.compile(
            "Exception|\\bat [a-z]+\\.[a-z]|java\\.|javax\\.|jakarta\\.|org\\.[a-z]|dev\\.perflab|tools\\.jackson|com\\.|"
                    + "SQL|(?i:select |insert |update |mariadb|mysql|hikari|tomcat|lettuce|stack ?trace)");

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;
    @Autowired
    JwtProperties jwt;
    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    dev.perflab.wallet.Pins pins;

    private WalletFixtures fixtures;
    private WalletFixtures.Account alice;
    private WalletFixtures.Account bob;

    @BeforeEach
    void accounts() {
        fixtures = new WalletFixtures(jdbc, pins);
    }

    private record Case(String name, Supplier<RawHttp.Answer> request) {
    }

    @TestFactory
    Stream<DynamicTest> everyHostileRequestIsA4xxProblemThatLeaksNothingAndChangesNoTable() {
        fixtures = new WalletFixtures(jdbc, pins);
        alice = fixtures.account("100.00");
        bob = fixtures.account("100.00");
        List<Case> cases = new ArrayList<>();
        tokenCases(cases);
        bodyCases(cases);
        urlAndHeaderCases(cases);
        otherEndpointCases(cases);
        System.out.println("hostile cases: " + (cases.size() + 1)); // + the phone race below
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            String before = checksum();
            RawHttp.Answer answer = c.request().get();
            assertThat(answer.status()).as(c.name() + ": " + answer.body()).isBetween(400, 499);
            assertThat(answer.contentType()).as(c.name()).startsWith("application/problem+json");
            assertThat(answer.body()).as(c.name()).contains("\"code\"");
            assertThat(LEAK.matcher(answer.body()).find()).as(c.name() + " leaks: " + answer.body()).isFalse();
            assertThat(checksum()).as(c.name() + " changed a table").isEqualTo(before);
        }));
    }

    /** Two members claim one phone number at the same moment: one gets it, the other a 409 problem. */
    @Test
    void twoMembersRacingForOnePhoneNumberLeaveExactlyOneOwner() {
        Http http = new Http(port);
        var first = fixtures.account("1.00");
        var second = fixtures.account("1.00");
        String phone = "0977" + String.format("%09d", System.nanoTime() % 1_000_000_000L);
        String body = "{\"phone\":\"" + phone + "\"}";
        var a = CompletableFuture.supplyAsync(() -> http.put("/api/members/me/phone", body, "Authorization", bearer(first.id())));
        var b = CompletableFuture.supplyAsync(() -> http.put("/api/members/me/phone", body, "Authorization", bearer(second.id())));
        List<Http.Response> answers = List.of(a.join(), b.join());

        assertThat(answers).extracting(Http.Response::status).containsExactlyInAnyOrder(200, 409);
        Http.Response loser = answers.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        assertThat(loser.contentType()).startsWith("application/problem+json");
        assertThat(loser.json().at("/code").asString()).isEqualTo("phone-taken");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM member WHERE phone = ?", Long.class, phone)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- tokens

    private void tokenCases(List<Case> cases) {
        long now = Instant.now().getEpochSecond();
        String claims = claims(alice.id(), now + 600, "perflab", "");
        String valid = tokens.issue(alice.id(), "user" + alice.id()).accessToken();
        String[] parts = valid.split("\\.");
        String admin = "\"roles\":[\"admin\"]";
        me(cases, "alg none", jws("{\"alg\":\"none\",\"typ\":\"JWT\"}", claims, "") );
        me(cases, "alg none keeping a real signature", b64("{\"alg\":\"none\"}") + "." + parts[1] + "." + parts[2]);
        me(cases, "alg None (case)", jws("{\"alg\":\"None\"}", claims, ""));
        me(cases, "signed with a wrong key", hs256("{\"alg\":\"HS256\"}", claims, "an-attackers-key-0123456789abcdef-xyz"));
        me(cases, "signed with the empty key", hs256("{\"alg\":\"HS256\"}", claims, "\0"));
        me(cases, "expired", hs256("{\"alg\":\"HS256\"}", claims(alice.id(), now - 3600, "perflab", ""), jwt.secret()));
        me(cases, "not valid before next year", hs256("{\"alg\":\"HS256\"}",
                claims(alice.id(), now + 600, "perflab", ",\"nbf\":" + (now + 31_536_000)), jwt.secret()));
        me(cases, "another issuer", hs256("{\"alg\":\"HS256\"}", claims(alice.id(), now + 600, "evil", ""), jwt.secret()));
        me(cases, "swapped claims: bob's subject under alice's signature",
                parts[0] + "." + b64(claims(bob.id(), now + 600, "perflab", "")) + "." + parts[2]);
        me(cases, "swapped claims: admin role under alice's signature",
                parts[0] + "." + b64(claims(alice.id(), now + 600, "perflab", "," + admin)) + "." + parts[2]);
        me(cases, "HS512 with the real secret", hmac("{\"alg\":\"HS512\"}", claims, jwt.secret(), "HmacSHA512"));
        me(cases, "RS256 header over an HMAC signature", hs256("{\"alg\":\"RS256\"}", claims, jwt.secret()));
        me(cases, "a jku header to an attacker's keys", hs256("{\"alg\":\"HS256\",\"jku\":\"http://127.0.0.1:1/k\",\"kid\":\"../../x\"}",
                claims, "an-attackers-key-0123456789abcdef-xyz"));
        me(cases, "payload that is not JSON", hs256("{\"alg\":\"HS256\"}", "hello", jwt.secret()).replace(b64("hello"), b64("hello")));
        me(cases, "payload of a JSON array", hs256("{\"alg\":\"HS256\"}", "[1,2]", jwt.secret()));
        me(cases, "two parts", parts[0] + "." + parts[1]);
        me(cases, "four parts", valid + ".x");
        me(cases, "signature cut short", valid.substring(0, valid.length() - 4));
        me(cases, "not base64", "!!!.@@@.###");
        me(cases, "a JWE-shaped token", "a.b.c.d.e");
        cases.add(new Case("empty Bearer", () -> get("/api/wallets/me", "Authorization: Bearer \r\n")));
        cases.add(new Case("Bearer with two tokens", () -> get("/api/wallets/me", "Authorization: Bearer " + valid + " " + valid + "\r\n")));
        cases.add(new Case("Basic scheme", () -> get("/api/wallets/me", "Authorization: Basic dXNlcjE6cGVyZmxhYi1wYXNz\r\n")));
        cases.add(new Case("a 50 KB token", () -> get("/api/wallets/me", "Authorization: Bearer " + "a".repeat(50_000) + "\r\n")));
        cases.add(new Case("a forged admin token on an admin route", () -> raw("PUT", "/api/admin/universities/1/routes/1",
                "Authorization: Bearer " + hs256("{\"alg\":\"HS256\"}", claims(alice.id(), now + 600, "perflab", "," + admin),
                        "an-attackers-key-0123456789abcdef-xyz") + "\r\nContent-Type: application/json\r\n", "{\"distance\":1}")));
        cases.add(new Case("a member's token on an admin route", () -> raw("PUT", "/api/admin/universities/1/routes/1",
                "Authorization: Bearer " + valid + "\r\nContent-Type: application/json\r\n", "{\"distance\":1}")));
        cases.add(new Case("a member's token on the actuator's configprops", () -> get("/actuator/configprops",
                "Authorization: Bearer " + valid + "\r\n")));
    }

    private void me(List<Case> cases, String name, String token) {
        cases.add(new Case("token: " + name, () -> get("/api/wallets/me", "Authorization: Bearer " + token + "\r\n")));
    }

    // ---------------------------------------------------------------- bodies

    private void bodyCases(List<Case> cases) {
        String phone = bob.phone();
        transfer(cases, "a 300 KB body", "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\",\"pad\":\"" + "x".repeat(300_000) + "\"}");
        transfer(cases, "nesting 10,000 deep", "{\"receiverPhone\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
        transfer(cases, "nesting 40 deep in an unknown field", "{\"x\":" + "{\"a\":".repeat(40) + "1" + "}".repeat(40)
                + ",\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\"}");
        for (String amount : List.of("1e400", "-1e400", "1e-400", "1e999999999", "1e2147483648", "1e-2147483648", "9".repeat(5000),
                "0." + "0".repeat(2000) + "1", "NaN", "Infinity", "-Infinity", "\"NaN\"", "\"Infinity\"", "\"1e400\"", "-0.00", "0.001",
                "1.005", "-1", "0x10", "1_000", "01.00", "+1.00", ".5", "1.", "true", "null", "[]", "{}", "[1.00]", "{\"value\":1}",
                "\"ten\"", "\"\"", "2000000.01", "1e7")) {
            transfer(cases, "amount " + abbreviate(amount), "{\"receiverPhone\":\"" + phone + "\",\"amount\":" + amount + ",\"pin\":\"1234\"}");
        }
        for (String receiver : List.of("\"' OR '1'='1\"", "\"01000000002' OR 1=1 -- \"", "\"0100000000; DROP TABLE wallet\"",
                "\"${jndi:ldap://127.0.0.1:1/a}\"", "\"<script>alert(1)</script>\"", "\"{{7*7}}\"", "\"%00\"",
                "\"\\u0000" + phone + "\"", "\"" + phone + "\\u0000\"", "\"\\u0660\\u0661\\u0660\\u0660\\u0660\\u0660\\u0660\\u0660\\u0660\\u0660\\u0662\"",
                "\"\\uff10\\uff11\\uff10\\uff10\\uff10\\uff10\\uff10\\uff10\\uff10\\uff10\\uff12\"", "[\"" + phone + "\"]", "{\"$ne\":null}",
                "true", "null", "\"" + "9".repeat(5000) + "\"", "\"" + alice.phone() + "\"")) {
            transfer(cases, "receiverPhone " + abbreviate(receiver), "{\"receiverPhone\":" + receiver + ",\"amount\":1.00,\"pin\":\"1234\"}");
        }
        for (String pin : List.of("\"' OR 1=1 -- \"", "\"0000\"", "\"12345\"", "\"1234\\u0000\"", "[\"1234\"]", "{\"pin\":\"1234\"}",
                "null", "\"" + "1".repeat(100_000) + "\"")) {
            transfer(cases, "pin " + abbreviate(pin), "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":" + pin + "}");
        }
        transfer(cases, "duplicate amount keys", "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"amount\":2.00,\"pin\":\"1234\"}");
        transfer(cases, "duplicate receiver keys", "{\"receiverPhone\":\"" + phone + "\",\"receiverPhone\":\"" + alice.phone()
                + "\",\"amount\":1.00,\"pin\":\"1234\"}");
        transfer(cases, "a JSON array body", "[{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\"}]");
        transfer(cases, "a JSON null body", "null");
        transfer(cases, "a JSON string body", "\"transfer\"");
        transfer(cases, "an empty body", "");
        transfer(cases, "two JSON documents", "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"0000\"}{}");
        transfer(cases, "a comment in the JSON", "{/* hi */\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\"}");
        transfer(cases, "single quotes", "{'receiverPhone':'" + phone + "','amount':1.00,'pin':'1234'}");
        transfer(cases, "a trailing comma", "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\",}");
        cases.add(new Case("body: invalid UTF-8", () -> transferBytes("application/json", concat(
                RawHttp.utf8("{\"receiverPhone\":\"" + phone), new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF},
                RawHttp.utf8("\",\"amount\":1.00,\"pin\":\"1234\"}")), UUID.randomUUID().toString())));
        cases.add(new Case("body: overlong UTF-8 quote", () -> transferBytes("application/json", concat(
                RawHttp.utf8("{\"receiverPhone\":\"" + phone), new byte[] {(byte) 0xC0, (byte) 0xA2},
                RawHttp.utf8(",\"amount\":1.00,\"pin\":\"1234\"}")), UUID.randomUUID().toString())));
        String ok = "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\"}";
        for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/json; charset=no-such-charset", "application/x-java-serialized-object", "")) {
            cases.add(new Case("content type " + (type.isEmpty() ? "(none)" : type),
                    () -> transferBytes(type, RawHttp.utf8(ok), UUID.randomUUID().toString())));
        }
        for (String key : List.of("'; DROP TABLE idempotency_key; --", "../../etc/passwd", "00000000-0000-0000-0000-00000000000g",
                "00000000-0000-0000-0000-0000000000000", "{{key}}", "%00", "\u00e9" + UUID.randomUUID().toString().substring(1))) {
            cases.add(new Case("Idempotency-Key " + abbreviate(key), () -> transferBytes("application/json", RawHttp.utf8(ok), key)));
        }
    }

    private void transfer(List<Case> cases, String name, String json) {
        cases.add(new Case("body: " + name, () -> transferBytes("application/json", RawHttp.utf8(json), UUID.randomUUID().toString())));
    }

    private RawHttp.Answer transferBytes(String contentType, byte[] body, String key) {
        return new RawHttp(port).send("POST", "/api/transfers", "Authorization: " + bearer(alice.id()) + "\r\nIdempotency-Key: "
                + new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1) + "\r\n"
                + (contentType.isEmpty() ? "" : "Content-Type: " + contentType + "\r\n"), body);
    }

    // ---------------------------------------------------------------- URLs and headers (Tomcat before Spring)

    private void urlAndHeaderCases(List<Case> cases) {
        String auth = "Authorization: " + bearer(alice.id()) + "\r\n";
        for (String target : List.of("/api/wallets/%00", "/api/wallets/me%00", "/api/%2e%2e/actuator/configprops",
                "/api/../../../etc/passwd", "/api/wallets/%zz", "/api/wallets/%", "/api/wallets%2Fme", "/api/wallets/me;jsessionid=1",
                "/api/%c0%ae%c0%ae/actuator/configprops", "/api/wallets/me\\..\\..", "/api//wallets/me", "/api/wallets/me/..;/..;/actuator/configprops",
                "/api/universities/1%0d%0aSet-Cookie:x=1/routes")) {
            cases.add(new Case("path " + target, () -> get(target, auth)));
        }
        cases.add(new Case("a raw control character in the path", () -> get("/api/wallets/\u0001me", auth)));
        cases.add(new Case("a raw space in the path", () -> raw("GET", "/api/wallets/ me", auth, null)));
        cases.add(new Case("a request target that is no path", () -> get("api/wallets/me", auth)));
        cases.add(new Case("a 20 KB header", () -> get("/api/wallets/me", auth + "X-Pad: " + "p".repeat(20_000) + "\r\n")));
        cases.add(new Case("200 headers", () -> get("/api/wallets/me", auth + "X-Many: 1\r\n".repeat(200))));
        cases.add(new Case("a header name with a space", () -> get("/api/wallets/me", auth + "Bad Header: 1\r\n")));
        cases.add(new Case("no Host header", () -> new RawHttp(port).sendWithoutHost("/api/wallets/me")));
        cases.add(new Case("TRACE", () -> raw("TRACE", "/api/wallets/me", auth, null)));
        cases.add(new Case("an unknown method", () -> raw("BREW", "/api/wallets/me", auth, null)));
        cases.add(new Case("DELETE on transfers", () -> raw("DELETE", "/api/transfers", auth, null)));
        cases.add(new Case("a bad query string escape", () -> get("/api/lab/dependency?delayMs=%zz", auth)));
    }

    // ---------------------------------------------------------------- other endpoints

    private void otherEndpointCases(List<Case> cases) {
        String auth = "Authorization: " + bearer(alice.id()) + "\r\n";
        for (String delay : List.of("-1", "99999999999", "abc", "1e3", "1000;DROP", "1000.5")) {
            cases.add(new Case("lab delayMs=" + delay, () -> get("/api/lab/dependency?delayMs=" + delay, auth)));
        }
        for (String univ : List.of("abc", "99999999999999999999", "-1", "1.5", "0x10")) {
            cases.add(new Case("route univId " + univ, () -> get("/api/universities/" + univ + "/routes", auth)));
        }
        for (String login : List.of("{\"loginId\":\"' OR '1'='1\",\"password\":\"' OR '1'='1\"}", "{\"loginId\":\"user1\"}",
                "{\"loginId\":[\"user1\"],\"password\":\"perflab-pass\"}", "{\"loginId\":\"user1\",\"password\":\"x\",\"password\":\"perflab-pass\"}",
                "{\"loginId\":\"" + "u".repeat(300_000) + "\",\"password\":\"x\"}", "{\"loginId\":\"perflab-admin\",\"password\":\"perflab-pass\"}",
                "{\"loginId\":\"user1\\\"},{\\\"loginId\\\":\\\"perflab-admin\",\"password\":\"x\"}", "not json")) {
            cases.add(new Case("login " + abbreviate(login), () -> raw("POST", "/api/auth/login", "Content-Type: application/json\r\n", login)));
        }
        for (String phone : List.of("\"" + bob.phone() + "\"", "\"' OR 1=1 --\"", "123", "null", "[]", "\"" + "1".repeat(100) + "\"")) {
            cases.add(new Case("phone change to " + abbreviate(phone), () -> raw("PUT", "/api/members/me/phone",
                    auth + "Content-Type: application/json\r\n", "{\"phone\":" + phone + "}")));
        }
    }

    // ---------------------------------------------------------------- helpers

    private RawHttp.Answer get(String target, String headers) {
        return raw("GET", target, headers, null);
    }

    private RawHttp.Answer raw(String method, String target, String headers, String body) {
        return new RawHttp(port).send(method, target, headers, body == null ? null : RawHttp.utf8(body));
    }

    private String bearer(long memberId) {
        return "Bearer " + tokens.issue(memberId, "user" + memberId).accessToken();
    }

    /** CHECKSUM TABLE over every table of the database, and each table's row count. */
    private String checksum() {
        List<String> tables = jdbc.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_type = 'BASE TABLE' ORDER BY table_name", String.class);
        StringBuilder out = new StringBuilder();
        jdbc.query("CHECKSUM TABLE " + String.join(", ", tables.stream().map(t -> "`" + t + "`").toList()),
                rs -> { out.append(rs.getString(1)).append('=').append(rs.getString(2)).append(';'); });
        return out.toString();
    }

    private static String claims(long subject, long exp, String issuer, String extra) {
        return "{\"iss\":\"" + issuer + "\",\"sub\":\"" + subject + "\",\"login\":\"user" + subject + "\",\"iat\":"
                + (exp - 600) + ",\"exp\":" + exp + extra + "}";
    }

    private static String jws(String header, String claims, String signature) {
        return b64(header) + "." + b64(claims) + "." + signature;
    }

    private static String hs256(String header, String claims, String key) {
        return hmac(header, claims, key, "HmacSHA256");
    }

    private static String hmac(String header, String claims, String key, String algorithm) {
        try {
            String signed = b64(header) + "." + b64(claims);
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), algorithm));
            return signed + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String b64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String abbreviate(String text) {
        String flat = text.replaceAll("[\\p{Cntrl}]", "?");
        return flat.length() <= 40 ? flat : flat.substring(0, 37) + "...";
    }
}
