package dev.backplane.kernel.catalog;

import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The words operation search knows beyond the catalog's own: a small, general table of infrastructure synonyms (an
 * operator's word and a vendor's: record / RRset, reboot / restart, remove / delete, add / create, show / get...),
 * the action verbs an operation can perform (from its name, the opening of its description and its HTTP method) and
 * the query's (so "reboot a droplet" prefers the reboot action over destroy), and which operations destroy. Nothing
 * here names a product or an operation.
 */
final class OperationWords {

    private OperationWords() {
    }

    /**
     * Action verbs by canonical action: a word in a group stands for every canonical action of the groups it is in
     * ({@code suspend} is a pause and an update). The first word of a group is its canonical action.
     */
    private static final List<List<String>> VERB_GROUPS = List.of(
            List.of("read", "get", "list", "show", "read", "inspect", "describe", "view", "display", "fetch",
                    "retrieve", "watch", "return", "returns"),
            List.of("search", "search", "find", "query", "lookup", "look", "locate"),
            List.of("create", "create", "add", "new", "make", "post", "register", "provision", "insert", "submit",
                    "generate", "issue", "import", "upload", "write", "grant"),
            // "add" and "grant" also update: adding a record to a zone or a user to a group changes the container
            List.of("update", "update", "change", "modify", "modifie", "edit", "set", "patch", "put", "replace",
                    "configure", "alter", "rename", "tune", "label", "annotate", "suspend", "cordon", "mark",
                    "enable", "disable", "assign", "grant", "add", "write"),
            List.of("delete", "delete", "remove", "destroy", "purge", "prune", "drop", "erase", "wipe", "rm",
                    "uninstall", "unregister", "deregister", "clean", "cleanup", "clear", "flush"),
            List.of("restart", "restart", "reboot", "bounce", "recycle", "cycle", "reload"),
            List.of("start", "start", "launch", "boot", "resume", "unpause"),
            List.of("stop", "stop", "halt", "shutdown", "terminate", "cancel", "abort", "kill"),
            List.of("pause", "pause", "suspend", "freeze"),
            List.of("scale", "scale", "resize"),
            List.of("rollback", "rollback", "revert", "undo"),
            List.of("restore", "restore", "undelete", "recover", "undo"),
            List.of("notify", "notify", "tell", "announce"),
            List.of("export", "export", "dump", "download"),
            List.of("renew", "renew", "extend", "refresh"),
            List.of("rotate", "rotate", "regenerate", "refresh", "roll"),
            List.of("validate", "validate", "verify", "lint", "check", "test", "ping"),
            List.of("plan", "plan", "preview", "diff", "dry"),
            List.of("sync", "sync", "synchronize", "reconcile"),
            List.of("deploy", "deploy", "release", "rollout", "redeploy"),
            List.of("exec", "exec", "execute"),
            List.of("drain", "drain", "evacuate"),
            List.of("promote", "promote"),
            List.of("evict", "evict"),
            List.of("revoke", "revoke", "invalidate"),
            List.of("unseal", "unseal"),
            List.of("seal", "seal"),
            List.of("unlock", "unlock"),
            List.of("lock", "lock"),
            List.of("encrypt", "encrypt"),
            List.of("decrypt", "decrypt"),
            List.of("sign", "sign"),
            List.of("logout", "logout"),
            List.of("login", "login", "authenticate"),
            List.of("scan", "scan"),
            List.of("tag", "tag"),
            List.of("copy", "copy", "clone", "duplicate"),
            List.of("move", "move", "migrate", "transfer"),
            List.of("attach", "attach", "connect"),
            List.of("detach", "detach", "disconnect"),
            List.of("replicate", "replicate", "replication", "mirror"));

    /** Words of a query that ask to destroy something: a destructive operation may then come first. */
    private static final Set<String> DESTROY = Set.of("delete", "remove", "destroy", "purge", "prune", "drop",
            "erase", "wipe", "rm", "uninstall", "unregister", "deregister", "clean", "cleanup", "clear", "flush",
            "evict", "kill", "revoke", "terminate", "detach", "forget", "reset");

    /** Words in an operation's name that say it destroys (beside an HTTP DELETE and safety dangerous). */
    private static final Set<String> DESTRUCTIVE_NAME = Set.of("delete", "remove", "destroy", "purge", "prune",
            "drop", "erase", "wipe", "uninstall", "unregister", "deregister");

    /**
     * Infrastructure synonyms, both ways: each group's words stand for each other (with less weight than the word
     * itself). Vendors' words beside operators' ({@code rrset} for a DNS record, {@code artifact} for an image,
     * {@code kv} for a key-value store).
     */
    private static final List<List<String>> SYNONYM_GROUPS = List.of(
            List.of("record", "rrset", "rr", "entry"),
            List.of("reboot", "restart", "powercycle", "bounce"),
            List.of("remove", "delete", "destroy", "rm"),
            List.of("create", "add", "new", "post", "make", "provision"),
            List.of("show", "get", "read", "inspect", "describe", "view", "list", "display"),
            List.of("change", "update", "modify", "edit", "patch", "set"),
            List.of("find", "search", "lookup", "query", "locate"),
            List.of("stop", "terminate", "cancel", "abort", "halt"),
            List.of("dry", "plan", "preview"),
            List.of("tell", "notify"),
            List.of("secondary", "slave", "replica", "follower"),
            List.of("primary", "master", "leader"),
            List.of("image", "artifact"),
            List.of("user", "member", "account", "principal"),
            List.of("grant", "bind", "binding", "assign", "mapping"),
            List.of("disk", "storage", "volume", "df"),
            List.of("space", "usage", "df"),
            List.of("variable", "env", "var"),
            List.of("environment", "env"),
            List.of("kv", "keyvalue"),
            List.of("certificate", "cert", "pki", "tls", "x509"),
            List.of("credential", "creds", "secret", "password"),
            List.of("config", "configuration", "setting"),
            List.of("log", "logs", "output"),
            List.of("stats", "statistic", "metric", "usage", "counter"),
            List.of("healthy", "health", "status", "alive"),
            List.of("version", "revision", "release"),
            List.of("permission", "allowed", "access", "rbac", "acl"),
            List.of("machine", "node", "host", "server"),
            List.of("vm", "instance", "droplet", "server", "machine"),
            List.of("repository", "repo"),
            List.of("application", "app"),
            List.of("database", "db"),
            List.of("replicate", "replication"),
            List.of("run", "execute", "exec", "trigger"),
            List.of("rollback", "revert"),
            List.of("freeze", "pause", "suspend"),
            List.of("unfreeze", "unpause", "resume"),
            List.of("reboot", "restart"),
            List.of("token", "jwt"),
            List.of("key", "keypair"));

    /** Phrases read as one word before the words are split. */
    private static final Map<String, String> PHRASES = Map.ofEntries(
            Map.entry("environment variable", "env"),
            Map.entry("disk space", "df"),
            Map.entry("power cycle", "powercycle"),
            Map.entry("key value", "kv"),
            Map.entry("key-value", "kv"),
            Map.entry("dry run", "dry"),
            Map.entry("dry-run", "dry"),
            Map.entry("roll back", "rollback"),
            Map.entry("log out", "logout"),
            Map.entry("log in", "login"),
            Map.entry("sign in", "login"),
            Map.entry("clean up", "cleanup"));

    private static final Map<String, Set<String>> VERBS = new HashMap<>();
    private static final Map<String, Set<String>> SYNONYMS = new HashMap<>();

    private static final Set<String> DESTROY_WORDS = new HashSet<>();
    private static final Set<String> DESTRUCTIVE_NAME_WORDS = new HashSet<>();

    static {
        // the tables are written as words; queries and operations are matched as tokens (a plural's 's' dropped)
        for (List<String> g : VERB_GROUPS) {
            for (String w : g.subList(1, g.size())) {
                VERBS.computeIfAbsent(token(w), k -> new HashSet<>()).add(g.getFirst());
            }
        }
        for (List<String> g : SYNONYM_GROUPS) {
            for (String w : g) {
                Set<String> s = SYNONYMS.computeIfAbsent(token(w), k -> new LinkedHashSet<>());
                g.stream().filter(o -> !o.equals(w)).map(OperationWords::token).forEach(s::add);
            }
        }
        DESTROY.forEach(w -> DESTROY_WORDS.add(token(w)));
        DESTRUCTIVE_NAME.forEach(w -> DESTRUCTIVE_NAME_WORDS.add(token(w)));
    }

    private static String token(String word) {
        List<String> t = OperationSearch.tokens(word);
        return t.isEmpty() ? word : t.getFirst();
    }

    /** The query with its known phrases joined into one word. */
    static String phrases(String query) {
        String q = query.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, String> p : PHRASES.entrySet()) {
            if (q.contains(p.getKey())) {
                q = q.replace(p.getKey(), p.getValue());
            }
        }
        return q;
    }

    /** A word's synonyms (none for most words). */
    static Set<String> synonyms(String word) {
        return SYNONYMS.getOrDefault(word, Set.of());
    }

    /**
     * A word's stem for matching inflections of one another ({@code replicate} / {@code replication}, {@code
     * configure} / {@code configuration}, {@code deploy} / {@code deployment}): the longest known suffix cut while at
     * least four letters stay; the word itself when none can be.
     */
    static String stem(String word) {
        for (String suffix : SUFFIXES) {
            if (word.length() - suffix.length() >= 4 && word.endsWith(suffix)
                    // a y after a vowel is part of the word (deploy, relay), after a consonant an ending (policy)
                    && !(suffix.equals("y") && "aeiou".indexOf(word.charAt(word.length() - 2)) >= 0)) {
                return word.substring(0, word.length() - suffix.length());
            }
        }
        return word;
    }

    private static final List<String> SUFFIXES = List.of("ations", "ation", "ments", "ment", "ions", "ing", "ion",
            "ate", "ied", "ies", "ed", "er", "or", "es", "e", "y");

    /**
     * What a query asks for: its verbs (with their synonyms), their actions (canonical verbs), and whether it asks to
     * destroy something.
     */
    record Intent(Set<String> verbs, Set<String> actions, boolean destroys) {

        /** Whether an operation's action is one the query names: 2 by the very verb (or a synonym), 1 by its kind. */
        int matches(Action op) {
            for (String v : verbs) {
                if (op.verbs().contains(v)) {
                    return 2;
                }
            }
            for (String a : actions) {
                if (op.actions().contains(a)) {
                    return 1;
                }
            }
            return 0;
        }
    }

    /** What an operation does: its verbs, their actions (canonical verbs), and whether it destroys. */
    record Action(Set<String> verbs, Set<String> actions, boolean destructive) {
    }

    /** The intent of a query's words. */
    static Intent intent(List<String> words) {
        Set<String> verbs = new HashSet<>();
        Set<String> actions = new HashSet<>();
        boolean destroys = false;
        for (String w : words) {
            Set<String> a = VERBS.get(w);
            if (a != null) {
                verbs.add(w);
                SYNONYMS.getOrDefault(w, Set.of()).stream().filter(VERBS::containsKey).forEach(verbs::add);
                actions.addAll(a);
            }
            destroys |= DESTROY_WORDS.contains(w);
        }
        return new Intent(verbs, actions, destroys);
    }

    /**
     * The actions an operation performs: the verbs of its name (the last part of its op id), of the first words of
     * its description, and its HTTP method's (a GET reads, a POST creates, a PUT or PATCH updates, a DELETE deletes).
     */
    static Action action(OperationDescriptor op) {
        Set<String> verbs = new HashSet<>();
        String name = op.opId().substring(op.opId().lastIndexOf('.') + 1);
        List<String> description = OperationSearch.tokens(op.description());
        List<String> words = new ArrayList<>(OperationSearch.tokens(name));
        words.addAll(description.subList(0, Math.min(4, description.size())));
        Set<String> actions = new HashSet<>();
        for (String w : words) {
            Set<String> a = VERBS.get(w);
            if (a != null) {
                verbs.add(w);
                actions.addAll(a);
            }
        }
        if (op.shape() instanceof OperationShape.Http http) {
            switch (http.method()) {
                case "GET", "HEAD" -> actions.add("read");
                case "POST" -> actions.add("create");
                case "PUT", "PATCH" -> actions.add("update");
                case "DELETE" -> actions.add("delete");
                default -> {
                }
            }
        }
        return new Action(verbs, actions, destructive(op));
    }

    /** Whether an operation destroys: an HTTP DELETE, safety dangerous, or a destroying word in its name. */
    private static boolean destructive(OperationDescriptor op) {
        if (op.safetyLevel() == SafetyLevel.DANGEROUS
                || op.shape() instanceof OperationShape.Http http && http.method().equals("DELETE")) {
            return true;
        }
        String name = op.opId().substring(op.opId().lastIndexOf('.') + 1);
        for (String w : OperationSearch.tokens(name)) {
            if (DESTRUCTIVE_NAME_WORDS.contains(w)) {
                return true;
            }
        }
        return false;
    }
}
