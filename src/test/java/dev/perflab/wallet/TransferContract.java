package dev.perflab.wallet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wallet contract both transfer variants pass, against real MariaDB and Redis: subclasses pick the
 * preset (wallet-before, wallet-after), each on its own database ({@link WalletSideDatabase}).
 */
@IntegrationTest
@Import(WalletSideDatabase.class)
@TestPropertySource(properties = {"perflab.wallet.pin-guard.max-failures=5", "perflab.wallet.pin-guard.free-failures=2"})
abstract class TransferContract {

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    Pins pins;

    @Autowired
    MeterRegistry meters;

    @Autowired
    Transfers transfers;

    WalletFixtures fixtures;

    /** SQL statements one transfer sends once the cache (if any) is warm. */
    abstract int statementsPerTransfer();

    @BeforeEach
    void setUp() {
        fixtures = new WalletFixtures(jdbc, pins);
    }

    Http http() {
        return new Http(port);
    }

    String token(WalletFixtures.Account account) {
        return "Bearer " + tokens.issue(account.id(), "user" + account.id()).accessToken();
    }

    Http.Response transfer(WalletFixtures.Account from, String key, String body) {
        return http().post("/api/transfers", body, "Authorization", token(from), "Idempotency-Key", key);
    }

    static String body(String phone, String amount, String pin) {
        return "{\"receiverPhone\":\"" + phone + "\",\"amount\":" + amount + ",\"pin\":\"" + pin + "\"}";
    }

    static String key() {
        return UUID.randomUUID().toString();
    }

    /**
     * PIN guessing with the default guard (2 free wrong PINs, then 1 s and 2 s pauses, the 5th locks for the hour):
     * every try with a fresh token and a fresh Idempotency-Key; at most 5 wrong PINs are checked, then even the right
     * PIN gets 429 with Retry-After, and no money moves.
     */
    @Test
    void guessingThePinStopsAfterFiveWrongOnesEvenForTheRightPinAndMovesNoMoney() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        java.util.function.Supplier<Http.Response> guess = () -> transfer(alice, key(), body(bob.phone(), "100.00", "0000"));
        List<Integer> wrong = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            wrong.add(guess.get().status());
        }
        Http.Response paused = guess.get();
        assertThat(paused.status()).isEqualTo(429);
        assertThat(paused.contentType()).startsWith("application/problem+json");
        assertThat(paused.json().at("/code").asString()).isEqualTo("too-many-pin-failures");
        assertThat(Long.parseLong(paused.header("Retry-After"))).isBetween(1L, 2L);
        for (int i = 0; i < 2; i++) { // the 4th and 5th wrong PIN, each after its pause
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .pollInterval(java.time.Duration.ofMillis(200)).until(() -> {
                        int status = guess.get().status();
                        if (status != 429) {
                            wrong.add(status);
                        }
                        return status != 429;
                    });
        }

        Http.Response right = transfer(alice, key(), body(bob.phone(), "1.00", "1234"));

        assertThat(wrong).containsOnly(403).hasSize(5);
        assertThat(right.status()).isEqualTo(429);
        assertThat(Long.parseLong(right.header("Retry-After"))).isGreaterThan(3000L);
        assertThat(guess.get().status()).isEqualTo(429);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("100.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("0.00");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wallet_transaction WHERE member_id = ?", Long.class, alice.id()))
                .isZero();
    }

    /**
     * Reserve, then verify: 120 wrong PINs for one member sent at once, each with its own Idempotency-Key, get at most
     * 5 PIN checks (403) and 429 for the rest; before the fix all 120 were checked.
     */
    @Test
    void wrongPinsSentAtOnceAreCheckedAtMostFiveTimes() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String auth = token(alice);

        Map<Integer, Long> statuses = Http.concurrently(120, i -> http().post("/api/transfers",
                body(bob.phone(), "1.00", String.format("%04d", i)), "Authorization", auth, "Idempotency-Key", key()))
                .stream().collect(java.util.stream.Collectors.groupingBy(Http.Response::status,
                        java.util.stream.Collectors.counting()));

        assertThat(statuses.keySet()).as(statuses.toString()).containsOnly(403, 429);
        assertThat(statuses.get(403)).as(statuses.toString()).isBetween(1L, 5L);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("100.00");
    }

    @Test
    void theStoredPinIsKeyedSoTheUnkeyedHashOfTheRightPinDoesNotMatchIt() {
        var alice = fixtures.account("1.00");

        String stored = jdbc.queryForObject("SELECT pin_hash FROM wallet WHERE member_id = ?", String.class, alice.id());

        assertThat(stored).hasSize(64).isEqualTo(pins.hash(alice.id(), "1234"))
                .isNotEqualTo(Pins.unkeyed(alice.id(), "1234"));
    }

    @Test
    void theWarmupsDryRunRunsEveryStatementThenRollsBackSoNothingChanges() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        transfer(alice, key(), body(bob.phone(), "1.00", "1234")); // the cache (if any) now knows bob
        String before = fixtures.snapshot();
        var statements = meters.get("perflab.wallet.transfer.statements").tag("outcome", "warmup");

        var result = transfers.transfer(alice.id(), key(), new TransferRequest(bob.phone(), new BigDecimal("1.00"), "1234"), true);

        assertThat(result.response().balanceAfter()).isEqualByComparingTo("98.00");
        assertThat(fixtures.snapshot()).isEqualTo(before);
        assertThat(statements.summary().max()).isEqualTo(statementsPerTransfer());
    }

    @Test
    void aClientCannotAskForADryRunWithoutTheProcesssSecret() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");

        var response = http().post("/api/transfers", body(bob.phone(), "1.00", "1234"), "Authorization", token(alice),
                "Idempotency-Key", key(), "X-Perflab-Warmup", "a-guess");

        assertThat(response.status()).isEqualTo(201);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("99.00");
    }

    @Test
    void aTransferMovesTheMoneyAndWritesTwoHistoryRowsFourBalancedLedgerRowsAndTheIdempotencyRecord() {
        var alice = fixtures.account("1000.00");
        var bob = fixtures.account("50.00");

        var response = transfer(alice, key(), body(bob.phone(), "250.50", "1234"));

        assertThat(response.status()).isEqualTo(201);
        var json = response.json();
        String transferId = json.at("/transferId").asString();
        assertThat(json.at("/amount").decimalValue()).isEqualByComparingTo("250.50");
        assertThat(json.at("/balanceAfter").decimalValue()).isEqualByComparingTo("749.50");
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("749.50");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("300.50");

        var history = jdbc.queryForList("SELECT member_id, type, amount, balance_before, balance_after, counterparty_member_id,"
                + " counterparty_name FROM wallet_transaction WHERE group_id = ? ORDER BY type DESC", transferId);
        assertThat(history).hasSize(2);
        assertThat(history.get(0)).containsEntry("member_id", alice.id()).containsEntry("type", "TRANSFER_OUT")
                .containsEntry("counterparty_member_id", bob.id()).containsEntry("counterparty_name", bob.name());
        assertThat((BigDecimal) history.get(0).get("balance_after")).isEqualByComparingTo("749.50");
        assertThat(history.get(1)).containsEntry("member_id", bob.id()).containsEntry("type", "TRANSFER_IN")
                .containsEntry("counterparty_member_id", alice.id()).containsEntry("counterparty_name", alice.name());
        assertThat((BigDecimal) history.get(1).get("balance_before")).isEqualByComparingTo("50.00");

        Map<String, Object> ledger = jdbc.queryForMap("SELECT COUNT(*) AS n, SUM(debit) AS debits, SUM(credit) AS credits"
                + " FROM ledger_entry WHERE group_id = ?", transferId);
        assertThat(ledger.get("n")).isEqualTo(4L);
        assertThat((BigDecimal) ledger.get("debits")).isEqualByComparingTo("501.00");
        assertThat((BigDecimal) ledger.get("credits")).isEqualByComparingTo("501.00");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM idempotency_key WHERE member_id = ?", Long.class, alice.id()))
                .isEqualTo(1);

        var me = http().get("/api/wallets/me", "Authorization", token(alice));
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().at("/balance").decimalValue()).isEqualByComparingTo("749.50");
    }

    @Test
    void theStatementCounterSeesEveryStatementOfATransfer() {
        var alice = fixtures.account("1000.00");
        var bob = fixtures.account("0.00");
        assertThat(transfer(alice, key(), body(bob.phone(), "1", "1234")).status()).isEqualTo(201); // warms any cache
        DistributionSummary statements = meters.get("perflab.wallet.transfer.statements").tag("outcome", "created").summary();
        double total = statements.totalAmount();
        long count = statements.count();

        assertThat(transfer(alice, key(), body(bob.phone(), "1", "1234")).status()).isEqualTo(201);

        assertThat(statements.count()).isEqualTo(count + 1);
        assertThat(statements.totalAmount() - total).isEqualTo(statementsPerTransfer());
    }

    static List<Arguments> badInput() {
        return List.of(
                Arguments.of("no token", 401, "unauthorized"),
                Arguments.of("a bad token", 401, "unauthorized"),
                Arguments.of("a wrong PIN", 403, "wrong-pin"),
                Arguments.of("a zero amount", 400, "invalid-amount"),
                Arguments.of("a negative amount", 400, "invalid-amount"),
                Arguments.of("three decimals", 400, "invalid-amount"),
                Arguments.of("an amount over the limit", 400, "amount-over-limit"),
                Arguments.of("an unknown receiver", 404, "receiver-not-found"),
                Arguments.of("a transfer to oneself", 409, "self-transfer"),
                Arguments.of("insufficient funds", 409, "insufficient-funds"),
                Arguments.of("malformed JSON", 400, "malformed-body"),
                Arguments.of("no Idempotency-Key", 400, "missing-header"),
                Arguments.of("an Idempotency-Key that is no UUID", 400, "invalid-idempotency-key"),
                Arguments.of("an Idempotency-Key without dashes", 400, "invalid-idempotency-key"));
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @MethodSource("badInput")
    void badInputGetsProblemJsonAndLeavesTheDatabaseUnchanged(String input, int status, String code) {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("100.00");
        String bearer = token(alice);
        String ok = body(bob.phone(), "10.00", "1234");
        String before = fixtures.snapshot();

        Http.Response response = switch (input) {
            case "no token" -> http().post("/api/transfers", ok, "Idempotency-Key", key());
            case "a bad token" -> http().post("/api/transfers", ok, "Authorization", bearer + "x", "Idempotency-Key", key());
            case "a wrong PIN" -> transfer(alice, key(), body(bob.phone(), "10.00", "9999"));
            case "a zero amount" -> transfer(alice, key(), body(bob.phone(), "0", "1234"));
            case "a negative amount" -> transfer(alice, key(), body(bob.phone(), "-5.00", "1234"));
            case "three decimals" -> transfer(alice, key(), body(bob.phone(), "1.001", "1234"));
            case "an amount over the limit" -> transfer(alice, key(), body(bob.phone(), "2000000.01", "1234"));
            case "an unknown receiver" -> transfer(alice, key(), body("0100000000000", "10.00", "1234"));
            case "a transfer to oneself" -> transfer(alice, key(), body(alice.phone(), "10.00", "1234"));
            case "insufficient funds" -> transfer(alice, key(), body(bob.phone(), "100.01", "1234"));
            case "malformed JSON" -> transfer(alice, key(), "{\"receiverPhone\": ");
            case "no Idempotency-Key" -> http().post("/api/transfers", ok, "Authorization", bearer);
            case "an Idempotency-Key that is no UUID" -> transfer(alice, "not-a-uuid", ok);
            case "an Idempotency-Key without dashes" -> transfer(alice, key().replace("-", ""), ok);
            default -> throw new IllegalArgumentException(input);
        };

        assertThat(response.status()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo(code);
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void theSameKeyAndBodyReplaysTheStoredResponseAndDebitsOnce() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String key = key();
        String body = body(bob.phone(), "30.00", "1234");

        var first = transfer(alice, key, body);
        var second = transfer(alice, key, body);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isEqualTo("false");
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.json()).isEqualTo(first.json());
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("70.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("30.00");
    }

    @Test
    void theKeyInUpperCaseIsTheSameKeyAndTheSchemeMayHaveMoreSpaces() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String key = key();
        String body = body(bob.phone(), "30.00", "1234");
        assertThat(transfer(alice, key, body).status()).isEqualTo(201);

        var again = http().post("/api/transfers", body, "Authorization", token(alice).replace("Bearer ", "bearer   "),
                "Idempotency-Key", key.toUpperCase(Locale.ROOT));

        assertThat(again.status()).isEqualTo(201);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("70.00");
    }

    @Test
    void theSameKeyWithAnotherBodyIsRejectedAndChangesNothing() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String key = key();
        assertThat(transfer(alice, key, body(bob.phone(), "30.00", "1234")).status()).isEqualTo(201);
        String before = fixtures.snapshot();

        var reused = transfer(alice, key, body(bob.phone(), "31.00", "1234"));

        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.json().at("/code").asString()).isEqualTo("idempotency-key-reused");
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void racingRequestsWithTheSameKeyDebitOnceAndAllGetTheSameResponse() throws Exception {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String key = key();
        String body = body(bob.phone(), "10.00", "1234");

        List<Http.Response> responses = race(8, () -> transfer(alice, key, body));

        assertThat(responses).extracting(Http.Response::status).containsOnly(201);
        assertThat(responses).extracting(r -> r.json().at("/transferId").asString()).containsOnly(
                responses.getFirst().json().at("/transferId").asString());
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("90.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("10.00");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wallet_transaction WHERE member_id = ?", Long.class, alice.id()))
                .isEqualTo(1);
    }

    @Test
    void concurrentTransfersIncludingReversePairsConserveMoneyAndKeepTheLedgerBalanced() throws Exception {
        List<WalletFixtures.Account> accounts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            accounts.add(fixtures.account("100.00"));
        }
        BigDecimal sumBefore = fixtures.sumOfBalances(accounts);
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<String> transferIds = java.util.Collections.synchronizedList(new ArrayList<>());

        race(12, () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < 12; i++) {
                int a = random.nextInt(accounts.size());
                int b = (a + 1 + random.nextInt(accounts.size() - 1)) % accounts.size();
                int cents = random.nextInt(1, 4000); // 0.01 to 39.99: never 0.00, which is a 400 by contract
                String amount = cents / 100 + "." + String.format("%02d", cents % 100);
                // a pair and its reverse, back to back: A→B then B→A
                for (int[] pair : new int[][] {{a, b}, {b, a}}) {
                    var response = transfer(accounts.get(pair[0]), key(), body(accounts.get(pair[1]).phone(), amount, "1234"));
                    statuses.merge(response.status(), 1, Integer::sum);
                    if (response.status() == 201) {
                        transferIds.add(response.json().at("/transferId").asString());
                    }
                }
            }
            return null;
        });

        assertThat(statuses.keySet()).as("statuses %s", statuses).isSubsetOf(201, 409);
        assertThat(statuses.get(201)).isGreaterThan(100);
        assertThat(fixtures.sumOfBalances(accounts)).isEqualByComparingTo(sumBefore);
        assertThat(accounts).allSatisfy(a -> assertThat(fixtures.balance(a.id())).isNotNegative());
        String ids = accounts.stream().map(a -> Long.toString(a.id())).reduce((x, y) -> x + "," + y).orElseThrow();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM wallet_transaction WHERE member_id IN (" + ids + ")", Long.class))
                .isEqualTo(2L * transferIds.size());
        List<Map<String, Object>> groups = jdbc.queryForList("SELECT group_id, COUNT(*) AS n, SUM(debit) - SUM(credit) AS diff"
                + " FROM ledger_entry WHERE wallet_id IN (SELECT id FROM wallet WHERE member_id IN (" + ids + "))"
                + " GROUP BY group_id");
        assertThat(groups).hasSize(transferIds.size());
        assertThat(groups).allSatisfy(g -> {
            assertThat(g.get("n")).isEqualTo(4L);
            assertThat((BigDecimal) g.get("diff")).isEqualByComparingTo("0");
        });
        // every history row's balance_after is the next one's balance_before, per wallet: no lost update
        for (var account : accounts) {
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT balance_before, balance_after FROM wallet_transaction"
                    + " WHERE member_id = ? ORDER BY id", account.id());
            for (int i = 1; i < rows.size(); i++) {
                assertThat((BigDecimal) rows.get(i).get("balance_before"))
                        .isEqualByComparingTo((BigDecimal) rows.get(i - 1).get("balance_after"));
            }
        }
    }

    @Test
    void aPhoneChangeIsFollowedAtOnceByTransfers() {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        assertThat(transfer(alice, key(), body(bob.phone(), "1.00", "1234")).status()).isEqualTo(201); // cached now
        String newPhone = "08" + bob.phone().substring(2);

        var changed = http().put("/api/members/me/phone", "{\"phone\":\"" + newPhone + "\"}", "Authorization", token(bob));

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().at("/phone").asString()).isEqualTo(newPhone);
        var toOld = transfer(alice, key(), body(bob.phone(), "1.00", "1234"));
        assertThat(toOld.status()).isEqualTo(404);
        assertThat(toOld.json().at("/code").asString()).isEqualTo("receiver-not-found");
        assertThat(transfer(alice, key(), body(newPhone, "1.00", "1234")).status()).isEqualTo(201);
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("2.00");
    }

    @Test
    void aPhoneTakenByAnotherMemberIsAConflict() {
        var alice = fixtures.account("0.00");
        var bob = fixtures.account("0.00");
        var response = http().put("/api/members/me/phone", "{\"phone\":\"" + alice.phone() + "\"}", "Authorization", token(bob));
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.json().at("/code").asString()).isEqualTo("phone-taken");
    }

    @Test
    void aDeadlockVictimIsRetriedAndCountedAndTheTransferSucceeds() throws Exception {
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00"); // created second: bob's member id is the larger, locked second
        double deadlocksBefore = deadlocks();
        javax.sql.DataSource dataSource = jdbc.getDataSource();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (var other = dataSource.getConnection(); var probe = dataSource.getConnection()) {
            other.setAutoCommit(false);
            // the probe's locking read must not keep the lock it takes: on a preset with auto-commit off (wallet-after)
            // a probe that ran before the app locked alice would hold her row, and the app would wait on the probe
            probe.setAutoCommit(true);
            try (var heavy = other.prepareStatement("INSERT INTO idempotency_key (member_id, idem_key, request_hash,"
                    + " response_status, response_body) VALUES (0, ?, '', 0, '')")) {
                for (int i = 0; i < 20; i++) { // weight, so that InnoDB picks the app's transaction as the victim
                    heavy.setString(1, key());
                    heavy.executeUpdate();
                }
            }
            other.createStatement().executeQuery("SELECT id FROM wallet WHERE member_id = " + bob.id() + " FOR UPDATE").close();

            Future<Http.Response> response = threads.submit(() -> transfer(alice, key(), body(bob.phone(), "10.00", "1234")));
            // the app holds alice's wallet (and waits for bob's) once alice's row cannot be skipped-locked
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
                try (var rs = probe.createStatement().executeQuery(
                        "SELECT id FROM wallet WHERE member_id = " + alice.id() + " FOR UPDATE SKIP LOCKED")) {
                    return !rs.next();
                }
            });
            Future<?> cycle = threads.submit(() -> {
                other.createStatement().executeQuery("SELECT id FROM wallet WHERE member_id = " + alice.id() + " FOR UPDATE").close();
                return null;
            });
            cycle.get(30, java.util.concurrent.TimeUnit.SECONDS); // returns once the app's transaction was the victim
            other.rollback();

            var result = response.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(result.status()).isEqualTo(201);
        } finally {
            threads.shutdownNow();
        }
        assertThat(deadlocks() - deadlocksBefore).isEqualTo(1);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("90.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("10.00");
    }

    double deadlocks() {
        var counter = meters.find("perflab.wallet.lock.failures").tag("kind", "deadlock").counter();
        return counter == null ? 0 : counter.count();
    }

    /** Runs the task on n threads released at once; returns their results. */
    static <T> List<T> race(int n, Callable<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(120, java.util.concurrent.TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
