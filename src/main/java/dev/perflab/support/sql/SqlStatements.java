package dev.perflab.support.sql;

/**
 * Counts the SQL statements a unit of work sends to the database, on the current thread. The MyBatis
 * {@link StatementCountingInterceptor} calls {@link #sent()} for every statement it prepares; a feature
 * opens a {@link Scope} around one request and records {@link Scope#count()} as a distribution, so that
 * "statements per request" is measured, never counted by hand.
 */
public final class SqlStatements {

    private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

    private SqlStatements() {
    }

    /** Starts counting on this thread; scopes nest, and an inner scope's statements count in the outer one too. */
    public static Scope open() {
        Scope scope = new Scope(CURRENT.get());
        CURRENT.set(scope);
        return scope;
    }

    /** One statement was sent on this thread. */
    static void sent() {
        for (Scope scope = CURRENT.get(); scope != null; scope = scope.outer) {
            scope.count++;
        }
    }

    /** The statements counted since {@link #open()}; close it on the thread that opened it. */
    public static final class Scope implements AutoCloseable {

        private final Scope outer;
        private int count;

        private Scope(Scope outer) {
            this.outer = outer;
        }

        public int count() {
            return count;
        }

        @Override
        public void close() {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }
}
