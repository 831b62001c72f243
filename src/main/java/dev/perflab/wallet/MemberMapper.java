package dev.perflab.wallet;

import org.apache.ibatis.annotations.Mapper;

/** {@code member} as the wallet sees it: id, name and phone. SQL in MemberMapper.xml. */
@Mapper
public interface MemberMapper {

    MemberRef findById(long id);

    MemberRef findByPhone(String phone);

    String findPhone(long id);

    int updatePhone(long id, String phone);
}
