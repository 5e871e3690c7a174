package dev.backplane.kernel.http;

import dev.backplane.kernel.errors.CommonErrors;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Version negotiation on the REST API. Every {@code /api/} answer carries the API level ({@code Svc-Api-Level:
 * major.minor}) and the backplane's version ({@code Svc-Version}); a client that sends its own level in the same
 * header (the CLI does) and speaks another major is refused with {@code 400 incompatible_client} before any handler
 * runs — its requests could mean something else here — with both levels and versions in the extras and the fix in
 * the message. A client that sends no level (curl, the generated client) is served as always; a minor difference is
 * the client's to mention (the CLI warns once a day).
 */
public final class ApiLevel implements Filter {

    public static final HeaderName HEADER = HeaderNames.create("Svc-Api-Level");
    public static final HeaderName VERSION_HEADER = HeaderNames.create("Svc-Version");
    private static final Pattern LEVEL = Pattern.compile("(\\d{1,4})\\.(\\d{1,4})");

    private final String level;
    private final String version;
    private final int major;

    /**
     * @param level this backplane's level ({@code 1.1}); an unstamped build ({@code unknown}) sends no header and
     *              refuses nothing
     * @param version this backplane's version, for the header and the refusal's message
     */
    public ApiLevel(String level, String version) {
        Matcher m = LEVEL.matcher(level);
        this.level = m.matches() ? level : null;
        this.major = m.matches() ? Integer.parseInt(m.group(1)) : -1;
        this.version = version;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (level == null || !req.path().path().startsWith("/api/")) {
            chain.proceed();
            return;
        }
        res.header(HEADER, level);
        res.header(VERSION_HEADER, version);
        String theirs = req.headers().first(HEADER).orElse(null);
        if (theirs != null) {
            Matcher m = LEVEL.matcher(theirs.strip());
            if (!m.matches() || Integer.parseInt(m.group(1)) != major) {
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("error_code", CommonErrors.INCOMPATIBLE_CLIENT.code());
                extras.put("client_api_level", theirs.strip());
                extras.put("api_level", level);
                extras.put("version", version);
                String client = req.headers().first(HeaderNames.USER_AGENT).orElse("this client");
                Json.send(res, Status.BAD_REQUEST_400, new ErrorEnvelope(CommonErrors.INCOMPATIBLE_CLIENT.code(),
                        client + " speaks API level " + theirs.strip() + ", which this backplane (version " + version
                                + ", API level " + level + ") does not serve: install the svc CLI of version "
                                + version + " (its archive, or bin/build-cli from the same release) and run the "
                                + "command again", extras));
                return;
            }
        }
        chain.proceed();
    }
}
