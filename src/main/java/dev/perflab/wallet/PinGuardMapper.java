package dev.perflab.wallet;

import dev.perflab.support.security.guard.Failures;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

/** The PIN guard's state in the member's wallet row. SQL in PinGuardMapper.xml; used only after a wrong PIN. */
@Mapper
public interface PinGuardMapper {

    /** The wallet's wrong-PIN state, its row locked for the update that follows; null without a wallet. */
    Failures lockFailures(long memberId);

    void saveFailures(@Param("memberId") long memberId, @Param("failures") Failures failures);
}
