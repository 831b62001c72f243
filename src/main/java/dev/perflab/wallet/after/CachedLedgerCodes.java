package dev.perflab.wallet.after;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.perflab.wallet.LedgerCode;
import dev.perflab.wallet.LedgerCodes;
import dev.perflab.wallet.LedgerMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cache.Cache;
import org.springframework.stereotype.Component;

/**
 * Ledger codes in Redis under the list of codes asked for (the seed's {@code findByNames} result), with a
 * 24 h TTL: they never change, so after the first transfer no statement reads them
 * ({@code cache_gets_total{cache="wallet:ledger-codes",result="hit"}}).
 */
@Component
@ConditionalOnProperty(name = "perflab.wallet.cache", havingValue = "redis")
class CachedLedgerCodes implements LedgerCodes {

    private final Cache cache;
    private final LedgerMapper ledger;

    CachedLedgerCodes(WalletCacheConfiguration.WalletCaches caches, LedgerMapper ledger) {
        this.cache = caches.ledgerCodes();
        this.ledger = ledger;
    }

    @Override
    public LedgerCode get(String code) {
        return LedgerCodes.require(getAll(List.of(code)), code);
    }

    @Override
    public Map<String, LedgerCode> getAll(List<String> codes) {
        String key = String.join(",", codes);
        LedgerCode[] found = cache.get(key, LedgerCode[].class);
        if (found == null) {
            found = ledger.findByCodes(codes).toArray(LedgerCode[]::new);
            cache.put(key, found);
        }
        return Arrays.stream(found).collect(Collectors.toMap(LedgerCode::code, Function.identity()));
    }
}
