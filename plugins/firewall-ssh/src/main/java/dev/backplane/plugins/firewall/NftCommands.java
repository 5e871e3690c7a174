package dev.backplane.plugins.firewall;

import dev.backplane.plugins.ssh.SshCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The commands this connector runs on an nftables host: {@code nft} (on the login user's PATH) and
 * {@code printenv SSH_CONNECTION} for the lock-out check. A change is a script on standard input,
 * checked first with {@code nft -c -f -} and then applied with {@code nft -f -}, which nft runs as one
 * transaction: all of it or none.
 */
final class NftCommands {

    static final Set<String> PROGRAMS = Set.of("nft", "printenv");

    private NftCommands() {
    }

    static SshCommand version() {
        return new SshCommand("nft", List.of("-v"));
    }

    static SshCommand sshConnection() {
        return new SshCommand("printenv", List.of("SSH_CONNECTION"));
    }

    /** {@code nft -j list <words>}: JSON listing. */
    static SshCommand listJson(String... words) {
        List<String> args = new ArrayList<>(List.of("-j", "list"));
        args.addAll(List.of(words));
        return new SshCommand("nft", args);
    }

    /** {@code nft -a list chain <family> <table> <chain>}: the rules as text with their handles. */
    static SshCommand listChain(String family, String table, String chain) {
        return new SshCommand("nft", List.of("-a", "list", "chain", family, table, chain));
    }

    /** {@code nft -a list table <family> <table>}: the table's sets, chains and rules as text. */
    static SshCommand listTable(String family, String table) {
        return new SshCommand("nft", List.of("-a", "list", "table", family, table));
    }

    static SshCommand check(List<String> script) {
        return new SshCommand("nft", List.of("-c", "-f", "-"), Optional.of(String.join("\n", script) + "\n"));
    }

    /** Applies the script atomically, echoing what it added with handles. */
    static SshCommand apply(List<String> script) {
        return new SshCommand("nft", List.of("-e", "-a", "-f", "-"), Optional.of(String.join("\n", script) + "\n"));
    }
}
