package dev.perflab.login;

/** What the external auth API says about a student it has authenticated. */
public record ExternalProfile(String name, String studentId, String major) {
}
