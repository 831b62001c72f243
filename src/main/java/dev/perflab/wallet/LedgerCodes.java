package dev.perflab.wallet;

import java.util.List;
import java.util.Map;

/**
 * The chart of accounts. {@code before.DbLedgerCodes} reads MariaDB each time; {@code after.CachedLedgerCodes}
 * keeps the result in Redis ({@code perflab.wallet.cache=redis}).
 */
public interface LedgerCodes {

    /** One code (one SELECT without the cache): the naive variant asks for each code separately. */
    LedgerCode get(String code);

    /** Several codes at once (one SELECT ... IN without the cache). */
    Map<String, LedgerCode> getAll(List<String> codes);

    static LedgerCode require(Map<String, LedgerCode> codes, String code) {
        LedgerCode found = codes.get(code);
        if (found == null) {
            throw new IllegalStateException("ledger code " + code + " is missing: the wallet migration seeds it");
        }
        return found;
    }
}
