package dev.backplane.plugins.firewall;

import dev.backplane.plugins.ssh.SshLab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A real nftables for tests: a network namespace of its own ({@code ip netns add}), so nothing the
 * tests do touches the machine's firewall, with a starting ruleset (table {@code inet filter}: chain
 * {@code input} policy accept with a drop rule for the set {@code blocklist}; chain {@code locked}
 * policy drop with an accept rule for the SSH port), reached through a real sshd whose ForceCommand
 * runs every command inside the namespace.
 */
final class NftLab implements AutoCloseable {

    static final String NFT = "/usr/sbin/nft";
    static final String IP = "/usr/sbin/ip";
    private final String namespace;
    private final SshLab ssh;

    private NftLab(String namespace, SshLab ssh) {
        this.namespace = namespace;
        this.ssh = ssh;
    }

    static Optional<String> unavailable() {
        return SshLab.unavailable().or(() -> List.of(NFT, IP).stream().filter(b -> !Files.isExecutable(Path.of(b)))
                .findFirst().map(b -> b + " is not installed (Debian packages nftables and iproute2; ./test installs "
                        + "them when it runs as root)"))
                .or(NftLab::cannotMakeNamespaces);
    }

    /** Network namespaces need root (CAP_SYS_ADMIN): tried once, so the tests skip instead of erroring. */
    private static Optional<String> cannotMakeNamespaces() {
        String probe = "svcfwprobe" + UUID.randomUUID().toString().substring(0, 8);
        try {
            run(null, IP, "netns", "add", probe);
            run(null, IP, "netns", "del", probe);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot create a network namespace (needs root or CAP_SYS_ADMIN): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while checking for network namespaces");
        }
    }

    static NftLab start(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String ns = "svcfw" + UUID.randomUUID().toString().substring(0, 8);
        run(null, IP, "netns", "add", ns);
        Path wrapper = dir.resolve("in-netns.sh");
        Files.writeString(wrapper, "#!/bin/sh\nexec " + IP + " netns exec " + ns + " /bin/sh -c \"$SSH_ORIGINAL_COMMAND\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        SshLab ssh;
        try {
            ssh = SshLab.start(dir.resolve("ssh"), Optional.of(wrapper.toString()));
        } catch (IOException | InterruptedException e) {
            run(null, IP, "netns", "del", ns);
            throw e;
        }
        NftLab lab = new NftLab(ns, ssh);
        try {
            lab.nft("""
                add table inet filter
                add chain inet filter input { type filter hook input priority 0; policy accept; }
                add set inet filter blocklist { type ipv4_addr; flags interval; }
                add rule inet filter input ip saddr @blocklist counter drop
                add chain inet filter locked { type filter hook forward priority 0; policy drop; }
                add rule inet filter locked tcp dport %d accept
                """.formatted(ssh.port()));
        } catch (IOException | InterruptedException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** Runs an nft script in the namespace directly (not through the connector). */
    String nft(String script) throws IOException, InterruptedException {
        return run(script, IP, "netns", "exec", namespace, NFT, "-f", "-");
    }

    /** nft's listing of a chain in the namespace, directly. */
    String listChain(String chain) throws IOException, InterruptedException {
        return run(null, IP, "netns", "exec", namespace, NFT, "-a", "list", "chain", "inet", "filter", chain);
    }

    String listSet(String set) throws IOException, InterruptedException {
        return run(null, IP, "netns", "exec", namespace, NFT, "list", "set", "inet", "filter", set);
    }

    SshLab ssh() {
        return ssh;
    }

    /** The target extras (the host key pin). */
    Map<String, Object> extras() throws IOException {
        Map<String, Object> extras = new HashMap<>();
        extras.put("ssh_host_key", ssh.hostKeyLine());
        return extras;
    }

    private static String run(String stdin, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            ssh.close();
        } finally {
            run(null, IP, "netns", "del", namespace);
        }
    }
}
