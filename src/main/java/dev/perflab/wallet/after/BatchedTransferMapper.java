package dev.perflab.wallet.after;

import java.math.BigDecimal;
import java.util.List;

import org.apache.ibatis.annotations.Mapper;

import dev.perflab.wallet.HistoryRow;
import dev.perflab.wallet.LockedWallet;

/** Both wallets, both balances, both history rows: one statement each. SQL in BatchedTransferMapper.xml. */
@Mapper
public interface BatchedTransferMapper {

    /** Locks the wallets of these members (sorted ascending) in one statement, with their owners' names. */
    List<LockedWallet> lockWallets(List<Long> memberIds);

    int updateBalances(long senderWalletId, BigDecimal senderBalance, long receiverWalletId, BigDecimal receiverBalance);

    int insertHistories(List<HistoryRow> rows);
}
