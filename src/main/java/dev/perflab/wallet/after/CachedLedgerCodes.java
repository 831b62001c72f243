package dev.perflab.wallet.after;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.perflab.wallet.LedgerCode;
import dev.perflab.wallet.LedgerCodes;
import dev.perflab.wallet.LedgerMapper;
import dev.perflab.wallet.WalletKnobs;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cache.Cache;
import org.springframework.stereotype.Component;

/**
 * Ledger codes in Redis under the list of codes asked for (the seed's {@code findByNames} result), with a
 * 24 h TTL: they never change, so after the first transfer no statement reads them
 * ({@code cache_gets_total{cache="wallet:ledger-codes",result="hit"}}). On top, the app keeps what it read for
 * the same TTL, so a transfer does not pay a Redis round trip for them either (with the database 1 ms away,
 * 2 ms of every transfer); Redis stays the shared copy that a new instance starts from.
 */
@Component
@ConditionalOnProperty(name = "perflab.wallet.cache", havingValue = "redis")
class CachedLedgerCodes implements LedgerCodes {

    private final Cache cache;
    private final LedgerMapper ledger;
    private final long ttlNanos;
    private final Map<String, Local> local = new ConcurrentHashMap<>();

    private record Local(Map<String, LedgerCode> codes, long expiresAtNanos) {
    }

    CachedLedgerCodes(WalletCacheConfiguration.WalletCaches caches, LedgerMapper ledger, WalletKnobs knobs) {
        this.cache = caches.ledgerCodes();
        this.ledger = ledger;
        this.ttlNanos = knobs.ledgerCodeTtl().toNanos();
    }

    @Override
    public LedgerCode get(String code) {
        return LedgerCodes.require(getAll(List.of(code)), code);
    }

    @Override
    public Map<String, LedgerCode> getAll(List<String> codes) {
        String key = String.join(",", codes);
        Local known = local.get(key);
        if (known != null && System.nanoTime() - known.expiresAtNanos() < 0) {
            return known.codes();
        }
        Map<String, LedgerCode> read = fromRedisOrDatabase(key, codes);
        local.put(key, new Local(read, System.nanoTime() + ttlNanos));
        return read;
    }

    private Map<String, LedgerCode> fromRedisOrDatabase(String key, List<String> codes) {
        LedgerCode[] found = OptionalRedis.get(cache, key, LedgerCode[].class);
        if (found == null) {
            found = ledger.findByCodes(codes).toArray(LedgerCode[]::new);
            OptionalRedis.put(cache, key, found);
        }
        return Map.copyOf(Arrays.stream(found).collect(Collectors.toMap(LedgerCode::code, Function.identity())));
    }
}
