package dev.backplane.kernel.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.logging.common.HelidonMdc;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is well formed, otherwise a
 * fresh one. The id is echoed on the response and put in the logging context as {@code request_id}.
 */
public final class RequestIds implements Filter {

    public static final HeaderName HEADER = HeaderNames.create("X-Request-Id");
    public static final String MDC_KEY = "request_id";
    /** The tenant a request acts on, in the logging context once the caller is known. */
    public static final String TENANT_MDC_KEY = "tenant_id";
    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String id = req.headers().first(HEADER).filter(v -> WELL_FORMED.matcher(v).matches())
                .orElseGet(() -> UUID.randomUUID().toString());
        req.context().register(RequestIds.class, id);
        res.header(HEADER, id);
        HelidonMdc.set(MDC_KEY, id);
        try {
            chain.proceed();
        } finally {
            HelidonMdc.remove(MDC_KEY);
            HelidonMdc.remove(TENANT_MDC_KEY);
        }
    }

    public static String of(io.helidon.webserver.http.ServerRequest req) {
        return req.context().get(RequestIds.class, String.class).orElse("-");
    }
}
