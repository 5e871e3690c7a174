package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.ssh.SshCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The commands this connector runs on a BIND 9 host, built from the target's extras and typed
 * parameters only. The programs are a fixed allowlist; they must be on the login user's PATH.
 *
 * <ul>
 *   <li>{@code named_conf}: the server's configuration file, default {@code /etc/bind/named.conf}.</li>
 *   <li>{@code dns_server}, {@code dns_port}: where the server answers on the host itself (zone
 *       transfers for reads, dynamic updates for writes), default {@code 127.0.0.1} port 53. Reads need
 *       {@code allow-transfer} to include that address.</li>
 *   <li>{@code nsupdate_key}: the TSIG key file {@code nsupdate -k} signs updates with, default
 *       {@code /run/named/session.key} (the key of zones with {@code update-policy local}).</li>
 *   <li>{@code rndc_port}, {@code rndc_key}: when set, passed to {@code rndc} as {@code -s dns_server -p}
 *       and {@code -k}; otherwise rndc's own configuration decides.</li>
 * </ul>
 */
final class BindTarget {

    static final Set<String> PROGRAMS = Set.of("named", "named-checkconf", "dig", "nsupdate", "rndc");

    private final String namedConf;
    private final String server;
    private final int port;
    private final String nsupdateKey;
    private final Optional<Integer> rndcPort;
    private final Optional<String> rndcKey;

    BindTarget(TargetSpec target) {
        this.namedConf = path(target, "named_conf", "/etc/bind/named.conf");
        this.server = word(target, "dns_server", "127.0.0.1");
        this.port = port(target, "dns_port").orElse(53);
        this.nsupdateKey = path(target, "nsupdate_key", "/run/named/session.key");
        this.rndcPort = port(target, "rndc_port");
        this.rndcKey = Optional.ofNullable(target.extras().get("rndc_key")).map(v -> path(target, "rndc_key", null));
    }

    SshCommand version() {
        return new SshCommand("named", List.of("-v"));
    }

    SshCommand status() {
        return rndc(List.of("status"));
    }

    SshCommand zoneList() {
        return new SshCommand("named-checkconf", List.of("-l", namedConf));
    }

    SshCommand configCheck() {
        return new SshCommand("named-checkconf", List.of("-z", namedConf));
    }

    /** The zone's records by transfer from the server on the host ({@code zone} already validated). */
    SshCommand transfer(String zone) {
        return dig(List.of("+onesoa", "AXFR", zone + "."));
    }

    /** One RRset, asked of the authoritative server directly (no recursion, no cache). */
    SshCommand lookup(String fqdn, String type) {
        return dig(List.of("+norecurse", fqdn, type));
    }

    /** A dynamic update; {@code script} is the nsupdate input without its server line. */
    SshCommand update(List<String> script) {
        List<String> lines = new ArrayList<>();
        lines.add("server " + server + " " + port);
        lines.addAll(script);
        lines.add("send");
        return new SshCommand("nsupdate", List.of("-k", nsupdateKey), Optional.of(String.join("\n", lines) + "\n"));
    }

    SshCommand reload(String zone) {
        return rndc(List.of("reload", zone));
    }

    private SshCommand dig(List<String> query) {
        List<String> args = new ArrayList<>(List.of("@" + server, "-p", String.valueOf(port), "+noall", "+answer",
                "+nocomments", "+time=5", "+tries=1"));
        args.addAll(query);
        return new SshCommand("dig", args);
    }

    private SshCommand rndc(List<String> command) {
        List<String> args = new ArrayList<>();
        rndcPort.ifPresent(p -> args.addAll(List.of("-s", server, "-p", String.valueOf(p))));
        rndcKey.ifPresent(k -> args.addAll(List.of("-k", k)));
        args.addAll(command);
        return new SshCommand("rndc", args);
    }

    private static String word(TargetSpec target, String extra, String fallback) {
        Object v = target.extras().get(extra);
        String s = v == null ? fallback : v.toString();
        if (!SshCommand.isSafeWord(s) || s.startsWith("-")) {
            throw badExtra(target, extra, "one word of letters, digits and . : _ / -");
        }
        return s;
    }

    private static String path(TargetSpec target, String extra, String fallback) {
        String s = word(target, extra, fallback);
        if (!s.startsWith("/") || s.contains("/../")) {
            throw badExtra(target, extra, "an absolute path");
        }
        return s;
    }

    private static Optional<Integer> port(TargetSpec target, String extra) {
        Object v = target.extras().get(extra);
        if (v == null) {
            return Optional.empty();
        }
        try {
            int p = v instanceof Number n ? n.intValue() : Integer.parseInt(v.toString().strip());
            if (p >= 1 && p <= 65535) {
                return Optional.of(p);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw badExtra(target, extra, "a port number 1..65535");
    }

    private static ConnectorException badExtra(TargetSpec target, String extra, String expected) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "target " + target.name() + ": extras." + extra
                + " must be " + expected);
    }
}
