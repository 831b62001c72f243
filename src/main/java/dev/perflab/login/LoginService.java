package dev.perflab.login;

import java.util.List;

import dev.perflab.support.problem.ApiException;
import dev.perflab.support.security.AdminAccounts;
import dev.perflab.support.security.TokenService;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/** Login: ask the external auth API, upsert the member, issue our own token (with the admin role for {@link AdminAccounts}). */
@Service
public class LoginService {

    private final AuthApi authApi;
    private final MemberMapper members;
    private final TokenService tokens;
    private final AdminAccounts admins;

    LoginService(AuthApi authApi, MemberMapper members, TokenService tokens, AdminAccounts admins) {
        this.authApi = authApi;
        this.members = members;
        this.tokens = tokens;
        this.admins = admins;
    }

    public TokenService.IssuedToken login(Credentials credentials) {
        ExternalProfile profile = authApi.authenticate(credentials).orElseThrow(() ->
                new ApiException(HttpStatus.UNAUTHORIZED, "bad-credentials", "The login id or the password is wrong."));
        MemberRow member = MemberRow.of(credentials.loginId(), profile);
        members.upsert(member);
        List<String> roles = admins.isAdmin(credentials.loginId()) ? List.of(TokenService.ADMIN) : List.of();
        return tokens.issue(member.getId(), credentials.loginId(), roles);
    }
}
