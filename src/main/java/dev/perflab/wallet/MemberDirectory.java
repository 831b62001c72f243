package dev.perflab.wallet;

import java.util.Optional;

/**
 * Phone number → member, the receiver lookup of every transfer. {@code perflab.wallet.cache} picks
 * {@code before.DbMemberDirectory} (one SELECT each time) or {@code after.CachedMemberDirectory} (Redis).
 */
public interface MemberDirectory {

    Optional<MemberRef> byPhone(String phone);

    /** Called after a phone change committed: the cache follows the write in the same request. */
    void phoneChanged(String oldPhone, String newPhone, MemberRef member);
}
