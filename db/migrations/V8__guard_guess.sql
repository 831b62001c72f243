-- The guess guards' shared fallback (GuessCounter, SqlGuessStore): while Redis does not answer, every instance counts
-- tries of a PIN or a password here, so guessing stays bounded by the same policy across instances instead of once
-- per instance. guess_key is already keyed (an HMAC of the member or the login id, never either in clear); the clock
-- is the app's, in epoch milliseconds. Rows whose window and block have ended are deleted as the store is used.
CREATE TABLE guard_guess (
    guess_key        VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    fails            INT          NOT NULL,
    window_end_ms    BIGINT       NOT NULL,
    blocked_until_ms BIGINT       NOT NULL,
    PRIMARY KEY (guess_key),
    KEY idx_guard_guess_expiry (window_end_ms)
) ENGINE = InnoDB;
