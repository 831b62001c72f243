package dev.perflab.wallet;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.perflab.support.security.TokenService;
import dev.perflab.support.warmup.WarmupRequest;
import dev.perflab.support.warmup.WarmupRequests;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The wallet's share of the server warm-up: dry-run transfers between the first two wallets (every statement runs,
 * then the transaction is rolled back) and balance reads. Nothing when the database has no wallets yet; no transfers
 * without the install's PIN ({@code perflab.wallet.warmup-pin}), whose wrong guesses the PIN guard would count.
 */
@Component
@ConditionalOnProperty(name = "perflab.server.warmup", havingValue = "on")
class WalletWarmupRequests implements WarmupRequests {

    private final WalletMemberMapper members;
    private final TokenService tokens;
    private final WalletKnobs knobs;

    WalletWarmupRequests(WalletMemberMapper members, TokenService tokens, WalletKnobs knobs) {
        this.members = members;
        this.tokens = tokens;
        this.knobs = knobs;
    }

    @Override
    public List<WarmupRequest> warmupRequests() {
        List<Long> pair = members.firstWithWallet(2);
        if (pair.size() < 2) {
            return List.of();
        }
        String bearer = "Bearer " + tokens.issue(pair.get(0), "perflab-warmup").accessToken();
        WarmupRequest balance = WarmupRequest.get("/api/wallets/me", Map.of("Authorization", bearer));
        if (knobs.warmupPin().isBlank()) {
            return List.of(balance);
        }
        WarmupRequest transfer = new WarmupRequest("POST", "/api/transfers",
                Map.of("Authorization", bearer, "Content-Type", "application/json",
                        "Idempotency-Key", UUID.randomUUID().toString()),
                "{\"receiverPhone\":\"" + members.findPhone(pair.get(1)) + "\",\"amount\":0.01,\"pin\":\""
                        + knobs.warmupPin() + "\"}");
        return List.of(transfer, transfer, balance);
    }
}
