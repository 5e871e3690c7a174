package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.core.CoreModuleProperties;

/**
 * Authenticated SSH sessions, reused per target address, pinned host key, credential and SSRF guard
 * (one pool per plugin class loader). The guard is the lent socket factory — one per kernel, its
 * allowlist fixed at start — so a pooled session never outlives the guard that admitted it. A session
 * idle for longer than {@link #IDLE} is closed instead of reused.
 *
 * <p>Connecting: the host is resolved and checked by the kernel's SSRF guard through the lent
 * socket factory (a guarded connect), and the SSH client then dials exactly the address the guard
 * checked — a DNS answer that changes in between cannot redirect it. The client reads no
 * {@code ~/.ssh} configuration, keys or known_hosts of the kernel's user: the only identity it offers
 * is the target's credential and the only host key it accepts is the target's pin.
 */
public final class SshSessions {

    /** Sessions idle for longer than this are closed instead of reused. */
    static final Duration IDLE = Duration.ofSeconds(120);
    private static final AttributeRepository.AttributeKey<HostKeyCheck> CHECK = new AttributeRepository.AttributeKey<>();
    private static final SshClient CLIENT = startClient();
    private static final Map<String, Pooled> POOL = new ConcurrentHashMap<>();
    private static final Map<String, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private SshSessions() {
    }

    private record Pooled(ClientSession session, long lastUsedNanos) {
    }

    /** What the host-key verifier saw, kept so a failed key exchange can be reported as a mismatch. */
    private static final class HostKeyCheck {
        final java.util.Optional<HostKeyPin> pin;
        volatile String presented;
        volatile boolean refused;

        HostKeyCheck(java.util.Optional<HostKeyPin> pin) {
            this.pin = pin;
        }
    }

    private static SshClient startClient() {
        SshClient client = SshClient.setUpDefaultClient();
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        client.setFilePasswordProvider(FilePasswordProvider.EMPTY);
        client.setServerKeyVerifier((session, address, key) -> {
            HostKeyCheck check = session.getConnectionContext() == null ? null
                    : session.getConnectionContext().getAttribute(CHECK);
            if (check == null) {
                return false;
            }
            check.presented = HostKeyPin.fingerprintOf(key);
            boolean ok = check.pin.isPresent() && check.pin.get().matches(key);
            check.refused = !ok;
            return ok;
        });
        CoreModuleProperties.IDLE_TIMEOUT.set(client, IDLE.multipliedBy(2));
        client.start();
        return client;
    }

    /**
     * An authenticated session to the target, from the pool or new.
     *
     * @throws ConnectorException {@code connector_host_key_mismatch}, {@code connector_auth_failed},
     *     {@code connector_unreachable} (including an SSRF refusal), {@code connector_timeout} or
     *     {@code connector_error}
     */
    public static ClientSession acquire(ConnectorContext context, TargetSpec target, SshCredential credential,
                                        SshSettings settings) {
        String key = target.host() + "|" + target.port() + "|" + settings.pin().map(HostKeyPin::fingerprint).orElse("")
                + "|" + credential.digest() + "|" + System.identityHashCode(context.socketFactory());
        prune();
        ReentrantLock lock = LOCKS.computeIfAbsent(key, k -> new ReentrantLock());
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was cancelled or timed out while "
                    + "waiting for the SSH session to " + target.host() + ":" + target.port());
        }
        try {
            Pooled pooled = POOL.get(key);
            long now = System.nanoTime();
            if (pooled != null && pooled.session().isOpen() && pooled.session().isAuthenticated()
                    && now - pooled.lastUsedNanos() < IDLE.toNanos()) {
                POOL.put(key, new Pooled(pooled.session(), now));
                return pooled.session();
            }
            if (pooled != null) {
                closeQuietly(pooled.session());
            }
            ClientSession session = connect(context, target, credential, settings);
            POOL.put(key, new Pooled(session, now));
            return session;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The channels one session may have open at once from this pool: below OpenSSH's default
     * {@code MaxSessions} (10), so a burst of calls waits here instead of being refused by the server.
     */
    static final int MAX_CHANNELS = 8;
    private static final Map<ClientSession, java.util.concurrent.Semaphore> CHANNELS = new ConcurrentHashMap<>();

    /** The permits for channels on {@code session}. */
    static java.util.concurrent.Semaphore channels(ClientSession session) {
        return CHANNELS.computeIfAbsent(session, s -> new java.util.concurrent.Semaphore(MAX_CHANNELS, true));
    }

    /** Forgets closed sessions and the locks nobody holds or waits on, so the maps do not grow for ever. */
    private static void prune() {
        POOL.values().removeIf(p -> !p.session().isOpen());
        CHANNELS.keySet().removeIf(s -> !s.isOpen());
        LOCKS.entrySet().removeIf(e -> !POOL.containsKey(e.getKey()) && !e.getValue().isLocked()
                && !e.getValue().hasQueuedThreads());
    }

    /** Drops a session that failed in use, so the next call connects afresh. */
    public static void evict(ClientSession session) {
        POOL.values().removeIf(p -> p.session() == session);
        CHANNELS.remove(session);
        closeQuietly(session);
    }

    private static ClientSession connect(ConnectorContext context, TargetSpec target, SshCredential credential,
                                         SshSettings settings) {
        InetAddress address = guardedAddress(context, target);
        HostKeyCheck check = new HostKeyCheck(settings.pin());
        ClientSession session = null;
        try {
            ConnectFuture future = CLIENT.connect(credential.username(), dialAddress(address, target.port()),
                    AttributeRepository.ofKeyValuePair(CHECK, check), null);
            session = future.verify(settings.commandTimeout()).getClientSession();
            addIdentity(session, credential);
            session.auth().verify(settings.commandTimeout());
            return session;
        } catch (IOException | RuntimeException e) {
            if (session != null) {
                closeQuietly(session);
            }
            throw classify(e, check, target);
        }
    }

    /**
     * The socket address the client dials: the checked address as a bare literal. An {@link InetAddress}
     * from a name lookup keeps the name, and MINA's {@code connect(user, SocketAddress)} dials
     * {@code getHostString()} — the name — resolving it again (DNS rebinding past the SSRF guard).
     */
    static InetSocketAddress dialAddress(InetAddress checked, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(checked.getAddress()), port);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes from an InetAddress: cannot happen
        }
    }

    /** Resolves and checks the destination with the kernel's guarded socket; returns the address it allowed. */
    private static InetAddress guardedAddress(ConnectorContext context, TargetSpec target) {
        try (Socket probe = context.socketFactory().createSocket(target.host(), target.port())) {
            return probe.getInetAddress();
        } catch (IOException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot connect to " + target.host() + ":"
                    + target.port() + ": " + e.getMessage(), Map.of("exception_message", String.valueOf(e.getMessage())),
                    null);
        }
    }

    private static void addIdentity(ClientSession session, SshCredential credential) {
        if (credential.privateKey().isPresent()) {
            try {
                Iterable<KeyPair> keys = SecurityUtils.loadKeyPairIdentities(session, NamedResource.ofName("the credential's "
                                + SshCredential.PRIVATE_KEY),
                        new ByteArrayInputStream(credential.privateKey().get().getBytes(StandardCharsets.UTF_8)),
                        credential.passphrase().map(FilePasswordProvider::of).orElse(FilePasswordProvider.EMPTY));
                if (keys == null || !keys.iterator().hasNext()) {
                    throw new GeneralSecurityException("no key");
                }
                keys.forEach(session::addPublicKeyIdentity);
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the credential's " + SshCredential.PRIVATE_KEY
                        + " is not a readable OpenSSH or PEM private key (or its " + SshCredential.PASSPHRASE
                        + " is wrong)");
            }
        } else {
            session.addPasswordIdentity(credential.password().orElseThrow());
        }
    }

    private static ConnectorException classify(Exception e, HostKeyCheck check, TargetSpec target) {
        if (e instanceof ConnectorException ce) {
            return ce;
        }
        String where = target.host() + ":" + target.port();
        if (check.refused) {
            String presented = check.presented == null ? "unknown" : check.presented;
            String message = check.pin.isEmpty()
                    ? "no SSH host key is pinned for target " + target.name() + " (set extras." + HostKeyPin.EXTRA
                    + "); the server at " + where + " presented " + presented + " — verify it out of band before pinning it"
                    : "the SSH server at " + where + " presented host key " + presented + ", not the pinned "
                    + check.pin.get().fingerprint() + "; refusing to connect";
            return new ConnectorException(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH, message,
                    Map.of("presented_host_key", presented), null);
        }
        String text = String.valueOf(e.getMessage());
        if (e instanceof InterruptedIOException || text.contains("timeout") || text.contains("Timeout")) {
            return new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "SSH with " + where + " timed out",
                    Map.of("exception_message", text), null);
        }
        if (text.contains("No more authentication methods") || text.contains("authentication")
                || text.contains("Authentication")) {
            return new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, "the SSH server at " + where
                    + " rejected the credential", Map.of(), null);
        }
        return new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "SSH with " + where + " failed: " + text,
                Map.of("exception_message", text), null);
    }

    private static void closeQuietly(ClientSession session) {
        try {
            session.close(true);
        } catch (RuntimeException e) {
            // already closed
        }
    }
}
