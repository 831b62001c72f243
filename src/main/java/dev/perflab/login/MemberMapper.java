package dev.perflab.login;

import org.apache.ibatis.annotations.Mapper;

/** Members as the login feature keeps them (SQL in MemberMapper.xml). */
@Mapper
public interface MemberMapper {

    /** Inserts the member or updates its profile (keyed on studentId); either way {@code member.id} is set afterwards. */
    void upsert(MemberRow member);

    /** The member the auth API knows by this studentId, or null. */
    MemberRow findByStudentId(String studentId);
}
