package dev.perflab.wallet.before;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import dev.perflab.wallet.LedgerCode;
import dev.perflab.wallet.LockedWallet;
import dev.perflab.wallet.WalletMemberMapper;
import dev.perflab.wallet.MemberRef;
import dev.perflab.wallet.TransferCommand;
import dev.perflab.wallet.TransferParts;
import dev.perflab.wallet.TransferPlan;
import dev.perflab.wallet.TransferResponse;
import dev.perflab.wallet.TransferService;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * Seed 004 as first written: 12 statements per transfer (the receiver lookup, the sender's member row, two
 * {@code SELECT ... FOR UPDATE} in id order, two UPDATEs, two history INSERTs, two ledger-code SELECTs, the
 * ledger INSERT and the idempotency INSERT). Slow under load not because any statement is slow, but because
 * the transaction holds its pool connection (and both row locks) across 12 round trips: see
 * {@code perflab_wallet_transfer_statements} = 12, {@code hikaricp_connections_usage_seconds} and, once the
 * arrival rate passes what the pool can turn over, {@code hikaricp_connections_pending} &gt; 0.
 */
@Service
@ConditionalOnProperty(name = "perflab.wallet.transfer", havingValue = "naive", matchIfMissing = true)
class NaiveTransferService implements TransferService {

    private final WalletMemberMapper members;
    private final NaiveTransferMapper wallets;
    private final TransferParts parts;

    NaiveTransferService(WalletMemberMapper members, NaiveTransferMapper wallets, TransferParts parts) {
        this.members = members;
        this.wallets = wallets;
        this.parts = parts;
    }

    @Override
    public TransferResponse transfer(TransferCommand command) {
        return parts.transaction().execute(status -> transferInTransaction(command));
    }

    private TransferResponse transferInTransaction(TransferCommand command) {
        MemberRef sender = members.findById(command.senderId());
        List<Long> order = TransferPlan.lockOrder(command.senderId(), command.receiver().id());
        LockedWallet first = wallets.lockWallet(order.get(0));
        LockedWallet second = wallets.lockWallet(order.get(1));
        List<LockedWallet> locked = Stream.of(first, second).filter(Objects::nonNull).toList();
        TransferPlan plan = TransferPlan.of(command, TransferPlan.walletOf(locked, command.senderId()),
                sender == null ? null : sender.name(), TransferPlan.walletOf(locked, command.receiver().id()));

        wallets.updateBalance(plan.sender().id(), plan.senderAfter());
        wallets.updateBalance(plan.receiver().id(), plan.receiverAfter());
        wallets.insertHistory(plan.senderHistory());
        wallets.insertHistory(plan.receiverHistory());
        LedgerCode payable = parts.ledgerCodes().get(LedgerCode.BANK_PAYABLE);
        LedgerCode asset = parts.ledgerCodes().get(LedgerCode.BANK_ASSET);
        parts.ledger().insertEntries(plan.ledger(payable, asset));
        parts.idempotency().record(command, plan.response());
        return plan.response();
    }
}
