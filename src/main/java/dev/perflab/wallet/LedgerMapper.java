package dev.perflab.wallet;

import java.util.List;

import org.apache.ibatis.annotations.Mapper;

/** {@code ledger_code} and {@code ledger_entry}. SQL in LedgerMapper.xml. */
@Mapper
public interface LedgerMapper {

    LedgerCode findByCode(String code);

    List<LedgerCode> findByCodes(List<String> codes);

    /** One 4-row INSERT for all entries of a transfer (both variants: the seed had this right already). */
    int insertEntries(TransferLedger entries);
}
