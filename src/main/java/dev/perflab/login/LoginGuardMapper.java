package dev.perflab.login;

import java.util.List;

import dev.perflab.support.security.guard.Failures;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

/** {@code login_guard}: failed logins per keyed login id and per keyed client address. SQL in LoginGuardMapper.xml. */
@Mapper
public interface LoginGuardMapper {

    /** The keys among these two that are blocked at {@code nowMs}, with until when. */
    List<Blocked> blocked(@Param("loginKey") String loginKey, @Param("addressKey") String addressKey,
            @Param("nowMs") long nowMs);

    /** A row with no failures for this key, unless it has one. */
    void insertIfMissing(String guardKey);

    /** This key's failures, its row locked. */
    Failures lockFailures(String guardKey);

    void saveFailures(@Param("guardKey") String guardKey, @Param("failures") Failures failures);

    record Blocked(String guardKey, long blockedUntilMs) {
    }
}
