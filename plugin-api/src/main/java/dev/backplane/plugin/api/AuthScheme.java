package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How requests of an ingested connector authenticate, chosen at ingest ({@code --auth-scheme}).
 *
 * <ul>
 *   <li>{@code none}: no credential.</li>
 *   <li>{@code basic}: HTTP Basic from fields {@code username}, {@code password}.</li>
 *   <li>{@code static_header}: one header (setting {@code header}, default {@code Authorization}) whose
 *       value is setting {@code prefix} (default {@code "Bearer "}) plus field {@code token}.</li>
 *   <li>{@code session_login}: a login request (setting {@code login_path}, relative to the target's root,
 *       not to the base path; {@code login_method} default POST; {@code login_format} json (default) or
 *       form; {@code login_params} extra fixed fields as {@code k=v&k=v}; {@code login_username_param} and
 *       {@code login_password_param} the body's field names, default {@code username}, {@code password})
 *       carrying fields {@code username}, {@code password}; the session token is read from
 *       the response (setting {@code token_pointer}, a JSON pointer, default {@code /access_token}; or
 *       setting {@code token_header}) and sent like {@code static_header} until it expires (setting
 *       {@code expires_pointer} default {@code /expires_in}, else {@code session_ttl_seconds} default 300).</li>
 *   <li>{@code session_login_basic}: like session_login, but the login request authenticates with HTTP
 *       Basic from {@code username}, {@code password} and has no body.</li>
 *   <li>{@code session_login_token}: like session_login, but the login request presents field
 *       {@code token} (setting {@code login_token_header}, default {@code Authorization} with prefix
 *       {@code login_token_prefix}, default {@code "Bearer "}) and exchanges it for a session token.</li>
 *   <li>{@code oauth2_mint}: an OAuth 2.0 client-credentials grant (setting {@code token_path} relative
 *       to the target, or {@code token_url}; optional {@code scope}; {@code client_auth} body (default)
 *       or basic) from fields {@code client_id},
 *       {@code client_secret}; the access token is cached until shortly before it expires.</li>
 * </ul>
 *
 * <p>The field names above are the defaults; {@code secretFields} renames them by position (for
 * {@code basic} and the session logins that read a user: user field, password field; for
 * {@code static_header} and {@code session_login_token}: the token field; for {@code oauth2_mint}:
 * client id field, client secret field).
 *
 * @param scheme one of {@link #SCHEMES}
 * @param secretFields the credential fields the scheme reads, in the order above
 * @param settings non-secret settings of the scheme (above)
 * @since 1.2
 */
public record AuthScheme(String scheme, List<String> secretFields, Map<String, String> settings) {

    /** The schemes an ingested connector may use. */
    public static final Set<String> SCHEMES = Set.of("none", "basic", "static_header", "session_login",
            "session_login_basic", "session_login_token", "oauth2_mint");

    public AuthScheme {
        requireNonNull(scheme, "scheme is null");
        if (!SCHEMES.contains(scheme)) {
            throw new IllegalArgumentException("unknown auth scheme '" + scheme + "'; one of " + SCHEMES);
        }
        secretFields = List.copyOf(requireNonNull(secretFields, "secretFields is null"));
        settings = Map.copyOf(requireNonNull(settings, "settings is null"));
    }

    /** The credential fields a scheme reads when ingest names none. */
    public static List<String> defaultSecretFields(String scheme) {
        return switch (scheme) {
            case "basic", "session_login", "session_login_basic" -> List.of("username", "password");
            case "static_header", "session_login_token" -> List.of("token");
            case "oauth2_mint" -> List.of("client_id", "client_secret");
            default -> List.of();
        };
    }
}
