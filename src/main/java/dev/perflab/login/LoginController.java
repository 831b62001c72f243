package dev.perflab.login;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;

import dev.perflab.support.security.TokenService;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/auth/login}: the one open API path. */
@RestController
class LoginController {

    private final LoginService logins;

    LoginController(LoginService logins) {
        this.logins = logins;
    }

    @PostMapping("/api/auth/login")
    LoginResponse login(@Valid @RequestBody Credentials credentials, HttpServletRequest request) {
        return LoginResponse.of(logins.login(credentials, request.getRemoteAddr()));
    }

    record LoginResponse(String accessToken, String tokenType, long expiresIn) {

        static LoginResponse of(TokenService.IssuedToken token) {
            return new LoginResponse(token.accessToken(), "Bearer", token.expiresInSeconds());
        }
    }
}
