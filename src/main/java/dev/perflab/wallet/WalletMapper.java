package dev.perflab.wallet;

import java.math.BigDecimal;

import org.apache.ibatis.annotations.Mapper;

/** Reads of {@code wallet} outside a transfer. SQL in WalletMapper.xml. */
@Mapper
public interface WalletMapper {

    BigDecimal findBalance(long memberId);

    /** true when {@code wallet.member_id} has a UNIQUE index, false when only a non-unique one, null without a table. */
    Boolean memberIdIndexIsUnique();
}
