package dev.perflab.wallet.before;

import java.util.Optional;

import dev.perflab.wallet.MemberDirectory;
import dev.perflab.wallet.WalletMemberMapper;
import dev.perflab.wallet.MemberRef;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * No cache: every transfer reads the receiver by phone from MariaDB, one SELECT on the unique phone index.
 * Cheap alone, but it is one more round trip per transfer: {@code perflab_wallet_transfer_statements} counts it.
 */
@Component
@ConditionalOnProperty(name = "perflab.wallet.cache", havingValue = "off", matchIfMissing = true)
class DbMemberDirectory implements MemberDirectory {

    private final WalletMemberMapper members;

    DbMemberDirectory(WalletMemberMapper members) {
        this.members = members;
    }

    @Override
    public Optional<MemberRef> byPhone(String phone) {
        return Optional.ofNullable(members.findByPhone(phone));
    }

    @Override
    public void phoneChanged(String oldPhone, String newPhone, MemberRef member) {
        // nothing cached, nothing to follow
    }
}
