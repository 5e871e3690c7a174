package dev.backplane.ingest;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An ingested operation's safety, approval and class, and the reason for them in one line, which {@code svc connector
 * review} shows next to the operation so that an admin can check the heuristic and correct it ({@code edit-op
 * --op-class --safety}, or a rules file at ingest). The HTTP method decides, then the operation's name (its
 * operationId, or the name derived from method and path) and its literal path segments:
 * <ul>
 *   <li>GET, HEAD and OPTIONS read: safe, no approval.</li>
 *   <li>DELETE writes: dangerous, approval.</li>
 *   <li>A POST that only reads — a word of its name or of its last literal path segment is a read action ({@code
 *       search}, {@code query}, {@code lookup}, {@code plan}, {@code validate}, {@code lint}, {@code dry run},
 *       {@code preview}, {@code diff}, {@code render}, {@code parse}, {@code ping}, {@code get}, {@code list} ...)
 *       and no word of its name or path is a write, login or one-time-code word ({@code create}, {@code run},
 *       {@code sync}, {@code login}, {@code mfa}, {@code otp}, {@code code} ...) — reads: safe, no approval. Nomad's
 *       {@code PostJobPlan} and {@code GetSearch}, Argo CD's {@code RepositoryService_ValidateAccess}, Harbor's
 *       {@code pingRegistry}.</li>
 *   <li>Any other POST, PUT or PATCH writes: caution, approval; dangerous when its name or last literal path segment
 *       says it removes things in bulk or for good ({@code POST /images/prune}, {@code POST /node/{id}/purge},
 *       {@code destroy_with_resources}).</li>
 *   <li>A read that hands out secret material ({@link CredentialReads}) is a {@code credential_read}: safe,
 *       approval, never enabled by {@code enable-reads}.</li>
 * </ul>
 * Unsure is a write: a POST with one write word among read words is a write, and a word's meaning is never guessed
 * from the description.
 *
 * @param level how much harm it can do
 * @param requiresApproval whether a call parks for approval by default
 * @param opClass read, write or credential_read
 * @param reason why, in one line ("POST whose name says it only reads: 'plan'")
 */
record Classification(SafetyLevel level, boolean requiresApproval, OpClass opClass, String reason) {

    private static final Set<String> DESTRUCTIVE_WORDS = Set.of("prune", "purge", "destroy", "delete", "remove",
            "wipe", "erase", "truncate", "drop");
    /** Words that say a POST only reads. */
    private static final Set<String> READ_WORDS = Set.of("search", "query", "queries", "find", "lookup", "look",
            "get", "list", "read", "fetch", "show", "describe", "inspect", "plan", "validate", "validation", "lint",
            "dryrun", "preview", "diff", "render", "explain", "estimate", "parse", "ping", "count", "analyze",
            "analyse", "analytics", "compare");
    /**
     * Words that make a POST a write even among read words: it changes, runs, signs in, or spends a one-time code.
     * {@code run} is one unless it follows {@code dry}.
     */
    private static final Set<String> WRITE_WORDS = Set.of("create", "add", "new", "update", "set", "put", "write",
            "patch", "edit", "modify", "save", "delete", "remove", "destroy", "prune", "purge", "wipe", "erase",
            "truncate", "drop", "start", "stop", "restart", "reboot", "kill", "run", "exec", "execute", "apply", "sync",
            "rollback", "revert", "import", "upload", "load", "push", "pull", "tag", "deploy", "promote", "dispatch",
            "force", "scale", "drain", "enable", "disable", "reset", "rotate", "revoke", "grant", "generate", "issue",
            "sign", "login", "logon", "signin", "logout", "auth", "authenticate", "mfa", "otp", "totp", "code",
            "session", "unseal", "seal", "unwrap", "wrap", "bootstrap", "init", "join", "leave", "register",
            "invalidate", "merge", "tidy", "trigger", "send", "notify", "test", "commit", "copy", "move", "rename",
            "attach", "detach", "lock", "unlock", "pause", "resume", "cancel", "approve", "reject", "evaluate",
            "schedule", "scan", "build", "install", "upgrade", "migrate", "restore", "backup", "snapshot",
            "checkout", "checkin", "check", "assign", "unassign", "acknowledge", "ack", "resolve", "close", "open",
            "archive", "publish", "mark", "refresh", "renew", "claim", "release", "exchange", "verify");

    static Classification credentialRead(String why) {
        return new Classification(SafetyLevel.SAFE, true, OpClass.CREDENTIAL_READ, "credential read: " + why);
    }

    /**
     * The classification when the operation hands out no secret material.
     *
     * @param method upper-case HTTP method
     * @param name the operation's name as the catalog has it (snake_case operationId, or derived)
     * @param path the path template as written in the spec
     * @param cleared whether the catalog index cleared this read of handing out secrets
     */
    static Classification of(String method, String name, String path, boolean cleared) {
        return switch (method) {
            case "GET", "HEAD", "OPTIONS" -> new Classification(SafetyLevel.SAFE, false, OpClass.READ,
                    method + (cleared ? "; the catalog index clears it of handing out secrets" : ""));
            case "DELETE" -> new Classification(SafetyLevel.DANGEROUS, true, OpClass.WRITE, "DELETE");
            default -> {
                Optional<String> destroys = destructiveWord(name, path);
                if (destroys.isPresent()) {
                    yield new Classification(SafetyLevel.DANGEROUS, true, OpClass.WRITE,
                            method + " whose name says it removes things: '" + destroys.get() + "'");
                }
                Optional<String> reads = method.equals("POST") ? readWord(name, path) : Optional.empty();
                yield reads.map(w -> new Classification(SafetyLevel.SAFE, false, OpClass.READ,
                                "POST whose name says it only reads: '" + w + "'"))
                        .orElseGet(() -> new Classification(SafetyLevel.CAUTION, true, OpClass.WRITE, method));
            }
        };
    }

    /** Whether {@link #of} would find the POST read-only (then a secret in its answer makes it a credential read). */
    static boolean readsOnly(String method, String name, String path) {
        return method.equals("POST") && destructiveWord(name, path).isEmpty() && readWord(name, path).isPresent();
    }

    private static Optional<String> destructiveWord(String name, String path) {
        return CredentialReads.words(name).stream().filter(DESTRUCTIVE_WORDS::contains).findFirst()
                .or(() -> CredentialReads.words(lastLiteral(path)).stream().filter(DESTRUCTIVE_WORDS::contains)
                        .findFirst());
    }

    /** The read word of a POST that only reads, or empty when unsure. */
    private static Optional<String> readWord(String name, String path) {
        List<String> nameWords = joinDryRun(CredentialReads.words(name));
        List<String> pathWords = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !OperationNames.isParameter(segment)) {
                pathWords.addAll(joinDryRun(CredentialReads.words(segment)));
            }
        }
        if (nameWords.stream().anyMatch(WRITE_WORDS::contains) || pathWords.stream().anyMatch(WRITE_WORDS::contains)) {
            return Optional.empty();
        }
        List<String> last = joinDryRun(CredentialReads.words(lastLiteral(path)));
        return nameWords.stream().filter(READ_WORDS::contains).findFirst()
                .or(() -> last.stream().filter(READ_WORDS::contains).findFirst());
    }

    /** {@code dry}, {@code run} → {@code dryrun}: a dry run only reads, where {@code run} alone writes. */
    private static List<String> joinDryRun(List<String> words) {
        List<String> out = new ArrayList<>(words.size());
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).equals("dry") && i + 1 < words.size() && words.get(i + 1).equals("run")) {
                out.add("dryrun");
                i++;
            } else {
                out.add(words.get(i));
            }
        }
        return out;
    }

    private static String lastLiteral(String path) {
        String last = "";
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !OperationNames.isParameter(segment)) {
                last = segment;
            }
        }
        return last;
    }
}
