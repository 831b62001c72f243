package dev.perflab.support.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

import dev.perflab.support.parse.after.LeanBearerTokenResolver;
import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveBearerTokenResolver;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

/**
 * Objects per parse, counted one by one (scripts/alloc-count.sh runs it with the JVMTI agent of
 * scripts/alloc-count/alloccount.c): {@code hot}, after C2 has compiled each loop (escape analysis on), and,
 * run with {@code -Xint}, {@code cold}: what the interpreter allocates before any JIT, the state seed 000's
 * first requests ran in. Each result is stored in a static field, so it escapes as it does in the app.
 */
public final class AllocationCountDriver {

    static volatile Object sink;

    // not final, so that the JIT cannot fold the parse of a constant
    static String authorization = SampleHeaders.AUTHORIZATION;
    static String key = SampleHeaders.IDEMPOTENCY_KEY;
    static String upperCaseKey = SampleHeaders.IDEMPOTENCY_KEY.toUpperCase(Locale.ROOT);
    static NaiveIdempotencyKeyParser naiveKeys = new NaiveIdempotencyKeyParser();
    static LeanIdempotencyKeyParser leanKeys = new LeanIdempotencyKeyParser();

    private AllocationCountDriver() {
    }

    record Case(String name, IntConsumer loop) {
    }

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "hot";
        boolean hot = mode.equals("hot");
        int calls = hot ? 100_000 : 1_000;
        List<Case> cases = List.of(new Case("bearerNaive", AllocationCountDriver::bearerNaive),
                new Case("bearerLean", AllocationCountDriver::bearerLean),
                new Case("keyNaive", AllocationCountDriver::keyNaive),
                new Case("keyLean", AllocationCountDriver::keyLean),
                new Case("upperCaseKeyNaive", AllocationCountDriver::upperCaseKeyNaive),
                new Case("upperCaseKeyLean", AllocationCountDriver::upperCaseKeyLean));
        System.out.printf("%-18s %-5s %10s %10s  %s%n", "case", "mode", "objects/op", "bytes/op", "per op, by class");
        for (Case c : cases) {
            for (int round = 0; round < (hot ? 30 : 1); round++) {
                c.loop().accept(hot ? 20_000 : 100);
            }
            AllocationCounter.start();
            c.loop().accept(calls);
            long[] counted = AllocationCounter.stop();
            List<String> byClass = new ArrayList<>();
            for (int i = 0; 2 + 2 * i < counted.length; i++) {
                byClass.add(String.format(Locale.ROOT, "%s %.2f (%.1f B)", AllocationCounter.className(i),
                        (double) counted[2 + 2 * i] / calls, (double) counted[3 + 2 * i] / calls));
            }
            System.out.printf(Locale.ROOT, "%-18s %-5s %10.2f %10.1f  %s%n", c.name(), mode, (double) counted[0] / calls,
                    (double) counted[1] / calls, String.join(", ", byClass));
        }
    }

    // one loop per case, not one loop over a lambda: each parse keeps a call site (and a compilation) of its own

    static void bearerNaive(int n) {
        for (int i = 0; i < n; i++) {
            sink = NaiveBearerTokenResolver.parse(authorization);
        }
    }

    static void bearerLean(int n) {
        for (int i = 0; i < n; i++) {
            sink = LeanBearerTokenResolver.parse(authorization);
        }
    }

    static void keyNaive(int n) {
        for (int i = 0; i < n; i++) {
            sink = naiveKeys.parse(key);
        }
    }

    static void keyLean(int n) {
        for (int i = 0; i < n; i++) {
            sink = leanKeys.parse(key);
        }
    }

    static void upperCaseKeyNaive(int n) {
        for (int i = 0; i < n; i++) {
            sink = naiveKeys.parse(upperCaseKey);
        }
    }

    static void upperCaseKeyLean(int n) {
        for (int i = 0; i < n; i++) {
            sink = leanKeys.parse(upperCaseKey);
        }
    }
}
