package dev.perflab.wallet;

import java.util.List;

import org.apache.ibatis.annotations.Mapper;

/** {@code member} as the wallet sees it: id, name and phone. SQL in WalletMemberMapper.xml. */
@Mapper
public interface WalletMemberMapper {

    MemberRef findById(long id);

    MemberRef findByPhone(String phone);

    String findPhone(long id);

    int updatePhone(long id, String phone);

    /** The first members (by id) that have a wallet and a phone: the warm-up's sender and receiver. */
    List<Long> firstWithWallet(int limit);
}
