package dev.backplane.kernel.credentials;

import dev.backplane.kernel.errors.CommonErrors;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The {@code secret_ref} grammar and scope rules (SPEC "Authentication" 7). The backplane never
 * stores credentials, only a reference that is resolved at dispatch time.
 * <ul>
 *   <li>{@code kv}: a logical path relative to the mount, with no mount and no {@code data/} segment;
 *       by default {@code tenants/<tenant-id>/<target-name>}; a supplied ref must lie under
 *       {@code tenants/<tenant-id>/}.</li>
 *   <li>{@code cloudsm}: {@code cloudsm:<project-id>/<secret-name>[/versions/<version>][#<field>]}, set explicitly;
 *       the secret name must start with {@code t-<tenant-id>-}, so one tenant can never name another
 *       tenant's secret although the backplane's identity may read them all.</li>
 * </ul>
 * A secret belongs to an owner: one tenant, or the platform (a global doc collection: kv under
 * {@code platform/}, cloudsm names starting {@code platform-}). The owner is checked when a ref is
 * registered and again every time it is read or written ({@link #scopeError}), so a row written
 * before a rule existed, or by a path that forgot it, still cannot reach another owner's secret.
 */
public final class SecretRefs {

    /** The configured credential backend. */
    public enum Backend {
        KV, CLOUDSM;

        public static Backend parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "kv", "" -> KV;
                case "cloudsm" -> CLOUDSM;
                default -> throw new IllegalArgumentException("credentials backend must be kv or cloudsm, got '" + text + "'");
            };
        }
    }

    private static final Pattern CLOUDSM = Pattern.compile(
            "cloudsm:([a-z][a-z0-9-]{4,28}[a-z0-9])/([A-Za-z0-9_-]{1,255})(/versions/([0-9]+|latest))?(#([A-Za-z0-9_.-]+))?");
    private static final String PLATFORM_KV = "platform/";
    private static final String PLATFORM_CLOUDSM = "platform-";
    private static final Pattern KV_SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

    private SecretRefs() {
    }

    public static String defaultKvRef(UUID tenant, String targetName) {
        return "tenants/" + tenant + "/" + targetName;
    }

    /**
     * The secret_ref to store for a target: the supplied one if it obeys the backend's rules, else
     * the derived default (kv only).
     */
    public static String forRegistration(Backend backend, UUID tenant, String targetName, Optional<String> supplied) {
        return switch (backend) {
            case KV -> supplied.map(ref -> checkedKv(tenant, targetName, ref)).orElse(defaultKvRef(tenant, targetName));
            case CLOUDSM -> {
                String ref = supplied.orElseThrow(() -> CredentialErrors.SECRET_REF_REQUIRED.error("the cloudsm credential backend needs an explicit secret_ref of the form "
                                + "cloudsm:<project-id>/<secret-name>[/versions/<version>][#<field>]",
                        Map.of("field", "secret_ref")));
                if (!CLOUDSM.matcher(ref).matches()) {
                    throw CommonErrors.INVALID_SECRET_REF.error("secret_ref '" + ref + "' is not of the form "
                            + "cloudsm:<project-id>/<secret-name>[/versions/<version>][#<field>]", Map.of("field", "secret_ref"));
                }
                if (scopeError(backend, Optional.of(tenant), ref).isPresent()) {
                    String prefix = cloudSmPrefix(tenant);
                    throw CredentialErrors.SECRET_REF_OUTSIDE_TENANT_SCOPE.error("secret_ref '" + ref
                            + "' is outside this tenant's scope: a cloudsm secret name must start with " + prefix,
                            Map.of("expected_secret_ref", "cloudsm:<project-id>/" + prefix
                                    + targetName.replaceAll("[^A-Za-z0-9_-]", "-"), "field", "secret_ref"));
                }
                yield ref;
            }
        };
    }

    /**
     * A platform-owned secret_ref (a global doc collection's): kv under {@code platform/}, cloudsm names
     * starting {@code platform-}.
     */
    public static String forPlatform(Backend backend, String ref) {
        if (!(backend == Backend.KV ? KV_REF_SHAPE.matcher(ref).matches() : CLOUDSM.matcher(ref).matches())
                || scopeError(backend, Optional.empty(), ref).isPresent()) {
            throw CommonErrors.INVALID_SECRET_REF.error("a platform secret_ref must be "
                    + (backend == Backend.KV ? "a kv path under " + PLATFORM_KV : "a cloudsm ref whose secret name starts "
                    + PLATFORM_CLOUDSM) + ", got '" + ref + "'", Map.of("field", "secret_ref"));
        }
        return ref;
    }

    /**
     * A fresh tenant-owned secret_ref for a secret a connector obtained during a call (a certificate's
     * private key): kv {@code tenants/<tenant-id>/issued/<uuid>}; cloudsm a secret named
     * {@code t-<tenant-id>-issued-<uuid>} in the project of {@code siblingRef} (the target's own ref).
     */
    public static String issued(Backend backend, UUID tenant, String siblingRef) {
        String id = UUID.randomUUID().toString();
        return switch (backend) {
            case KV -> "tenants/" + tenant + "/issued/" + id;
            case CLOUDSM -> {
                var m = CLOUDSM.matcher(siblingRef == null ? "" : siblingRef);
                if (!m.matches()) {
                    throw CommonErrors.INVALID_SECRET_REF.error("no cloudsm project to stage an issued secret in: "
                            + "the target's secret_ref is not a cloudsm ref", Map.of("field", "secret_ref"));
                }
                yield "cloudsm:" + m.group(1) + "/" + cloudSmPrefix(tenant) + "issued-" + id;
            }
        };
    }

    /** The cloudsm secret-name prefix every secret of {@code tenant} carries. */
    public static String cloudSmPrefix(UUID tenant) {
        return "t-" + tenant + "-";
    }

    /**
     * Whether {@code ref} belongs to {@code owner} (a tenant, or empty for the platform).
     *
     * @return the reason it does not, or empty when it does
     */
    public static Optional<String> scopeError(Backend backend, Optional<UUID> owner, String ref) {
        String who = owner.map(t -> "tenant " + t).orElse("the platform");
        boolean inScope = switch (backend) {
            case KV -> {
                String prefix = owner.map(t -> "tenants/" + t + "/").orElse(PLATFORM_KV);
                String r = ref.startsWith("/") ? ref.substring(1) : ref;
                yield r.startsWith(prefix) && r.length() > prefix.length() && !r.contains("/../")
                        && !r.endsWith("/..") && !r.contains("//");
            }
            case CLOUDSM -> {
                var m = CLOUDSM.matcher(ref);
                yield m.matches() && m.group(2).startsWith(owner.map(SecretRefs::cloudSmPrefix).orElse(PLATFORM_CLOUDSM));
            }
        };
        return inScope ? Optional.empty() : Optional.of("secret_ref '" + ref + "' does not belong to " + who);
    }

    private static final Pattern KV_REF_SHAPE = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

    private static String checkedKv(UUID tenant, String targetName, String ref) {
        String prefix = "tenants/" + tenant + "/";
        String expected = defaultKvRef(tenant, targetName);
        if (!ref.startsWith(prefix) || ref.length() == prefix.length()) {
            throw CredentialErrors.SECRET_REF_OUTSIDE_TENANT_SCOPE.error("secret_ref '" + ref
                    + "' is outside this tenant's scope: a kv secret_ref must lie under " + prefix,
                    Map.of("expected_secret_ref", expected, "field", "secret_ref"));
        }
        for (String segment : ref.substring(prefix.length()).split("/", -1)) {
            if (!KV_SEGMENT.matcher(segment).matches() || segment.equals("..") || segment.equals(".")) {
                throw CommonErrors.INVALID_SECRET_REF.error("secret_ref '" + ref + "' has an empty or invalid "
                        + "path segment", Map.of("expected_secret_ref", expected, "field", "secret_ref"));
            }
        }
        return ref;
    }

    /**
     * The read-time check of a kv ref: mount- or API-shaped refs ({@code secret/data/...},
     * {@code kv/data/...}, {@code data/...}) are refused.
     *
     * @return the error text, or empty when the ref is a plain logical path
     */
    public static Optional<String> kvReadError(String ref) {
        String r = ref.startsWith("/") ? ref.substring(1) : ref;
        if (r.startsWith("secret/data/") || r.startsWith("kv/data/") || r.startsWith("data/")) {
            return Optional.of("KvCredentialsReadError (ref embeds mount or data/): '" + ref + "' must be the logical "
                    + "path relative to the mount, such as tenants/<tenant-id>/<target-name>");
        }
        return Optional.empty();
    }
}
