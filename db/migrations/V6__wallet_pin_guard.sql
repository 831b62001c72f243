-- PIN guessing is limited per member (PinGuard): the wrong PINs of the current window and the time until which
-- transfers are refused, in the wallet row that every transfer already locks (epoch milliseconds, 0 = none).
-- Added at the end of the table, so MariaDB adds them in place, without copying the rows.
ALTER TABLE wallet
    ADD COLUMN pin_failures         INT    NOT NULL DEFAULT 0,
    ADD COLUMN pin_window_start_ms  BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN pin_blocked_until_ms BIGINT NOT NULL DEFAULT 0;
