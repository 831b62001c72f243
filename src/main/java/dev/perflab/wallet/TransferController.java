package dev.perflab.wallet;

import java.math.BigDecimal;
import java.net.URI;

import dev.perflab.support.problem.ApiException;
import dev.perflab.support.security.CurrentMember;
import dev.perflab.support.warmup.WarmupMarker;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The wallet API: {@code POST /api/transfers} (Bearer token, {@code Idempotency-Key} UUID header, body
 * {@code {receiverPhone, amount, pin}} → 201 {@code {transferId, amount, balanceAfter}}; a replay answers
 * the stored body with {@code Idempotent-Replayed: true}), {@code GET /api/wallets/me} and
 * {@code PUT /api/members/me/phone}. Errors are problem+json (see docs/wallet.md for the codes).
 */
@RestController
class TransferController {

    private final Transfers transfers;
    private final WalletMapper wallets;
    private final PhoneNumbers phones;
    private final WarmupMarker warmup;

    TransferController(Transfers transfers, WalletMapper wallets, PhoneNumbers phones, WarmupMarker warmup) {
        this.transfers = transfers;
        this.wallets = wallets;
        this.phones = phones;
        this.warmup = warmup;
    }

    @PostMapping("/api/transfers")
    ResponseEntity<TransferResponse> transfer(@RequestHeader("Idempotency-Key") String idempotencyKey,
            @RequestHeader(name = WarmupMarker.HEADER, required = false) String warmupSecret,
            @RequestBody TransferRequest request) {
        Transfers.Result result = transfers.transfer(CurrentMember.id(), idempotencyKey, request, warmup.isWarmup(warmupSecret));
        return ResponseEntity.created(URI.create("/api/transfers/" + result.response().transferId()))
                .header("Idempotent-Replayed", Boolean.toString(result.replayed()))
                .body(result.response());
    }

    @GetMapping("/api/wallets/me")
    WalletView me() {
        long memberId = CurrentMember.id();
        BigDecimal balance = wallets.findBalance(memberId);
        if (balance == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "wallet-not-found", "You have no wallet.");
        }
        return new WalletView(memberId, balance);
    }

    @PutMapping("/api/members/me/phone")
    PhoneView changePhone(@RequestBody PhoneView request) {
        long memberId = CurrentMember.id();
        return new PhoneView(phones.change(memberId, request.phone()));
    }

    record WalletView(long memberId, BigDecimal balance) {
    }

    record PhoneView(String phone) {
    }
}
