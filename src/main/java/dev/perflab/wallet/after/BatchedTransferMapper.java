package dev.perflab.wallet.after;

import java.math.BigDecimal;
import java.util.List;

import org.apache.ibatis.annotations.Mapper;

import dev.perflab.wallet.HistoryRow;
import dev.perflab.wallet.LockedWallet;

/** Both wallets, both balances, both history rows: one statement each. SQL in BatchedTransferMapper.xml. */
@Mapper
public interface BatchedTransferMapper {

    /** Locks the wallets of both members (first &lt; second) in one statement, with their owners' names. */
    List<LockedWallet> lockWallets(long first, long second);

    int updateBalances(long senderWalletId, BigDecimal senderBalance, long receiverWalletId, BigDecimal receiverBalance);

    /** Both history rows in one INSERT; static SQL (no {@code <foreach>}): a transfer always writes two. */
    int insertHistories(HistoryRow out, HistoryRow in);
}
