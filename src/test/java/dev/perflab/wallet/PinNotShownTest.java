package dev.perflab.wallet;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 14, "check every stored or logged value": a record's default toString would put the PIN in any log line. */
class PinNotShownTest {

    @Test
    void theTransferRequestAndCommandNeverShowThePinOrTheRequestHash() {
        TransferRequest request = new TransferRequest("01000000002", new BigDecimal("1.00"), "4821");
        TransferCommand command = new TransferCommand(1, new MemberRef(2, "Bob"), "k", "hash-of-the-request", "t",
                new BigDecimal("1.00"), "keyed-hash-of-4821");

        assertThat(request.toString()).doesNotContain("4821").contains("01000000002");
        assertThat(command.toString()).doesNotContain("4821").doesNotContain("hash-of-the-request")
                .doesNotContain("keyed-hash-of-4821");
    }
}
