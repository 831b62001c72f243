package dev.perflab.wallet;

import org.springframework.test.context.TestPropertySource;

/**
 * The same contract with wallet-after's cache on the app's shared Lettuce connection
 * ({@code perflab.wallet.redis-client=lettuce}, the knob's other value): what a transfer does does not depend on
 * the client.
 */
@TestPropertySource(properties = "perflab.wallet.redis-client=lettuce")
class OptimizedTransferOnLettuceIT extends OptimizedTransferIT {

    @Override
    boolean cacheUsesTheSharedLettuceClient() {
        return true;
    }
}
