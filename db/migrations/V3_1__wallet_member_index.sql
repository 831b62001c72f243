-- The index A/B of seed 004. Each side has its own database; the knob perflab.wallet.index picks what this
-- migration does there, through the Flyway placeholder wallet_member_index (set in features/wallet.yml):
--   non-unique: wallet.member_id keeps only the foreign key's index (next-key and gap locks on FOR UPDATE)
--   unique:     it becomes UNIQUE (a record lock only), and the non-unique index is dropped
-- The app checks at startup that the database it finds matches the knob (WalletSchemaCheck).
SET @wallet_member_index_ddl = IF('${wallet_member_index}' = 'unique',
    'ALTER TABLE wallet ADD CONSTRAINT ux_wallet_member_id UNIQUE (member_id), DROP INDEX idx_wallet_member_id',
    'DO 0');
PREPARE wallet_member_index_stmt FROM @wallet_member_index_ddl;
EXECUTE wallet_member_index_stmt;
DEALLOCATE PREPARE wallet_member_index_stmt;
