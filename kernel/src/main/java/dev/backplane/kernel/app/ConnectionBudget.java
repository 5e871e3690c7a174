package dev.backplane.kernel.app;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

/**
 * How many connections each listener holds open at once ({@link Setting#SERVER_MAX_CONNECTIONS}).
 *
 * <p>Helidon's listener accepts without limit unless told otherwise, and a process out of file descriptors cannot
 * accept: the accept fails with "Too many open files", and Helidon then closes the listener for good while the
 * process runs on ({@link ListenerWatch} notices that); a class loaded from a jar not yet open fails as well. So the
 * API listener takes at most half of what the process's open-file limit leaves at start, after the management
 * listener's share and {@value #LATER} kept for what opens later (the database pool growing, jars and plugins opened
 * as their classes load, model files). The other half is for the requests' own outbound connections: a request may
 * hold one to its target while it runs (a call through the pipeline, an agent run's model call, a spec fetched by
 * URL). With three quarters and no reserve, as first built, a full listener whose requests all called a slow model
 * ran the process out of descriptors and lost its listener ({@code ConnectionLimitIT}). A connection over the
 * budget is not refused: it waits in the socket's backlog until one closes.
 *
 * <p>A configured value may be more than the derived one, up to what the limit leaves (no room kept for the requests'
 * outbound connections): the start then logs a warning that says so, since a full listener whose requests all call
 * out can run the process out of descriptors.
 *
 * @param api the API listener's limit, -1 for none (the open-file limit cannot be read)
 * @param fileLimit the process's open-file limit, -1 when unknown
 * @param derived the limit the setting's default (0) gives, -1 when unknown
 */
record ConnectionBudget(int api, long fileLimit, int derived) {

    /** Health probes and metric scrapes: the management listener's own limit, so it answers when the API's is full. */
    static final int MANAGEMENT = 64;
    /** Descriptors kept, before the halving, for what the process opens after its start besides connections. */
    static final int LATER = 128;
    /** Below this a derived budget is still used, with a warning: the process's limit is too low to serve much. */
    static final int LOW = 256;

    /** The budget for this process's current limit and open descriptors. */
    static ConnectionBudget of(KernelConfig config) {
        OptionalLong limit = OptionalLong.empty();
        OptionalLong open = OptionalLong.empty();
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            limit = OptionalLong.of(os.getMaxFileDescriptorCount());
            open = OptionalLong.of(os.getOpenFileDescriptorCount());
        }
        return of(config.intValue(Setting.SERVER_MAX_CONNECTIONS), limit, open);
    }

    /**
     * @param configured the setting: 0 derives the budget
     * @param limit the open-file limit, empty when it cannot be read (then a configured value is taken as it is)
     * @param open the descriptors open now
     */
    static ConnectionBudget of(int configured, OptionalLong limit, OptionalLong open) {
        if (limit.isEmpty() || open.isEmpty()) {
            return new ConnectionBudget(configured > 0 ? configured : -1, -1, -1);
        }
        long free = limit.getAsLong() - open.getAsLong() - MANAGEMENT;
        if (configured > free) {
            throw new KernelConfig.ConfigException(Setting.SERVER_MAX_CONNECTIONS.key() + "=" + configured
                    + " is more connections than this process can open: its open-file limit is " + limit.getAsLong()
                    + ", " + open.getAsLong() + " are open and " + MANAGEMENT + " are kept for the management listener; "
                    + "raise the limit (ulimit -n, systemd's LimitNOFILE=, the container runtime's nofile ulimit) or "
                    + "lower " + Setting.SERVER_MAX_CONNECTIONS.envVar());
        }
        int derived = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (free - LATER) / 2));
        return new ConnectionBudget(configured > 0 ? configured : derived, limit.getAsLong(), derived);
    }

    /** Whether the listener may hold more connections than leave room for an outbound one each (a configured value). */
    boolean overDerived() {
        return derived > 0 && api > derived;
    }

    /** Whether {@link #describe()} warns: a budget below {@value #LOW}, or {@link #overDerived()}. */
    boolean warns() {
        return (api >= 0 && api < LOW) || overDerived();
    }

    /** One line for the log at start; a warning when {@link #warns()}. */
    String describe() {
        if (api < 0) {
            return "the API listener takes any number of connections (the open-file limit cannot be read here)";
        }
        return "the API listener holds at most " + api + " connections at once (" + Setting.SERVER_MAX_CONNECTIONS.key()
                + "; the process may open " + fileLimit + " files)" + (api < LOW ? ": that is few; raise the "
                + "open-file limit (ulimit -n) to serve more clients at once" : "") + (overDerived() ? ": more than the "
                + derived + " that leave room for an outbound connection per request, so a full listener whose requests "
                + "all call out (to targets, a model) can run the process out of descriptors; raise the open-file limit "
                + "or lower " + Setting.SERVER_MAX_CONNECTIONS.envVar() : "");
    }
}
