-- Issue 14: idempotency_key.request_hash was SHA-256(phone|amount|pin), which gives a 4-digit PIN back after
-- 10,000 guesses. The app now writes an HMAC with a server secret; the old hashes are erased here. Their records
-- keep replaying their stored response (IdempotencyRecords.LEGACY) so that a retry never moves money twice.
UPDATE idempotency_key SET request_hash = 'legacy-unkeyed-hash-erased';
