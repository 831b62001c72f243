package dev.perflab.login;

import java.util.List;
import java.util.Optional;

import dev.perflab.support.problem.ApiException;
import dev.perflab.support.security.AdminAccounts;
import dev.perflab.support.security.TokenService;
import dev.perflab.support.security.guard.Reservation;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Login: refuse it if {@link LoginGuard} says too many failed, ask the external auth API, upsert the member keyed on
 * the API's studentId, issue our own token (with the admin role when {@link AdminAccounts} names the API's studentId).
 * The guard reserves the try before the auth API is asked; a wrong password keeps it, anything else hands it back.
 */
@Service
public class LoginService {

    private final AuthApi authApi;
    private final MemberMapper members;
    private final TokenService tokens;
    private final AdminAccounts admins;
    private final LoginGuard guard;

    LoginService(AuthApi authApi, MemberMapper members, TokenService tokens, AdminAccounts admins, LoginGuard guard) {
        this.guard = guard;
        this.authApi = authApi;
        this.members = members;
        this.tokens = tokens;
        this.admins = admins;
    }

    /**
     * @param clientAddress where the login came from, for {@link LoginGuard}'s count per address
     */
    public TokenService.IssuedToken login(Credentials credentials, String clientAddress) {
        Reservation reservation = guard.reserve(credentials.loginId(), clientAddress);
        boolean wrongPassword = false;
        try {
            Optional<ExternalProfile> authenticated = authApi.authenticate(credentials);
            if (authenticated.isEmpty()) {
                wrongPassword = true;
                throw new ApiException(HttpStatus.UNAUTHORIZED, "bad-credentials", "The login id or the password is wrong.");
            }
            return issue(credentials, authenticated.get());
        } finally {
            guard.settle(reservation, wrongPassword);
        }
    }

    /** The admin role goes by the auth API's own id of the account, never by the login id the client typed. */
    private TokenService.IssuedToken issue(Credentials credentials, ExternalProfile profile) {
        if (profile.studentId() == null || profile.studentId().isBlank()) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, "auth-api-bad-answer",
                    "The auth API accepted the login but named no student.");
        }
        MemberRow member = MemberRow.of(credentials.loginId(), profile);
        members.upsert(member);
        List<String> roles = admins.isAdmin(profile.studentId()) ? List.of(TokenService.ADMIN) : List.of();
        return tokens.issue(member.getId(), credentials.loginId(), roles);
    }
}
