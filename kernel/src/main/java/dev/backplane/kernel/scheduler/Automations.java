package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.util.Paging;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * {@code svc automation list}: what runs by itself in the tenant, from every {@link AutomationSource}, in one
 * list ordered by kind and then as each source orders its own. An empty tenant has an empty list.
 */
public final class Automations {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    /** The list as shown; {@code truncated} when there were more than {@code limit}. */
    public record Listing(List<Automation> automations, boolean truncated) {
    }

    private final List<AutomationSource> sources;

    public Automations(List<AutomationSource> sources) {
        this.sources = List.copyOf(sources);
    }

    /**
     * The automations whose last run failed (an event trigger whose agent run ended {@code failed}), as the console's
     * home page lists them; from the first {@link #PAGE}{@code .max()} automations.
     */
    public List<Automation> failing(UUID tenant) {
        return list(tenant, PAGE.max()).automations().stream().filter(Automation::failing).toList();
    }

    public Listing list(UUID tenant, int limit) {
        int shown = PAGE.checked(limit, 0).limit();
        List<Automation> all = new ArrayList<>();
        for (AutomationSource source : sources) {
            all.addAll(source.automations(tenant, shown + 1));
        }
        List<Automation> sorted = all.stream().sorted(Comparator.comparing(Automation::kind)).toList();
        return new Listing(sorted.subList(0, Math.min(shown, sorted.size())), sorted.size() > shown);
    }
}
