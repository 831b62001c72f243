package dev.perflab.wallet;

/** What a transfer needs to know about a member: who it is and the name shown to the other side. */
public record MemberRef(long id, String name) {
}
