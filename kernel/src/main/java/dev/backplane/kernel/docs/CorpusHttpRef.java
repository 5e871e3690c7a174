package dev.backplane.kernel.docs;

import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A corpus-http backend_ref, checked when it is set: {@code url} (http or https, no user info; its
 * host passes the SSRF guard like a target's), optional non-secret {@code headers}, and an optional
 * {@code secret_ref} under the same scope rules as a target's (a tenant-owned collection's kv ref
 * lies under {@code tenants/<tenant-id>/}; a global collection's under {@code platform/docs/}).
 */
final class CorpusHttpRef {

    private static final Set<String> REF_FIELDS = Set.of("url", "headers", "secret_ref");
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}");
    private static final Pattern GLOBAL_KV_REF = Pattern.compile("platform/docs(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+");
    /** Set by the backplane itself, or secret-bearing (use secret_ref), or refused by the JDK client. */
    private static final Set<String> RESERVED_HEADERS = Set.of("authorization", "proxy-authorization", "cookie",
            "host", "content-length", "content-type", "accept", "connection", "upgrade", "expect",
            "transfer-encoding", "te", "trailer", "keep-alive", "via", "x-svc-egress");

    private final SsrfGuard ssrf;
    private final SecretRefs.Backend backend;

    CorpusHttpRef(SsrfGuard ssrf, SecretRefs.Backend backend) {
        this.ssrf = ssrf;
        this.backend = backend;
    }

    Map<String, Object> validate(Optional<UUID> owner, String key, Map<String, Object> ref) {
        for (String field : ref.keySet()) {
            if (!REF_FIELDS.contains(field)) {
                throw invalid("backend_ref." + field, "unknown field '" + field + "' in a corpus-http backend_ref; "
                        + "known: url, headers, secret_ref");
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (!(ref.get("url") instanceof String url)) {
            throw invalid("backend_ref.url", "a corpus-http backend_ref needs url (the retrieval endpoint, http or https)");
        }
        URI uri = endpoint(url);
        try {
            ssrf.check(uri.getHost());
        } catch (SsrfGuard.Refused refused) {
            throw CommonErrors.SSRF_REFUSED.error(refused.getMessage(), Map.of("field", "backend_ref.url",
                    "allowlist_setting", "SVC_TARGET_SSRF_ALLOWLIST"));
        }
        out.put("url", url);
        if (ref.get("headers") != null) {
            out.put("headers", headers(ref.get("headers")));
        }
        if (ref.get("secret_ref") != null) {
            if (!(ref.get("secret_ref") instanceof String secretRef) || secretRef.isBlank()) {
                throw invalid("backend_ref.secret_ref", "secret_ref must be a non-empty string");
            }
            out.put("secret_ref", owner.map(tenant -> SecretRefs.forRegistration(backend, tenant,
                    "docs-" + key, Optional.of(secretRef))).orElseGet(() -> globalSecretRef(secretRef)));
        }
        return out;
    }

    private static URI endpoint(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid("backend_ref.url", "url is not a URI: " + e.getMessage());
        }
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw invalid("backend_ref.url", "url must be an absolute http or https URL with a host, got '" + url + "'");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw invalid("backend_ref.url", "url must carry no user info and no fragment; put a token behind "
                    + "secret_ref instead");
        }
        return uri;
    }

    private static Map<String, String> headers(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw invalid("backend_ref.headers", "headers must be an object of header name to string value");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> h : map.entrySet()) {
            String name = String.valueOf(h.getKey());
            if (!HEADER_NAME.matcher(name).matches() || RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw invalid("backend_ref.headers", "header '" + name + "' cannot be set here (reserved, or "
                        + "secret-bearing: a bearer token belongs behind secret_ref)");
            }
            if (!(h.getValue() instanceof String v) || v.indexOf('\r') >= 0 || v.indexOf('\n') >= 0) {
                throw invalid("backend_ref.headers", "header '" + name + "' must have a single-line string value");
            }
            out.put(name, v);
        }
        return out;
    }

    /** A global collection belongs to no tenant: its kv secret lives under platform/docs/. */
    private String globalSecretRef(String ref) {
        if (backend == SecretRefs.Backend.KV) {
            if (!GLOBAL_KV_REF.matcher(ref).matches() || ref.contains("/../") || ref.endsWith("/..")) {
                throw CommonErrors.INVALID_SECRET_REF.error("a global collection's kv secret_ref must lie "
                        + "under platform/docs/, got '" + ref + "'", Map.of("field", "backend_ref.secret_ref"));
            }
            return ref;
        }
        return SecretRefs.forPlatform(backend, ref);
    }

    private static DomainException invalid(String field, String message) {
        return DocsErrors.INVALID_BACKEND_REF.error(message, Map.of("field", field));
    }
}
