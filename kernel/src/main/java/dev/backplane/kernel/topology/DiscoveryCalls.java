package dev.backplane.kernel.topology;

import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.results.ResultQuery;
import dev.backplane.kernel.results.ResultQueryService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way discovery reads a target: a governed call through the dispatcher (gate, credentials, audit
 * row as the discovery principal), with a reduced result read back whole from its handle. A call that
 * does not answer {@code ok} stops the refresh with {@code 409 refresh_failed} naming the operation.
 */
final class DiscoveryCalls {

    static final int PAGE = 500;

    private final Dispatcher dispatcher;
    private final ResultQueryService results;

    DiscoveryCalls(Dispatcher dispatcher, ResultQueryService results) {
        this.dispatcher = dispatcher;
        this.results = results;
    }

    ResultEnvelope call(Caller system, String connector, String target, String op, Map<String, Object> params) {
        ResultEnvelope env = dispatcher.call(system, new CallRequest(connector, op, target, new LinkedHashMap<>(params),
                Optional.empty(), Optional.empty(), Optional.empty()));
        if (!ResultEnvelope.OK.equals(env.status())) {
            Object code = env.extras().getOrDefault("error_code", env.status());
            throw TopologyErrors.REFRESH_FAILED.error("discovery of " + target + " stopped: " + op + " answered "
                    + env.status() + " (" + code + ")" + (env.error() == null ? "" : ": " + env.error()),
                    Map.of("target", target, "op_id", op, "status", env.status(), "error_code", String.valueOf(code)));
        }
        return env;
    }

    /**
     * A discovery read hit one of its caps: the refresh stops with {@code 409 refresh_failed} naming the cap,
     * and nothing is written or staled (treating a capped read as complete would stale every edge beyond it).
     */
    static DomainException capHit(String target, String cap, int max, String what) {
        return TopologyErrors.REFRESH_FAILED.error("discovery of " + target + " stopped: "
                + what + " exceeds the cap " + cap + " = " + max + "; nothing was written or marked stale",
                Map.of("target", target, "cap", cap, "max", max));
    }

    /** Every row of a set result: the result itself, or, when it was reduced, the stored rows page by page. */
    List<Map<?, ?>> rows(Caller system, ResultEnvelope env) {
        Optional<String> handle = Optional.ofNullable(env.extras().get("fetch_more")).filter(Map.class::isInstance)
                .map(m -> ((Map<?, ?>) m).get("drill_in")).filter(Map.class::isInstance)
                .map(d -> ((Map<?, ?>) d).get("handle_id")).map(Object::toString);
        List<Object> raw = new ArrayList<>();
        if (handle.isEmpty() && Boolean.TRUE.equals(env.extras().get("reduced"))) {
            // reduced but not stored (over results.handle-max-bytes): the sample is not the whole result, and
            // treating it as complete would stale every edge beyond it
            throw TopologyErrors.REFRESH_FAILED.error("discovery stopped: a result was too large to store ("
                    + "results.handle-max-bytes); nothing was written or marked stale", Map.of("cap",
                    "results.handle-max-bytes"));
        }
        if (handle.isEmpty()) {
            if (env.result() instanceof List<?> l) {
                raw.addAll(l);
            }
        } else {
            for (int offset = 0; ; offset += PAGE) {
                ResultQuery.Response r = results.query(system.tenantId(), system.sub(), new ResultQuery(handle.get(),
                        Optional.of(offset), Optional.of(PAGE), Optional.empty()));
                raw.addAll(r.rows());
                if (r.rows().size() < PAGE) {
                    break;
                }
            }
        }
        return raw.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
    }
}
