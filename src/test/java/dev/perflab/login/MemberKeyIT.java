package dev.perflab.login;

import java.util.UUID;

import dev.perflab.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Members are the auth API's students: keyed on its studentId, with login ids compared byte for byte. Under the old
 * key (the login id in a case-, accent- and space-insensitive collation) each of these logins reached the first
 * member's row, and its wallet.
 */
@IntegrationTest
class MemberKeyIT {

    @Autowired
    MemberMapper members;

    private long login(String loginId, String studentId) {
        MemberRow row = MemberRow.of(loginId, new ExternalProfile("Someone", studentId, "Physics"));
        members.upsert(row);
        return row.getId();
    }

    @Test
    void anotherStudentBehindALoginIdThatDiffersInCaseOrSpacesOrIsReusedGetsAnotherMember() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String loginId = "mk-" + suffix;
        long first = login(loginId, "S-a-" + suffix);

        assertThat(login(loginId, "S-a-" + suffix)).as("the same student again").isEqualTo(first);
        assertThat(login("MK-" + suffix, "S-b-" + suffix)).as("upper case").isNotEqualTo(first);
        assertThat(login(loginId + " ", "S-c-" + suffix)).as("a trailing space").isNotEqualTo(first);
        assertThat(login(loginId, "S-d-" + suffix)).as("the login id given to another student").isNotEqualTo(first);
        assertThat(members.findByStudentId("S-a-" + suffix).getId()).isEqualTo(first);
        assertThat(members.findByStudentId("s-A-" + suffix)).as("studentId compared byte for byte").isNull();
    }
}
