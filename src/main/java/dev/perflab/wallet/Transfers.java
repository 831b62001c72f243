package dev.perflab.wallet;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.perflab.support.interleave.Arm;
import dev.perflab.support.parse.IdempotencyKeyParser;
import dev.perflab.support.problem.ApiException;
import dev.perflab.support.security.KeyedHash;
import dev.perflab.support.security.guard.Reservation;
import dev.perflab.support.sql.SqlStatements;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What both variants share around one transfer: input checks, the receiver lookup (before any connection
 * is taken from the pool), the retry of the transaction on a deadlock, the idempotent replay, the PIN try reserved before
 * the PIN is checked and settled after ({@link PinGuard}), and the mechanism metrics
 * ({@code perflab_wallet_transfer_seconds{outcome}} and {@code perflab_wallet_transfer_statements{outcome}},
 * the SQL statements each transfer sent, counted by the MyBatis interceptor).
 */
@Service
public class Transfers {

    /**
     * A phone number as a request may spell it: 9 to 15 digits, with hyphens and ASCII white space anywhere (stripped
     * before use). Written for Java and ECMA-262 alike: the OpenAPI description ({@link WalletApiDocs}) declares it.
     */
    static final String PHONE_PATTERN = "^[-\\t\\n\\x0B\\f\\r ]*(?:[0-9][-\\t\\n\\x0B\\f\\r ]*){9,15}$";
    /** A value that holds something besides white space (a search, not a whole match): the PIN's only rule. */
    static final String NOT_BLANK = "\\S";
    /** Amounts have at most this many decimals: they are multiples of {@link #AMOUNT_STEP}. */
    static final int AMOUNT_DECIMALS = 2;
    static final BigDecimal AMOUNT_STEP = BigDecimal.ONE.movePointLeft(AMOUNT_DECIMALS);
    private static final Pattern PHONE = Pattern.compile(PHONE_PATTERN);
    private static final Pattern SEPARATORS = Pattern.compile("[-\\t\\n\\x0B\\f\\r ]");
    private static final Pattern NOT_BLANK_CHARACTER = Pattern.compile(NOT_BLANK);

    private final TransferService service;
    private final MemberDirectory members;
    private final IdempotencyRecords idempotency;
    private final IdempotencyKeyParser keys;
    private final LockRetry retry;
    private final WalletKnobs knobs;
    private final MeterRegistry registry;
    private final TransactionTemplate rolledBack;
    private final KeyedHash requestHashes;
    private final Pins pins;
    private final PinGuard pinGuard;

    Transfers(TransferService service, MemberDirectory members, IdempotencyRecords idempotency,
            IdempotencyKeyParser keys, LockRetry retry, WalletKnobs knobs, MeterRegistry registry,
            PlatformTransactionManager transactions, KeyedHash requestHashes, Pins pins, PinGuard pinGuard) {
        this.requestHashes = requestHashes;
        this.pins = pins;
        this.pinGuard = pinGuard;
        this.service = service;
        this.members = members;
        this.idempotency = idempotency;
        this.keys = keys;
        this.retry = retry;
        this.knobs = knobs;
        this.registry = registry;
        this.rolledBack = new TransactionTemplate(transactions);
    }

    /** The response, and whether it is a replay of an earlier one with the same key. */
    public record Result(TransferResponse response, boolean replayed) {
    }

    public Result transfer(long senderId, String idempotencyKey, TransferRequest request) {
        return transfer(senderId, idempotencyKey, request, false);
    }

    /**
     * @param dryRun the server warm-up's transfer: the whole path runs, every statement included, in a transaction
     *               that is rolled back, so no data changes; counted under {@code outcome="warmup"}
     */
    public Result transfer(long senderId, String idempotencyKey, TransferRequest request, boolean dryRun) {
        Timer.Sample sample = Timer.start(registry);
        String outcome = "error";
        try (SqlStatements.Scope statements = SqlStatements.open()) {
            try {
                Result result = run(senderId, idempotencyKey, request, dryRun);
                outcome = dryRun ? "warmup" : result.replayed() ? "replayed" : "created";
                return result;
            } catch (ApiException e) {
                outcome = e.status().is5xxServerError() ? "busy" : "rejected";
                throw e;
            } finally {
                DistributionSummary.builder("perflab.wallet.transfer.statements")
                        .description("SQL statements sent per transfer").baseUnit("statements")
                        .serviceLevelObjectives(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 20, 30)
                        .tag("outcome", outcome).register(registry).record(statements.count());
                recordArm(outcome, statements.count());
                sample.stop(Timer.builder("perflab.wallet.transfer").description("transfer requests")
                        .publishPercentileHistogram().tag("outcome", outcome).register(registry));
            }
        }
    }

    /** The interleaved mode: each arm's statements per created transfer, beside the app-wide meter above. */
    private void recordArm(String outcome, int statements) {
        Arm.current().ifPresent(arm -> DistributionSummary.builder("perflab.wallet.arm.statements")
                .description("SQL statements sent per transfer, per arm of the interleaved mode").baseUnit("statements")
                .tag("arm", arm).tag("outcome", outcome).register(registry).record(statements));
    }

    private Result run(long senderId, String rawKey, TransferRequest request, boolean dryRun) {
        String key = idempotencyKey(rawKey);
        BigDecimal amount = amount(request.amount());
        String phone = phone(request.receiverPhone());
        String pin = required(request.pin(), "pin");
        String requestHash = requestHashes.hex(phone + "|" + amount.toPlainString() + "|" + pin); // keyed: covers the PIN
        Reservation pinTry = null;
        boolean wrongPin = false;
        try {
            if (!dryRun) {
                pinTry = pinGuard.reserve(senderId); // before any connection is taken: a refused try costs no SQL
            }
            MemberRef receiver = members.byPhone(phone).orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND,
                    "receiver-not-found", "No member has this phone number."));
            if (receiver.id() == senderId) {
                // 409, not 400: the request is well formed; the receiver's phone is the sender's own (the state, not the syntax)
                throw new ApiException(HttpStatus.CONFLICT, "self-transfer", "You cannot send money to yourself.");
            }
            TransferCommand command = new TransferCommand(senderId, receiver, key, requestHash,
                    UUID.randomUUID().toString(), amount, pins.hash(senderId, pin)); // hashed before a connection is taken
            return new Result(retry.run(() -> dryRun ? rolledBack(command) : service.transfer(command)), false);
        } catch (DuplicateKeyException e) {
            return replay(senderId, key, requestHash).orElseThrow(() -> e);
        } catch (ApiException e) {
            wrongPin = TransferPlan.WRONG_PIN.equals(e.code());
            // a key that already succeeded gets its stored response even if the same request would fail now
            return replay(senderId, key, requestHash).orElseThrow(() -> e);
        } finally {
            settle(pinTry, wrongPin);
        }
    }

    /** A wrong PIN keeps its try counted against the sender (after the transaction has rolled back); else handed back. */
    private void settle(Reservation pinTry, boolean wrongPin) {
        if (pinTry != null) {
            pinGuard.settle(pinTry, wrongPin);
        }
    }

    private TransferResponse rolledBack(TransferCommand command) {
        return rolledBack.execute(status -> {
            status.setRollbackOnly();
            return service.transfer(command); // the variant's own transaction joins this one
        });
    }

    private Optional<Result> replay(long senderId, String key, String requestHash) {
        return idempotency.replay(senderId, key, requestHash).map(response -> new Result(response, true));
    }

    /** The key in its canonical lower-case form; {@code perflab.parse.header} picks the parser. */
    private String idempotencyKey(String raw) {
        try {
            return keys.parse(raw).toString();
        } catch (IllegalArgumentException e) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "invalid-idempotency-key", "Idempotency-Key must be a UUID.");
        }
    }

    private BigDecimal amount(BigDecimal amount) {
        if (amount == null || amount.signum() <= 0 || amount.stripTrailingZeros().scale() > AMOUNT_DECIMALS) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "invalid-amount",
                    "amount must be a positive number with at most two decimals.");
        }
        if (amount.compareTo(knobs.maxAmount()) > 0) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "amount-over-limit",
                    "amount must not exceed " + knobs.maxAmount().toPlainString() + ".");
        }
        return Money.of(amount);
    }

    /** Digits only: "010-0000-0001" and "01000000001" are the same phone. */
    static String phone(String raw) {
        String phone = required(raw, "receiverPhone");
        if (!PHONE.matcher(phone).matches()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "invalid-phone", "A phone number has 9 to 15 digits.");
        }
        return SEPARATORS.matcher(phone).replaceAll("");
    }

    private static String required(String value, String field) {
        if (value == null || !NOT_BLANK_CHARACTER.matcher(value).find()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "invalid-request", field + " is required.");
        }
        return value;
    }
}
