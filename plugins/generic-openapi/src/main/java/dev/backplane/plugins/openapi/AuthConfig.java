package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An ingested connector's {@link AuthScheme}, checked once and with its defaults filled in: which
 * credential fields it reads and the settings that shape its requests (see the module README).
 *
 * @param scheme the scheme name
 * @param fields the credential fields it reads, by position (user, password; token; client id, client secret)
 * @param settings the scheme's non-secret settings as ingested
 */
record AuthConfig(String scheme, List<String> fields, Map<String, String> settings) {

    static final String AUTHORIZATION = "Authorization";
    static final String BEARER = "Bearer ";
    private static final Set<String> LOGIN_METHODS = Set.of("POST", "GET", "PUT");

    AuthConfig {
        requireNonNull(scheme, "scheme is null");
        fields = List.copyOf(requireNonNull(fields, "fields is null"));
        settings = Map.copyOf(requireNonNull(settings, "settings is null"));
    }

    /**
     * Reads {@code auth}: {@code secretFields} rename the scheme's default fields by position.
     *
     * @throws ConnectorException {@code connector_error} when a setting the scheme needs is missing or malformed
     */
    static AuthConfig of(AuthScheme auth) {
        List<String> defaults = AuthScheme.defaultSecretFields(auth.scheme());
        List<String> fields = new ArrayList<>(defaults.size());
        for (int i = 0; i < defaults.size(); i++) {
            String named = i < auth.secretFields().size() ? auth.secretFields().get(i) : null;
            fields.add(named == null || named.isBlank() ? defaults.get(i) : named);
        }
        AuthConfig config = new AuthConfig(auth.scheme(), fields, auth.settings());
        config.check();
        return config;
    }

    private void check() {
        if (isSessionLogin()) {
            String path = setting("login_path").orElseThrow(() -> invalid("needs setting login_path"));
            if (!path.startsWith("/")) {
                throw invalid("setting login_path must start with '/': " + path);
            }
            if (!LOGIN_METHODS.contains(loginMethod())) {
                throw invalid("setting login_method must be one of " + LOGIN_METHODS + ": " + loginMethod());
            }
            if (!Set.of("json", "form").contains(loginFormat())) {
                throw invalid("setting login_format must be json or form: " + loginFormat());
            }
        }
        if (scheme.equals("oauth2_mint")) {
            Optional<String> url = setting("token_url");
            Optional<String> path = setting("token_path");
            if (url.isEmpty() && path.isEmpty()) {
                throw invalid("needs setting token_path or token_url");
            }
            url.ifPresent(u -> {
                String s;
                try {
                    s = URI.create(u).getScheme();
                } catch (IllegalArgumentException e) {
                    throw invalid("setting token_url is not a URL");
                }
                if (!"https".equalsIgnoreCase(s) && !"http".equalsIgnoreCase(s)) {
                    throw invalid("setting token_url must be an http(s) URL");
                }
            });
            path.filter(p -> !p.startsWith("/")).ifPresent(p -> {
                throw invalid("setting token_path must start with '/': " + p);
            });
            if (!Set.of("body", "basic").contains(setting("client_auth", "body"))) {
                throw invalid("setting client_auth must be body or basic");
            }
        }
        sessionTtlSeconds();
        refusedStatuses();
        if (!tokenPointer().isEmpty() && !tokenPointer().startsWith("/")) {
            throw invalid("setting token_pointer must be a JSON pointer (\"\" or starting with '/'): " + tokenPointer());
        }
    }

    private ConnectorException invalid(String what) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "auth scheme " + scheme + " " + what);
    }

    boolean isSessionLogin() {
        return scheme.startsWith("session_login");
    }

    /** Whether requests carry a token this engine obtains and caches (session logins, oauth2_mint). */
    boolean mintsTokens() {
        return isSessionLogin() || scheme.equals("oauth2_mint");
    }

    Optional<String> setting(String name) {
        return Optional.ofNullable(settings.get(name)).filter(v -> !v.isEmpty());
    }

    String setting(String name, String fallback) {
        return setting(name).orElse(fallback);
    }

    String loginMethod() {
        return setting("login_method", "POST").toUpperCase(java.util.Locale.ROOT);
    }

    String loginFormat() {
        return setting("login_format", "json").toLowerCase(java.util.Locale.ROOT);
    }

    long sessionTtlSeconds() {
        String ttl = setting("session_ttl_seconds", "300");
        try {
            long seconds = Long.parseLong(ttl.strip());
            if (seconds > 0) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid("setting session_ttl_seconds must be a positive number: " + ttl);
    }

    /**
     * The header a minted or static token is sent in. A session read from {@code Set-Cookie} goes back as
     * {@code Cookie} unless {@code header} says otherwise.
     */
    String tokenHeader() {
        return setting("header").orElse(cookieSession() ? "Cookie" : AUTHORIZATION);
    }

    /** The text before the token; a prefix ending in a letter or digit gets a separating space. */
    String tokenPrefix() {
        String prefix = settings.containsKey("prefix") ? settings.get("prefix") : cookieSession() ? "" : BEARER;
        return withSpace(prefix);
    }

    /**
     * Where the token is in the login answer: a JSON pointer, {@code /access_token} by default; {@code ""}
     * is the whole answer (a login that answers a bare JSON string, as vCenter's {@code POST /api/session} does).
     */
    String tokenPointer() {
        return settings.containsKey("token_pointer") ? settings.get("token_pointer") : "/access_token";
    }

    /**
     * The statuses that mean the vendor refused the credential ({@code connector_auth_failed}): {@code 401}
     * unless {@code refused_statuses} lists others ({@code 401,403} for a vendor such as NSX that answers a
     * wrong password with 403).
     */
    Set<Integer> refusedStatuses() {
        Set<Integer> statuses = new java.util.TreeSet<>();
        for (String part : setting("refused_statuses", "401").split(",")) {
            try {
                int status = Integer.parseInt(part.strip());
                if (status >= 400 && status < 500) {
                    statuses.add(status);
                    continue;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw invalid("setting refused_statuses must list 4xx statuses, comma-separated: " + part.strip());
        }
        return Set.copyOf(statuses);
    }

    String loginTokenHeader() {
        return setting("login_token_header", AUTHORIZATION);
    }

    String loginTokenPrefix() {
        return withSpace(settings.containsKey("login_token_prefix") ? settings.get("login_token_prefix") : BEARER);
    }

    private boolean cookieSession() {
        return setting("token_header").filter(h -> h.equalsIgnoreCase("Set-Cookie")).isPresent();
    }

    private static String withSpace(String prefix) {
        return !prefix.isEmpty() && Character.isLetterOrDigit(prefix.charAt(prefix.length() - 1)) ? prefix + " " : prefix;
    }
}
