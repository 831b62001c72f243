package dev.perflab.login;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import org.hibernate.validator.constraints.CodePointLength;

/**
 * What a member types to log in; sent as is to the external auth API. The password never appears in a log.
 * Lengths count code points, as JSON Schema's {@code maxLength} does, so the OpenAPI description (the same
 * constants) declares exactly what the validation accepts.
 */
public record Credentials(
        @NotBlank @CodePointLength(max = MAX_LOGIN_ID)
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = MAX_LOGIN_ID, pattern = NOT_BLANK)
        String loginId,
        @NotBlank @CodePointLength(max = MAX_PASSWORD)
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = MAX_PASSWORD, pattern = NOT_BLANK)
        String password) {

    static final int MAX_LOGIN_ID = 64;
    static final int MAX_PASSWORD = 128;
    /** Something besides white space ({@code @NotBlank}), as a JSON Schema pattern (a search, not a whole match). */
    static final String NOT_BLANK = "\\S";

    @Override
    public String toString() {
        return "Credentials[loginId=" + loginId + ", password=******]";
    }
}
