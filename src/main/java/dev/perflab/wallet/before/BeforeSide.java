package dev.perflab.wallet.before;

import dev.perflab.wallet.LedgerCodes;
import dev.perflab.wallet.LedgerMapper;
import dev.perflab.wallet.MemberDirectory;
import dev.perflab.wallet.TransferParts;
import dev.perflab.wallet.TransferService;
import dev.perflab.wallet.WalletMemberMapper;

/**
 * The before side's code paths for the interleaved mode ({@code wallet.WalletArms}), built beside the app's own
 * variant when the app runs the after preset: the same classes the knobs select, not copies.
 */
public final class BeforeSide {

    private BeforeSide() {
    }

    public static TransferService transferService(WalletMemberMapper members, NaiveTransferMapper wallets, TransferParts parts) {
        return new NaiveTransferService(members, wallets, parts);
    }

    public static MemberDirectory memberDirectory(WalletMemberMapper members) {
        return new DbMemberDirectory(members);
    }

    public static LedgerCodes ledgerCodes(LedgerMapper ledger) {
        return new DbLedgerCodes(ledger);
    }
}
