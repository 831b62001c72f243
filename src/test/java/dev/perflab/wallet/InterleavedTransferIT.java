package dev.perflab.wallet;

import dev.perflab.testing.Http;
import io.micrometer.core.instrument.search.Search;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wallet in the runner's interleaved mode (wallet-after preset, MariaDB and Redis): a request without an arm keeps
 * the whole transfer contract, each request with one takes the code paths of its arm's side, the arm's statements and
 * request CPU are counted per arm, and an arm the app was not started with is a 400 that moves no money.
 */
@ActiveProfiles("wallet-after")
@TestPropertySource(properties = {"perflab.lab.interleave.enabled=true", "perflab.lab.interleave.arms=slow,fast",
        "perflab.lab.interleave.sides.slow=before", "perflab.lab.interleave.sides.fast=after"})
class InterleavedTransferIT extends TransferContract {

    /** A request without an arm takes the app's own variant, wallet-after's: the whole contract holds for it. */
    @Override
    int statementsPerTransfer() {
        return 5;
    }

    private Http.Response transfer(WalletFixtures.Account from, WalletFixtures.Account to, String arm) {
        return http().post("/api/transfers", body(to.phone(), "1.00", "1234"), "Authorization", token(from),
                "Idempotency-Key", key(), "X-Perflab-Arm", arm);
    }

    private double armStatements(String arm) {
        var summary = Search.in(meters).name("perflab.wallet.arm.statements").tag("arm", arm).tag("outcome", "created").summary();
        return summary == null ? 0 : summary.totalAmount();
    }

    private double armCount(String name, String arm) {
        var counter = Search.in(meters).name(name).tag("arm", arm).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void eachArmTakesTheCodePathsOfItsSide() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        transfer(alice, bob, "fast"); // fills the phone cache
        double slow = armStatements("slow");
        double fast = armStatements("fast");

        assertThat(transfer(alice, bob, "slow").status()).isEqualTo(201);
        assertThat(transfer(alice, bob, "fast").status()).isEqualTo(201);

        assertThat(armStatements("slow") - slow).isEqualTo(12);
        assertThat(armStatements("fast") - fast).isEqualTo(5);
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("3.00");
    }

    @Test
    void eachArmsRequestsAndRequestThreadCpuAreCounted() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        double requests = armCount("perflab.lab.arm.requests", "slow");
        double cpu = armCount("perflab.lab.arm.cpu", "slow");

        transfer(alice, bob, "slow");

        assertThat(armCount("perflab.lab.arm.requests", "slow")).isEqualTo(requests + 1);
        assertThat(armCount("perflab.lab.arm.cpu", "slow")).isGreaterThan(cpu);
    }

    @Test
    void anArmTheAppWasNotStartedWithIsABadRequestThatMovesNoMoney() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");

        Http.Response upperCase = transfer(alice, bob, "SLOW");
        Http.Response unknown = transfer(alice, bob, "medium");

        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.contentType()).startsWith("application/problem+json");
        assertThat(unknown.json().at("/code").asString()).isEqualTo("unknown-arm");
        assertThat(upperCase.status()).isEqualTo(400);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("10.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("0.00");
    }
}
