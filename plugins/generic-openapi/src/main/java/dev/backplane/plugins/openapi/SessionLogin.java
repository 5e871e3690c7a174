package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Obtains a session token (the session_login schemes) or an access token (oauth2_mint) from the vendor.
 * A 401 or 403 here, or an OAuth error that names the credential, is {@code connector_auth_failed}.
 */
final class SessionLogin {

    private static final Set<String> OAUTH_CREDENTIAL_ERRORS = Set.of("invalid_grant", "invalid_client",
            "unauthorized_client");

    private final AuthConfig config;
    private final VendorClient vendor;
    private final ResponseMapper mapper;
    private final Credential credential;
    private final Clock clock;

    SessionLogin(AuthConfig config, VendorClient vendor, ResponseMapper mapper, Credential credential, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.vendor = requireNonNull(vendor, "vendor is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.credential = requireNonNull(credential, "credential is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    SessionToken login() {
        HttpRequest request = config.scheme().equals("oauth2_mint") ? mintRequest() : loginRequest();
        String what = "the login (" + request.method() + " " + request.uri().getPath() + ")";
        VendorResponse r = vendor.send(request);
        if (r.status() == 401 || r.status() == 403 || (r.status() == 400 && credentialError(r))) {
            throw ResponseMapper.rejected(what, r.status());
        }
        if (!r.ok()) {
            throw mapper.vendorError(what, r);
        }
        JsonNode body = Json.treeOf(r.body());
        String token = token(r, body).orElseThrow(() -> new ConnectorException(ErrorCode.CONNECTOR_ERROR, what
                + " answered without a token at " + config.setting("token_header").map(h -> "header " + h)
                .orElse("pointer '" + config.tokenPointer() + "'")));
        long usable = SessionToken.usableSeconds(ttlSeconds(body));
        return new SessionToken(token, clock.instant().plusSeconds(usable));
    }

    private HttpRequest loginRequest() {
        String method = config.loginMethod();
        Map<String, String> fields = loginParams();
        HttpRequest.Builder b;
        switch (config.scheme()) {
            case "session_login" -> {
                fields.put(config.setting("login_username_param", "username"), credential.field(config.fields().get(0)));
                fields.put(config.setting("login_password_param", "password"), credential.field(config.fields().get(1)));
                b = withFields(method, fields);
            }
            case "session_login_basic" -> {
                b = vendor.request(vendor.loginPath(config.setting("login_path").orElseThrow()) + queryOf(fields))
                        .setHeader(AuthConfig.AUTHORIZATION, basic(credential.field(config.fields().get(0)),
                                credential.field(config.fields().get(1))));
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            default -> {
                String token = credential.field(config.fields().get(0));
                Optional<String> param = config.setting("login_token_param");
                param.ifPresent(name -> fields.put(name, token));
                b = withFields(method, fields);
                if (param.isEmpty()) {
                    b.setHeader(config.loginTokenHeader(), config.loginTokenPrefix() + token);
                }
            }
        }
        return b.setHeader("Accept", "application/json").build();
    }

    /** The login fields as the body (json or form), or in the query of a GET; no body when there are none. */
    private HttpRequest.Builder withFields(String method, Map<String, String> fields) {
        String path = vendor.loginPath(config.setting("login_path").orElseThrow());
        if (method.equals("GET")) {
            return vendor.request(path + queryOf(fields)).GET();
        }
        HttpRequest.Builder b = vendor.request(path);
        if (fields.isEmpty()) {
            return b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        boolean form = config.loginFormat().equals("form");
        String contentType = form ? WireEncoding.FORM : "application/json";
        byte[] body = WireEncoding.body(fields, contentType);
        return b.method(method, HttpRequest.BodyPublishers.ofByteArray(body)).setHeader("Content-Type", contentType);
    }

    private HttpRequest mintRequest() {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        config.setting("scope").ifPresent(s -> form.put("scope", s));
        String id = credential.field(config.fields().get(0));
        String secret = credential.field(config.fields().get(1));
        boolean basic = config.setting("client_auth", "body").equals("basic");
        if (!basic) {
            form.put("client_id", id);
            form.put("client_secret", secret);
        }
        HttpRequest.Builder b = vendor.tokenUrl(config.setting("token_url")).map(vendor::request)
                .orElseGet(() -> vendor.request(config.setting("token_path").orElseThrow()));
        if (basic) {
            b.setHeader(AuthConfig.AUTHORIZATION, basic(id, secret));
        }
        return b.POST(HttpRequest.BodyPublishers.ofString(WireEncoding.form(form)))
                .setHeader("Content-Type", WireEncoding.FORM).setHeader("Accept", "application/json").build();
    }

    /** {@code login_params}: fixed {@code k=v&k=v} fields (URL-decoded), in order. */
    private Map<String, String> loginParams() {
        Map<String, String> fields = new LinkedHashMap<>();
        config.setting("login_params").ifPresent(text -> {
            for (String pair : text.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String k = eq < 0 ? pair : pair.substring(0, eq);
                String v = eq < 0 ? "" : pair.substring(eq + 1);
                fields.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            }
        });
        return fields;
    }

    private static String queryOf(Map<String, String> fields) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        fields.forEach((k, v) -> q.put(k, List.of(v)));
        String text = WireEncoding.query(q);
        return text.isEmpty() ? "" : "?" + text;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private Optional<String> token(VendorResponse r, JsonNode body) {
        Optional<String> header = config.setting("token_header");
        if (header.isPresent()) {
            Optional<String> value = r.headers().firstValue(header.get());
            return header.get().equalsIgnoreCase("Set-Cookie") ? value.map(c -> c.split(";", 2)[0].strip())
                    .filter(c -> !c.isEmpty()) : value.filter(v -> !v.isBlank());
        }
        JsonNode node = body.at(config.tokenPointer());
        return node.isValueNode() && !node.isNull() && !node.asText().isEmpty() ? Optional.of(node.asText())
                : Optional.empty();
    }

    /** The token's life: {@code expires_pointer} (default /expires_in) when the answer has it, else the session TTL. */
    private long ttlSeconds(JsonNode body) {
        JsonNode expires = body.at(config.setting("expires_pointer", "/expires_in"));
        long seconds = expires.isNumber() ? expires.asLong()
                : expires.isTextual() ? parseLong(expires.asText()) : 0;
        return seconds > 0 ? seconds : config.sessionTtlSeconds();
    }

    private static long parseLong(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean credentialError(VendorResponse r) {
        JsonNode error = Json.treeOf(r.body()).path("error");
        return error.isTextual() && OAUTH_CREDENTIAL_ERRORS.contains(error.asText());
    }
}
