-- wallet (issue 4, seed 004): wallets, transfer history, double-entry ledger and idempotency records.
-- MariaDB 10.11+ / MySQL 8: InnoDB, utf8mb4, no vendor-only syntax.

-- the receiver of a transfer is found by phone number; unique, as in the seed
ALTER TABLE member
    ADD COLUMN phone VARCHAR(20) NULL,
    ADD CONSTRAINT uk_member_phone UNIQUE (phone);

-- member_id has only the foreign key's non-unique index here; V3_1 decides whether it becomes UNIQUE
CREATE TABLE wallet (
    id         BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    member_id  BIGINT        NOT NULL,
    balance    DECIMAL(19,2) NOT NULL,
    pin_hash   CHAR(64)      NOT NULL,
    created_at TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    KEY idx_wallet_member_id (member_id),
    CONSTRAINT fk_wallet_member FOREIGN KEY (member_id) REFERENCES member (id),
    CONSTRAINT ck_wallet_balance CHECK (balance >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- history: two rows per transfer (TRANSFER_OUT for the sender, TRANSFER_IN for the receiver)
CREATE TABLE wallet_transaction (
    id                     BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    group_id               CHAR(36)      NOT NULL,
    wallet_id              BIGINT        NOT NULL,
    member_id              BIGINT        NOT NULL,
    type                   VARCHAR(16)   NOT NULL,
    amount                 DECIMAL(19,2) NOT NULL,
    balance_before         DECIMAL(19,2) NOT NULL,
    balance_after          DECIMAL(19,2) NOT NULL,
    counterparty_member_id BIGINT        NOT NULL,
    counterparty_name      VARCHAR(100)  NOT NULL,
    status                 VARCHAR(16)   NOT NULL,
    created_at             TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    KEY idx_wallet_transaction_wallet (wallet_id, created_at),
    KEY idx_wallet_transaction_group (group_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE ledger_code (
    id   INT          NOT NULL PRIMARY KEY,
    code VARCHAR(32)  NOT NULL,
    name VARCHAR(100) NOT NULL,
    kind VARCHAR(16)  NOT NULL,
    CONSTRAINT uk_ledger_code_code UNIQUE (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

INSERT INTO ledger_code (id, code, name, kind) VALUES
    (1, 'BANK_ASSET', 'Cash held for wallets at the bank', 'ASSET'),
    (2, 'BANK_PAYABLE', 'Wallet balances owed to members', 'LIABILITY'),
    (3, 'CARD_RECEIVABLE', 'Card top-ups in settlement', 'ASSET'),
    (4, 'FEE_REVENUE', 'Transfer fees', 'REVENUE'),
    (5, 'FX_ASSET', 'Foreign currency held', 'ASSET'),
    (6, 'FX_PAYABLE', 'Foreign transfers owed', 'LIABILITY'),
    (7, 'REFUND_PAYABLE', 'Refunds owed', 'LIABILITY'),
    (8, 'SUSPENSE', 'Unreconciled amounts', 'ASSET');

-- double entry: a transfer writes four rows, two per wallet, each pair with debit = credit
CREATE TABLE ledger_entry (
    id             BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    group_id       CHAR(36)      NOT NULL,
    wallet_id      BIGINT        NOT NULL,
    ledger_code_id INT           NOT NULL,
    debit          DECIMAL(19,2) NOT NULL,
    credit         DECIMAL(19,2) NOT NULL,
    created_at     TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    KEY idx_ledger_entry_group (group_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- one row per (member, Idempotency-Key): the hash of the request and the response it got
CREATE TABLE idempotency_key (
    member_id       BIGINT       NOT NULL,
    idem_key        CHAR(36)     NOT NULL,
    request_hash    CHAR(64)     NOT NULL,
    response_status SMALLINT     NOT NULL,
    response_body   VARCHAR(1000) NOT NULL,
    created_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (member_id, idem_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
