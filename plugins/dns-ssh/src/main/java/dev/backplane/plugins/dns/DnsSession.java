package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.ssh.SshCommand;
import dev.backplane.plugins.ssh.SshOutput;
import dev.backplane.plugins.ssh.SshTarget;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A session with one BIND 9 host over SSH: each operation is one allowlisted command (writes: two, apply and read back). */
final class DnsSession implements Connector {

    private static final Pattern VERSION = Pattern.compile("BIND (\\d+\\.\\d+\\.\\d+)");
    private final Clock clock;
    private final TargetSpec target;
    private final SshTarget ssh;

    DnsSession(ConnectorContext context, TargetSpec target, Credential credential) {
        this.clock = context.clock();
        this.target = target;
        this.ssh = new SshTarget(context, target, credential, BindTarget.PROGRAMS);
    }

    @Override
    public Fingerprint probe() {
        SshOutput out = ssh.run(new BindTarget(target).version());
        Matcher m = VERSION.matcher(out.stdout());
        return new Fingerprint(Optional.of("ISC"), Optional.of(DnsConnectorFactory.PRODUCT),
                m.find() ? Optional.of(m.group(1)) : Optional.empty(), true, clock.instant(), "ssh: named -v");
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        BindTarget bind = new BindTarget(target);
        Map<String, Object> p = request.params();
        return switch (request.opId()) {
            case "dns.about" -> about(bind);
            case "dns.server.status" -> status(bind);
            case "dns.config.check" -> configCheck(bind);
            case "dns.zone.list" -> zoneList(bind);
            case "dns.zone.show" -> {
                String zone = DnsNames.zone(RecordChange.text(p, "name"));
                yield new OperationResult.Rows(ZoneRecords.rows(ssh.run(bind.transfer(zone)), "zone transfer of " + zone));
            }
            case "dns.record.search" -> new OperationResult.Rows(RecordSearch.of(p).apply(ssh, bind));
            case "dns.record.add" -> write(bind, RecordChange.of("add", p));
            case "dns.record.update" -> write(bind, RecordChange.of("update", p));
            case "dns.record.delete" -> write(bind, RecordChange.of("delete", p));
            case "dns.zone.reload" -> reload(bind, DnsNames.zone(RecordChange.text(p, "name")));
            default -> throw new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "unknown operation " + request.opId());
        };
    }

    /** The exact command (and input) an operation runs; a write's body also names its read-back. */
    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        BindTarget bind = new BindTarget(target);
        Map<String, Object> p = request.params();
        String kind = switch (request.opId()) {
            case "dns.record.add" -> "add";
            case "dns.record.update" -> "update";
            case "dns.record.delete" -> "delete";
            default -> null;
        };
        if (kind != null) {
            RecordChange change = RecordChange.of(kind, p);
            SshCommand update = bind.update(change.script());
            Map<String, Object> body = new LinkedHashMap<>(change.describe());
            body.put("stdin", update.stdin().orElseThrow().lines().toList());
            body.put("verify", bind.lookup(change.fqdn(), change.type()).line());
            return Optional.of(new HttpPreview("SSH", update.line(), Map.of(), Optional.of(body)));
        }
        SshCommand command = switch (request.opId()) {
            case "dns.about" -> bind.version();
            case "dns.server.status" -> bind.status();
            case "dns.config.check" -> bind.configCheck();
            case "dns.zone.list" -> bind.zoneList();
            case "dns.zone.show" -> bind.transfer(DnsNames.zone(RecordChange.text(p, "name")));
            case "dns.record.search" -> bind.transfer(DnsNames.zone(RecordChange.text(p, "zone")));
            case "dns.zone.reload" -> bind.reload(DnsNames.zone(RecordChange.text(p, "name")));
            default -> null;
        };
        return Optional.ofNullable(command).map(c -> new HttpPreview("SSH", c.line(), Map.of(), Optional.empty()));
    }

    private OperationResult about(BindTarget bind) {
        SshOutput out = ssh.run(bind.version());
        Matcher m = VERSION.matcher(out.stdout());
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("version_line", out.stdout().strip());
        about.put("version", m.find() ? m.group(1) : null);
        return out.ok() ? new OperationResult.Document(about) : failed("named -v", out);
    }

    private OperationResult status(BindTarget bind) {
        SshOutput out = ssh.run(bind.status());
        if (!out.ok()) {
            return failed("rndc status", out);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        for (String line : out.lines()) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                status.put(line.substring(0, colon).strip().replace(' ', '_').toLowerCase(Locale.ROOT),
                        line.substring(colon + 2).strip());
            } else {
                status.put("state", line.strip());
            }
        }
        return new OperationResult.Document(status);
    }

    private OperationResult configCheck(BindTarget bind) {
        SshOutput out = ssh.run(bind.configCheck());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("ok", out.ok());
        result.put("messages", (out.stdout() + "\n" + out.stderr()).lines().filter(l -> !l.isBlank()).toList());
        return new OperationResult.Document(result);
    }

    private OperationResult zoneList(BindTarget bind) {
        SshOutput out = ssh.run(bind.zoneList());
        if (!out.ok()) {
            return failed("named-checkconf -l", out);
        }
        List<Map<String, Object>> rows = out.lines().stream().map(l -> l.strip().split("\\s+")).filter(f -> f.length >= 4)
                .<Map<String, Object>>map(f -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("zone", f[0]);
                    row.put("class", f[1]);
                    row.put("view", f[2]);
                    row.put("type", f[3]);
                    return row;
                }).toList();
        return new OperationResult.Rows(rows);
    }

    private OperationResult write(BindTarget bind, RecordChange change) {
        // every command is built (and so validated) before the first one runs
        SshCommand update = bind.update(change.script());
        SshCommand readBack = bind.lookup(change.fqdn(), change.type());
        SshOutput sent = ssh.run(update);
        if (!sent.ok()) {
            return failed("nsupdate", sent);
        }
        List<Map<String, Object>> rrset = ZoneRecords.rows(ssh.run(readBack),
                "reading " + change.fqdn() + " " + change.type() + " back");
        Map<String, Object> result = new LinkedHashMap<>(change.describe());
        result.put("rrset", rrset);
        if (!change.verifiedBy(rrset)) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "the update was accepted but reading "
                    + change.fqdn() + " " + change.type() + " back does not show the change", Map.of("rrset", rrset));
        }
        result.put("verified", true);
        return new OperationResult.Document(result);
    }

    private OperationResult reload(BindTarget bind, String zone) {
        SshOutput out = ssh.run(bind.reload(zone));
        if (!out.ok()) {
            return failed("rndc reload", out);
        }
        return new OperationResult.Document(Map.of("zone", zone, "reloaded", true, "message", out.stdout().strip()));
    }

    private static OperationResult failed(String what, SshOutput out) {
        return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, what + " failed (exit " + out.exitStatus() + "): "
                + out.diagnostic(), Map.of("exit_status", out.exitStatus()));
    }

    @Override
    public void close() {
        // the SSH session stays in the pool for the next call to this target
    }
}
