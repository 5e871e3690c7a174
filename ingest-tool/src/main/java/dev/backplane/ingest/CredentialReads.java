package dev.backplane.ingest;

import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which reads hand out secret material, so they are ingested as {@code credential_read} (never enabled by
 * {@code enable-reads}, a call parks for approval) instead of plain reads. The one place that decides it,
 * for every ingest (the kernel's catalog and manual modes, and the stand-alone ingest tool):
 * <ol>
 *   <li>a read the catalog index lists under {@code credential_reads} is one;</li>
 *   <li>a read the index clears under {@code not_credential_reads} (audited against the vendor: the
 *       heuristic's words name only metadata there) is not;</li>
 *   <li>otherwise a GET (or a POST that only reads, {@link Classification}) is one when a literal segment of its path names a secret, credential, password,
 *       token or private key ({@code /client-secret}, {@code /credentials}, {@code /cloud-tokens},
 *       {@code /ssh-keys}); when its response schema is named so ({@code PrivateKey},
 *       {@code CredentialRepresentation}); or when the returned object (or each element of a returned list,
 *       also inside one wrapper such as {@code data}, {@code items}, {@code elements}, or an object's only
 *       property such as Hetzner's {@code {"rescue": {...}}}) has a text field whose
 *       name ends in such a word ({@code secret}, {@code privateKey}, {@code http_basic_auth_password},
 *       {@code apiKey}).</li>
 * </ol>
 * The heuristic errs on the side of {@code credential_read}: a listing of token metadata under
 * {@code /tokens} parks too, until the index clears it. Boolean, numeric and object fields
 * ({@code automountServiceAccountToken}, {@code secretRef}) and names that end in a qualifier
 * ({@code secretName}, {@code tokenType}, {@code passwordPolicy}) do not count.
 */
public final class CredentialReads {

    private static final Set<String> SECRET_WORDS = Set.of("secret", "secrets", "password", "passwords", "passwd",
            "passphrase", "credential", "credentials", "cred", "creds", "token", "tokens", "kubeconfig", "kubeconfigs");
    /** Words that make a following "key" a secret key. */
    private static final Set<String> KEY_QUALIFIERS = Set.of("private", "secret", "api", "access", "signing",
            "encryption", "ssh", "master", "unseal", "recovery", "root", "unlock", "tsig");
    /**
     * A field description that says the value is secret material ("The Base64 encoded secret key"); it counts for a
     * text field with a generic value name ({@code key}, {@code data}, {@code value}), never for one named after
     * something else ({@code secretName}: "Name of the secret").
     */
    private static final java.util.regex.Pattern SECRET_VALUE_TEXT = java.util.regex.Pattern.compile(
            "\\b(secret|private|unlock|api|access|signing|encryption|master|ssh|tsig)[- ]keys?\\b|\\bpassword\\b"
                    + "|\\bkey material\\b|\\bsecret value\\b", java.util.regex.Pattern.CASE_INSENSITIVE);
    /** Words that, after a secret word, still name the secret's value ({@code secretData}, {@code privateKey}). */
    private static final Set<String> VALUE_WORDS = Set.of("key", "keys", "data", "value", "values", "material", "pem");
    /** Properties of a response that wrap the returned resources. */
    private static final Set<String> WRAPPERS = Set.of("data", "items", "elements", "content", "results", "result",
            "value", "values", "list", "entries", "records");
    private static final int MAX_DEPTH = 8;
    /** Words that make a following "token" a paging or request marker, not a credential ({@code NextToken}). */
    private static final Set<String> MARKER_QUALIFIERS = Set.of("next", "page", "paging", "pagination", "continuation",
            "continue", "cursor", "resume", "sync", "idempotency", "change", "etag");

    private final Set<String> listed;
    private final Set<String> cleared;

    /**
     * @param listed {@code METHOD /path} reads the catalog index marks as credential reads
     * @param cleared {@code METHOD /path} reads the index has audited as free of secret values
     */
    public CredentialReads(List<String> listed, List<String> cleared) {
        this.listed = Set.copyOf(listed.stream().map(String::strip).toList());
        this.cleared = Set.copyOf(cleared.stream().map(String::strip).toList());
    }

    /** The heuristic alone (manual mode, the stand-alone tool). */
    public static CredentialReads heuristic() {
        return new CredentialReads(List.of(), List.of());
    }

    /**
     * Why one operation hands out secret material, or empty when it does not.
     *
     * @param method upper-case HTTP method
     * @param path the path template as the catalog stores it
     * @param responses the schemas of the operation's 2xx responses
     * @param reads whether the operation only reads: a GET, or a POST {@link Classification} found read-only (a
     *              lookup that answers with a token is a credential read too)
     */
    Optional<String> credentialRead(String method, String path, List<Schema<?>> responses, LocalRefs refs,
                                    boolean reads) {
        String key = method + " " + path;
        if (listed.contains(key)) {
            return Optional.of("the catalog index lists it as a credential read");
        }
        if (cleared.contains(key) || !reads) {
            return Optional.empty();
        }
        Optional<String> segment = secretSegment(path);
        if (segment.isPresent()) {
            return Optional.of("path segment '" + segment.get() + "' names a secret");
        }
        for (Schema<?> response : responses) {
            String why = responseNamesSecret(response, refs, true, new HashSet<>(), 0);
            if (why != null) {
                return Optional.of(why);
            }
        }
        return Optional.empty();
    }

    /** Whether the catalog index has audited {@code METHOD /path} as free of secret values. */
    boolean isCleared(String method, String path) {
        return cleared.contains(method + " " + path);
    }

    /** The listed and cleared reads the spec has no operation for (the index is stale): one warning each. */
    List<String> unmatched(Set<String> operations) {
        List<String> warnings = new ArrayList<>();
        listed.stream().filter(k -> !operations.contains(k)).sorted().forEach(k -> warnings.add(
                "the catalog index marks '" + k + "' as a credential read, which the spec does not have"));
        cleared.stream().filter(k -> !operations.contains(k)).sorted().forEach(k -> warnings.add(
                "the catalog index clears '" + k + "' as not a credential read, which the spec does not have"));
        return warnings;
    }

    /** Whether a literal segment of the path names a secret ({@code {placeholders}} do not count). */
    static boolean pathNamesSecret(String path) {
        return secretSegment(path).isPresent();
    }

    /** The first literal segment of the path that names a secret. */
    private static Optional<String> secretSegment(String path) {
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !segment.startsWith("{") && namesSecret(words(segment))) {
                return Optional.of(segment);
            }
        }
        return Optional.empty();
    }

    /** A name any of whose words is a secret word, or a qualified key ({@code private-key}, {@code ssh-keys}). */
    static boolean namesSecret(List<String> words) {
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (SECRET_WORDS.contains(w) || isQualifiedKeyWord(w)) {
                return true;
            }
            if (i + 1 < words.size() && KEY_QUALIFIERS.contains(w) && words.get(i + 1).startsWith("key")) {
                return true;
            }
        }
        return false;
    }

    /** A field name that ends in a secret's value: {@code password}, {@code client_secret}, {@code privateKey}. */
    static boolean fieldNamesSecret(String name) {
        List<String> w = words(name);
        if (w.isEmpty()) {
            return false;
        }
        String last = w.getLast();
        if ((last.equals("token") || last.equals("tokens")) && w.size() >= 2
                && MARKER_QUALIFIERS.contains(w.get(w.size() - 2))) {
            return false; // NextToken, page_token: where the next page starts
        }
        if (SECRET_WORDS.contains(last) || isQualifiedKeyWord(last)) {
            return true;
        }
        if (w.size() < 2 || !VALUE_WORDS.contains(last)) {
            return false;
        }
        String before = w.get(w.size() - 2);
        return SECRET_WORDS.contains(before) || KEY_QUALIFIERS.contains(before);
    }

    /** One word made of a key qualifier and "key": {@code privatekey}, {@code unlockkey}, {@code tsigkeys}. */
    private static boolean isQualifiedKeyWord(String word) {
        String stem = word.endsWith("keys") ? word.substring(0, word.length() - 4)
                : word.endsWith("key") ? word.substring(0, word.length() - 3) : null;
        return stem != null && KEY_QUALIFIERS.contains(stem);
    }

    /** A text field with a generic value name whose description says it holds secret material. */
    private static boolean describedAsSecret(String name, Schema<?> field, LocalRefs refs) {
        List<String> w = words(name);
        if (w.isEmpty() || !VALUE_WORDS.contains(w.getLast())) {
            return false;
        }
        Schema<?> resolved = refs.schema(field);
        for (String text : java.util.Arrays.asList(field.getDescription(), resolved == null ? null : resolved.getDescription())) {
            if (text != null && SECRET_VALUE_TEXT.matcher(text).find()) {
                return true;
            }
        }
        return false;
    }

    /** Why the response (or a wrapped element of it) carries secret material, or null when it does not. */
    @SuppressWarnings("rawtypes")
    private static String responseNamesSecret(Schema<?> schema, LocalRefs refs, boolean wrapper, Set<String> seen,
                                              int depth) {
        if (schema == null || depth > MAX_DEPTH) {
            return null;
        }
        String ref = SchemaShapes.refName(schema);
        if (ref != null) {
            if (namesSecret(words(ref))) {
                return "response schema '" + ref + "' names a secret";
            }
            return seen.add(ref) ? responseNamesSecret(refs.schema(schema), refs, wrapper, seen, depth + 1) : null;
        }
        if (schema.getItems() != null) {
            String why = responseNamesSecret(schema.getItems(), refs, wrapper, seen, depth + 1);
            if (why != null) {
                return why;
            }
        }
        for (List<Schema> parts : java.util.Arrays.asList(schema.getAllOf(), schema.getOneOf(), schema.getAnyOf())) {
            for (Schema part : parts == null ? List.<Schema>of() : parts) {
                String why = responseNamesSecret(part, refs, wrapper, seen, depth + 1);
                if (why != null) {
                    return why;
                }
            }
        }
        Map<String, Schema> properties = schema.getProperties();
        if (properties == null) {
            return null;
        }
        for (Map.Entry<String, Schema> p : properties.entrySet()) {
            if (fieldNamesSecret(p.getKey()) && isText(p.getValue(), refs, 0)) {
                return "response field '" + p.getKey() + "' holds secret material";
            }
            if (describedAsSecret(p.getKey(), p.getValue(), refs) && isText(p.getValue(), refs, 0)) {
                return "response field '" + p.getKey() + "' is described as secret material";
            }
        }
        if (wrapper) {
            for (Map.Entry<String, Schema> p : properties.entrySet()) {
                if (properties.size() == 1 || WRAPPERS.contains(p.getKey().toLowerCase(Locale.ROOT))) {
                    String why = responseNamesSecret(p.getValue(), refs, false, seen, depth + 1);
                    if (why != null) {
                        return why;
                    }
                }
            }
        }
        return null;
    }

    /** A string, a list of strings, or a schema that says nothing of its type (it may be a string). */
    private static boolean isText(Schema<?> schema, LocalRefs refs, int depth) {
        Schema<?> s = refs.schema(schema);
        if (s == null || depth > MAX_DEPTH) {
            return false;
        }
        Set<String> types = new HashSet<>();
        if (s.getType() != null) {
            types.add(s.getType());
        }
        if (s.getTypes() != null) {
            types.addAll(s.getTypes());
        }
        types.remove("null");
        if (types.contains("string")) {
            return true;
        }
        if (SchemaShapes.isArray(s)) {
            return s.getItems() != null && isText(s.getItems(), refs, depth + 1);
        }
        return types.isEmpty() && s.getProperties() == null && s.getItems() == null && s.getAllOf() == null
                && s.getOneOf() == null && s.getAnyOf() == null && s.getAdditionalProperties() == null;
    }

    /** The lower-case words of a name: split at case changes and at anything but letters and digits. */
    static List<String> words(String name) {
        String spaced = name.replaceAll("([a-z0-9])([A-Z])", "$1 $2");
        List<String> out = new ArrayList<>();
        for (String w : spaced.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
