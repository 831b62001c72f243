package dev.perflab.wallet.before;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.perflab.wallet.LedgerCode;
import dev.perflab.wallet.LedgerCodes;
import dev.perflab.wallet.LedgerMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * No cache: ledger codes, which never change, are read from MariaDB on every transfer (one SELECT per
 * {@link #get}, one per {@link #getAll}). Visible as statements in {@code perflab_wallet_transfer_statements}.
 */
@Component
@ConditionalOnProperty(name = "perflab.wallet.cache", havingValue = "off", matchIfMissing = true)
class DbLedgerCodes implements LedgerCodes {

    private final LedgerMapper ledger;

    DbLedgerCodes(LedgerMapper ledger) {
        this.ledger = ledger;
    }

    @Override
    public LedgerCode get(String code) {
        LedgerCode found = ledger.findByCode(code);
        return LedgerCodes.require(found == null ? Map.of() : Map.of(code, found), code);
    }

    @Override
    public Map<String, LedgerCode> getAll(List<String> codes) {
        return ledger.findByCodes(codes).stream().collect(Collectors.toMap(LedgerCode::code, Function.identity()));
    }
}
