package dev.perflab.support.security;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/auth/me}: who the Bearer token says you are; the cheapest authenticated call. */
@RestController
class MeController {

    @GetMapping("/api/auth/me")
    Me me() {
        return new Me(CurrentMember.id(), CurrentMember.loginId());
    }

    record Me(long memberId, String loginId) {
    }
}
