package dev.perflab.support.interleave;

import java.util.List;
import java.util.Map;

/**
 * Picks, per request, one of a feature's implementations by the current arm's {@link Side} (interleaved mode);
 * the app's own side, {@code fallback}, when the request has no arm, its arm no side, or when the side's
 * implementation is not in this app (the wallet's Redis caches need {@code perflab.wallet.cache=redis}). The side is
 * the feature's wrapper's business ({@code wallet.WalletArms}, {@code login.LoginArms}), never its interface's.
 *
 * @param <T> the feature's interface, e.g. the wallet's {@code TransferService}
 */
public final class ArmChoice<T> {

    private final InterleaveProperties properties;
    private final Map<Side, T> bySide;
    private final T fallback;

    /**
     * @param bySide   the feature's implementations in this app, keyed by the side each is
     * @param fallback the side the app's own knobs chose
     */
    public ArmChoice(InterleaveProperties properties, Map<Side, T> bySide, Side fallback) {
        this.properties = properties;
        this.bySide = Map.copyOf(bySide);
        this.fallback = bySide.get(fallback);
        if (this.fallback == null) {
            throw new IllegalStateException("the interleaved mode found no " + fallback + " implementation among " + bySide);
        }
    }

    /** The implementation of the current request's arm. */
    public T current() {
        return Arm.current().flatMap(properties::side).map(bySide::get).orElse(fallback);
    }

    /** Every implementation, each once (e.g. to follow a write in every cache). */
    public List<T> all() {
        return List.copyOf(bySide.values());
    }
}
