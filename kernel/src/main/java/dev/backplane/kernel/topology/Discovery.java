package dev.backplane.kernel.topology;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.targets.Target;
import java.util.List;

/**
 * How one connector family's targets are read for auto edges. Implementations call the connector's read
 * operations through {@link DiscoveryCalls} — the dispatch pipeline, as the given principal — never a
 * plugin directly; each says only which product it reads and what the reads show.
 */
abstract class Discovery {

    private final String product;
    final DiscoveryCalls calls;

    Discovery(String product, DiscoveryCalls calls) {
        this.product = product;
        this.calls = calls;
    }

    /** The target product this discovery reads. */
    final String product() {
        return product;
    }

    /** The edges the target shows now; throws {@code refresh_failed} when a read did not succeed. */
    abstract List<Seen> observe(Caller system, Target target);
}
