package dev.perflab.wallet;

/** One account of the chart of accounts ({@code ledger_code}). */
public record LedgerCode(int id, String code) {

    public static final String BANK_PAYABLE = "BANK_PAYABLE";
    public static final String BANK_ASSET = "BANK_ASSET";
}
