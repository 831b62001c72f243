package dev.perflab.wallet;

import dev.perflab.support.problem.ApiException;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code PUT /api/members/me/phone}: the write the phone → member cache must follow. The UPDATE commits
 * first; then, still in the request, {@link MemberDirectory#phoneChanged} evicts the old number and puts the
 * new one, so no transfer started after this response can reach the member by the old number.
 */
@Service
public class PhoneNumbers {

    private final WalletMemberMapper members;
    private final MemberDirectory directory;
    private final TransactionTemplate transaction;

    PhoneNumbers(WalletMemberMapper members, MemberDirectory directory, TransactionTemplate transaction) {
        this.members = members;
        this.directory = directory;
        this.transaction = transaction;
    }

    public String change(long memberId, String rawPhone) {
        String phone = Transfers.phone(rawPhone);
        Change change = transaction.execute(status -> {
            MemberRef member = members.findById(memberId);
            if (member == null) {
                throw new ApiException(HttpStatus.NOT_FOUND, "member-not-found", "You are not a member.");
            }
            String old = members.findPhone(memberId);
            try {
                members.updatePhone(memberId, phone);
            } catch (DuplicateKeyException e) {
                throw new ApiException(HttpStatus.CONFLICT, "phone-taken", "Another member has this phone number.");
            }
            return new Change(member, old);
        });
        directory.phoneChanged(change.oldPhone(), phone, change.member());
        return phone;
    }

    private record Change(MemberRef member, String oldPhone) {
    }
}
