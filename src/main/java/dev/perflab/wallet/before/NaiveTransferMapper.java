package dev.perflab.wallet.before;

import java.math.BigDecimal;

import org.apache.ibatis.annotations.Mapper;

import dev.perflab.wallet.HistoryRow;
import dev.perflab.wallet.LockedWallet;

/** The seed's first mapper: one wallet, one balance, one history row per statement. SQL in NaiveTransferMapper.xml. */
@Mapper
public interface NaiveTransferMapper {

    LockedWallet lockWallet(long memberId);

    int updateBalance(long walletId, BigDecimal balance);

    int insertHistory(HistoryRow row);
}
