package dev.perflab.wallet;

import java.math.BigDecimal;
import java.util.List;

import dev.perflab.support.problem.ApiException;

import org.springframework.http.HttpStatus;

/**
 * What a transfer writes, computed from the two locked wallets; the same for both variants, which differ
 * only in how many statements they use to read and write it. Checks the PIN guard's block (429), the PIN (403) and
 * the funds (409).
 */
public final class TransferPlan {

    static final String WRONG_PIN = "wrong-pin";

    private final TransferCommand command;
    private final LockedWallet sender;
    private final String senderName;
    private final LockedWallet receiver;

    private TransferPlan(TransferCommand command, LockedWallet sender, String senderName, LockedWallet receiver) {
        this.command = command;
        this.sender = sender;
        this.senderName = senderName;
        this.receiver = receiver;
    }

    public static TransferPlan of(TransferCommand command, LockedWallet sender, String senderName, LockedWallet receiver) {
        if (sender == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "wallet-not-found", "You have no wallet.");
        }
        if (receiver == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "receiver-not-found", "The receiver has no wallet.");
        }
        long now = System.currentTimeMillis();
        if (sender.pinBlockedUntilMs() > now) { // before the PIN: the right one does not lift a block
            throw PinGuard.blocked(sender.pinBlockedUntilMs(), now);
        }
        if (!Pins.matches(command.pinHash(), sender.pinHash())) {
            throw new ApiException(HttpStatus.FORBIDDEN, WRONG_PIN, "The PIN is wrong.");
        }
        if (sender.balance().compareTo(command.amount()) < 0) {
            throw new ApiException(HttpStatus.CONFLICT, "insufficient-funds", "The balance is lower than the amount.");
        }
        return new TransferPlan(command, sender, senderName, receiver);
    }

    /** The wallet of this member among the locked ones, or null. */
    public static LockedWallet walletOf(List<LockedWallet> locked, long memberId) {
        return locked.stream().filter(w -> w.memberId() == memberId).findFirst().orElse(null);
    }

    /** Orders two wallets by member id, the order every transfer locks them in. */
    public static List<Long> lockOrder(long senderId, long receiverId) {
        return senderId < receiverId ? List.of(senderId, receiverId) : List.of(receiverId, senderId);
    }

    public LockedWallet sender() {
        return sender;
    }

    public LockedWallet receiver() {
        return receiver;
    }

    public BigDecimal senderAfter() {
        return Money.of(sender.balance().subtract(command.amount()));
    }

    public BigDecimal receiverAfter() {
        return Money.of(receiver.balance().add(command.amount()));
    }

    public HistoryRow senderHistory() {
        return new HistoryRow(command.transferId(), sender.id(), sender.memberId(), HistoryRow.TRANSFER_OUT,
                command.amount(), sender.balance(), senderAfter(), receiver.memberId(), command.receiver().name());
    }

    public HistoryRow receiverHistory() {
        return new HistoryRow(command.transferId(), receiver.id(), receiver.memberId(), HistoryRow.TRANSFER_IN,
                command.amount(), receiver.balance(), receiverAfter(), sender.memberId(), senderName);
    }

    /** The four balanced ledger rows of this transfer ({@link TransferLedger}). */
    public TransferLedger ledger(LedgerCode payable, LedgerCode asset) {
        BigDecimal amount = command.amount();
        BigDecimal zero = Money.of(BigDecimal.ZERO);
        String group = command.transferId();
        return new TransferLedger(
                new LedgerRow(group, sender.id(), payable.id(), amount, zero),
                new LedgerRow(group, sender.id(), asset.id(), zero, amount),
                new LedgerRow(group, receiver.id(), asset.id(), amount, zero),
                new LedgerRow(group, receiver.id(), payable.id(), zero, amount));
    }

    public TransferResponse response() {
        return new TransferResponse(command.transferId(), command.amount(), senderAfter());
    }
}
