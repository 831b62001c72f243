package dev.perflab.login;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** What a member types to log in; sent as is to the external auth API. The password never appears in a log. */
public record Credentials(
        @NotBlank @Size(max = 64) String loginId,
        @NotBlank @Size(max = 128) String password) {

    @Override
    public String toString() {
        return "Credentials[loginId=" + loginId + ", password=******]";
    }
}
