package dev.backplane.kernel.scheduler;

import java.util.List;
import java.util.UUID;

/**
 * Something that runs by itself in a tenant and shows in {@code svc automation list}: event triggers today,
 * sensors and scheduled jobs as they land. Each capability contributes one source, wired in
 * {@code app.KernelServices}; {@link Automations} merges them.
 */
@FunctionalInterface
public interface AutomationSource {

    /**
     * The tenant's automations of this source, at most {@code limit} of them (the merge asks for one more
     * than it shows, to tell the caller the list was cut).
     */
    List<Automation> automations(UUID tenant, int limit);
}
