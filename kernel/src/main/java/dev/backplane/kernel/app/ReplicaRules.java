package dev.backplane.kernel.app;

import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.plugins.PluginLoading;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * What running as one of N replicas of one database asks of a kernel's local state
 * (docs/guide/replicas.md): an external database ({@code db.url}) is what replicas share, so a
 * secret store in this process's own files would split state silently and is refused unless the
 * deploy says it runs one replica; the plugin directory must hold the same jars on every replica
 * (its digest is logged at start, for operators to compare); a kb ingest root on local disk is read
 * by whichever replica takes the request.
 */
final class ReplicaRules {

    private static final System.Logger LOG = System.getLogger(ReplicaRules.class.getName());

    private ReplicaRules() {
    }

    /** With an external database, secrets in the file store only with the single-replica allowance. */
    static void requireSharedSecretStore(KernelConfig config) {
        boolean external = config.optional(Setting.DB_URL).isPresent();
        boolean fileStore = SecretRefs.Backend.parse(config.get(Setting.CREDENTIALS_BACKEND)) == SecretRefs.Backend.KV
                && config.optional(Setting.VAULT_ADDR).isEmpty();
        if (!external || !fileStore) {
            return;
        }
        if (config.boolValue(Setting.CREDENTIALS_FILE_SINGLE_REPLICA)) {
            LOG.log(Level.WARNING, "secrets are kept in files under " + Path.of(config.get(Setting.DATA_DIR)).resolve("kv")
                    + " although the database is external (" + Setting.CREDENTIALS_FILE_SINGLE_REPLICA.envVar()
                    + "=true): run exactly one replica of this deploy");
            return;
        }
        throw new KernelConfig.ConfigException("the database is external (" + Setting.DB_URL.envVar() + "), so replicas "
                + "may share it, but secrets would be kept in this process's own files (the kv backend's file store under "
                + Path.of(config.get(Setting.DATA_DIR)).resolve("kv") + ", used because " + Setting.VAULT_ADDR.envVar()
                + " is empty): another replica would not see them. Set " + Setting.VAULT_ADDR.envVar() + " (with "
                + Setting.VAULT_TOKEN.envVar() + ", or " + Setting.VAULT_ROLE_ID.envVar() + " and "
                + Setting.VAULT_SECRET_ID.envVar() + ", or " + Setting.VAULT_AUTH_METHOD.envVar()
                + "=kubernetes and " + Setting.VAULT_KUBERNETES_ROLE.envVar() + ") for Vault KV v2, or " + Setting.CREDENTIALS_BACKEND.envVar()
                + "=cloudsm for Google Secret Manager, or, for a deploy that runs exactly one replica, "
                + Setting.CREDENTIALS_FILE_SINGLE_REPLICA.envVar() + "=true");
    }

    /**
     * Logs the digest of the plugin set (every jar's name and SHA-256, and SHA256SUMS): replicas that
     * log different digests load different connectors, and a call's answer would depend on the replica.
     */
    static void logPluginSet(Path pluginDir, PluginLoading.Result plugins) {
        if (!Files.isDirectory(pluginDir)) {
            return;
        }
        Map<String, String> files = new TreeMap<>(plugins.digests());
        Path sums = pluginDir.resolve(PluginLoading.SUMS);
        try {
            if (Files.isRegularFile(sums)) {
                files.put(PluginLoading.SUMS, PluginLoading.sha256(sums));
            }
            MessageDigest set = MessageDigest.getInstance("SHA-256");
            files.forEach((name, digest) -> set.update((name + "  " + digest + "\n").getBytes(StandardCharsets.UTF_8)));
            LOG.log(Level.INFO, "plugin set sha256:" + HexFormat.of().formatHex(set.digest()) + " (" + files.size()
                    + " file(s) in " + pluginDir.toAbsolutePath() + "); every replica must log the same");
        } catch (RuntimeException | NoSuchAlgorithmException e) {
            LOG.log(Level.WARNING, "cannot compute the plugin set's digest: " + e.getMessage());
        }
    }

    /** A kb ingest root next to an external database: say that it is read on the replica a request lands on. */
    static void noteKbIngestRoot(KernelConfig config) {
        String root = config.get(Setting.KB_INGEST_ROOT).trim();
        if (config.optional(Setting.DB_URL).isEmpty() || root.equalsIgnoreCase("off")) {
            return;
        }
        Path path = root.isEmpty() ? Path.of(config.get(Setting.DATA_DIR)).resolve("kb-import") : Path.of(root);
        LOG.log(Level.INFO, "kb ingest reads " + path.toAbsolutePath() + " on the replica that takes the request: "
                + "with several replicas mount the same shared volume there on each, or set "
                + Setting.KB_INGEST_ROOT.envVar() + "=off");
    }
}
