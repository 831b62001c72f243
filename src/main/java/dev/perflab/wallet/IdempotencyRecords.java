package dev.perflab.wallet;

import java.util.Optional;

import tools.jackson.databind.json.JsonMapper;

import dev.perflab.support.problem.ApiException;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The idempotency record of a transfer: written in the transfer's own transaction (so it exists exactly
 * when the money moved), and read back when a key comes again. The primary key (member_id, idem_key)
 * makes a racing second request wait for the first one's commit and then fail with a duplicate key. The request
 * hash is an HMAC with a server secret ({@link dev.perflab.support.security.KeyedHash}): it covers the PIN, and a
 * plain hash of it would give the PIN back after 10,000 guesses.
 */
@Component
public class IdempotencyRecords {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * The request hash of a record written before V5: its unkeyed SHA-256 (which gave the PIN away) was erased, so
     * such a key replays its stored response without comparing the request, rather than moving money twice.
     */
    static final String LEGACY = "legacy-unkeyed-hash-erased";
    private final IdempotencyMapper mapper;

    IdempotencyRecords(IdempotencyMapper mapper) {
        this.mapper = mapper;
    }

    /** One INSERT; a duplicate key means the key was used, and the caller replays. */
    public void record(TransferCommand command, TransferResponse response) {
        mapper.insert(command.senderId(), command.idempotencyKey(), command.requestHash(), HttpStatus.CREATED.value(),
                JSON.writeValueAsString(response));
    }

    /** The stored response for this key, or empty; a different request under the same key is a 422. */
    public Optional<TransferResponse> replay(long memberId, String key, String requestHash) {
        IdempotencyMapper.StoredResponse stored = mapper.find(memberId, key);
        if (stored == null) {
            return Optional.empty();
        }
        if (!stored.requestHash().equals(requestHash) && !LEGACY.equals(stored.requestHash())) {
            throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused",
                    "This Idempotency-Key was already used for a different request.");
        }
        return Optional.of(JSON.readValue(stored.body(), TransferResponse.class));
    }
}
