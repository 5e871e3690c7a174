package dev.backplane.plugins.firewall;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session with one nftables host over SSH. Reads are one {@code nft} listing each; a write is
 * checked ({@code nft -c -f -}), applied as one transaction ({@code nft -f -}) and verified by reading
 * the chain or set back. Writes that could drop this very SSH session are refused unless the call says
 * {@code allow_lockout: true} ({@link RuleSpec}, {@link #lockoutCheck}).
 */
final class FirewallSession implements Connector {

    private static final Pattern VERSION = Pattern.compile("nftables v(\\d+\\.\\d+\\.\\d+)");
    private static final Pattern HANDLE = Pattern.compile("# handle (\\d+)\\s*$", Pattern.MULTILINE);
    private final ConnectorContext context;
    private final SshTarget ssh;

    FirewallSession(ConnectorContext context, TargetSpec target, Credential credential) {
        this.context = context;
        this.ssh = new SshTarget(context, target, credential, NftCommands.PROGRAMS);
    }

    @Override
    public Fingerprint probe() {
        Matcher m = VERSION.matcher(ssh.run(NftCommands.version()).stdout());
        return new Fingerprint(Optional.of("netfilter"), Optional.of(FirewallConnectorFactory.PRODUCT),
                m.find() ? Optional.of(m.group(1)) : Optional.empty(), true, context.clock().instant(), "ssh: nft -v");
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        Map<String, Object> p = request.params();
        return switch (request.opId()) {
            case "firewall.about" -> {
                SshOutput out = ssh.run(NftCommands.version());
                NftRows.requireOk(out, "nft -v");
                Matcher m = VERSION.matcher(out.stdout());
                Map<String, Object> about = new LinkedHashMap<>();
                about.put("version_line", out.stdout().strip());
                about.put("version", m.find() ? m.group(1) : null);
                yield new OperationResult.Document(about);
            }
            case "firewall.ruleset.show" -> new OperationResult.Document(NftRows.plain(
                    ssh.run(NftCommands.listJson("ruleset")), "nft list ruleset"));
            case "firewall.table.list" -> new OperationResult.Rows(NftRows.rows(NftRows.objects(
                    ssh.run(NftCommands.listJson("tables")), "table", "nft list tables"), "family", "name", "handle"));
            case "firewall.chain.list" -> new OperationResult.Rows(NftRows.rows(NftRows.objects(
                    ssh.run(NftCommands.listJson("chains")), "chain", "nft list chains"), "family", "table", "name",
                    "handle", "type", "hook", "prio", "policy"));
            case "firewall.rule.list" -> new OperationResult.Rows(NftRows.rules(ssh.run(NftCommands.listChain(
                    FwNames.family(p), FwNames.identifier(p, "table"), FwNames.identifier(p, "chain"))), "nft list chain"));
            case "firewall.set.list" -> new OperationResult.Rows(NftRows.rows(NftRows.objects(
                    ssh.run(NftCommands.listJson("sets")), "set", "nft list sets"), "family", "table", "name", "type",
                    "handle", "flags"));
            case "firewall.set.show" -> new OperationResult.Rows(setElements(p).stream()
                    .<Map<String, Object>>map(e -> Map.of("element", e.text())).toList());
            case "firewall.counter.list" -> new OperationResult.Rows(NftRows.rows(NftRows.objects(
                    ssh.run(NftCommands.listJson("counters")), "counter", "nft list counters"), "family", "table",
                    "name", "packets", "bytes"));
            case "firewall.rule.add", "firewall.rule.delete", "firewall.element.add", "firewall.element.delete" ->
                    write(request.opId(), p);
            default -> throw new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "unknown operation " + request.opId());
        };
    }

    /** The exact command, nft script and read-back of a write; the listing command of a read. */
    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        Map<String, Object> p = request.params();
        SshCommand read = switch (request.opId()) {
            case "firewall.about" -> NftCommands.version();
            case "firewall.ruleset.show" -> NftCommands.listJson("ruleset");
            case "firewall.table.list" -> NftCommands.listJson("tables");
            case "firewall.chain.list" -> NftCommands.listJson("chains");
            case "firewall.rule.list" -> NftCommands.listChain(FwNames.family(p), FwNames.identifier(p, "table"),
                    FwNames.identifier(p, "chain"));
            case "firewall.set.list" -> NftCommands.listJson("sets");
            case "firewall.set.show" -> NftCommands.listJson("set", FwNames.family(p), FwNames.identifier(p, "table"),
                    FwNames.identifier(p, "name"));
            case "firewall.counter.list" -> NftCommands.listJson("counters");
            default -> null;
        };
        if (read != null) {
            return Optional.of(new HttpPreview("SSH", read.line(), Map.of(), Optional.empty()));
        }
        if (FirewallChanges.isWrite(request.opId())) {
            FirewallChange change = FirewallChanges.of(request.opId(), request.params());
            Map<String, Object> body = new LinkedHashMap<>(change.describe());
            body.put("check", NftCommands.check(change.script()).line());
            body.put("stdin", change.script());
            body.put("verify", change.verify().line());
            // in the body, so a preview_hash of one mode is refused for the other
            body.put("lockout_check", Boolean.TRUE.equals(p.get("allow_lockout")) ? "skipped" : "enforced");
            return Optional.of(new HttpPreview("SSH", NftCommands.apply(change.script()).line(), Map.of(),
                    Optional.of(body)));
        }
        return Optional.empty();
    }

    private List<FwNames.Prefix> setElements(Map<String, Object> p) {
        List<JsonNode> sets = NftRows.objects(ssh.run(NftCommands.listJson("set", FwNames.family(p),
                FwNames.identifier(p, "table"), FwNames.identifier(p, "name"))), "set", "nft list set");
        return sets.isEmpty() ? List.of() : NftRows.elements(sets.getFirst());
    }

    private OperationResult write(String opId, Map<String, Object> p) {
        FirewallChange change = FirewallChanges.of(opId, p);
        if (!Boolean.TRUE.equals(p.get("allow_lockout"))) {
            lockoutCheck(opId, p);
        }
        SshOutput checked = ssh.run(NftCommands.check(change.script()));
        if (!checked.ok()) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "nft -c refused the change (nothing was "
                    + "applied): " + checked.diagnostic(), Map.of("exit_status", checked.exitStatus()));
        }
        SshOutput applied = ssh.run(NftCommands.apply(change.script()));
        if (!applied.ok()) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "nft -f failed (the transaction applies "
                    + "whole or not at all): " + applied.diagnostic(), Map.of("exit_status", applied.exitStatus()));
        }
        Map<String, Object> result = new LinkedHashMap<>(change.describe());
        boolean verified = switch (opId) {
            case "firewall.rule.add" -> {
                Matcher m = HANDLE.matcher(applied.stdout());
                long handle = m.find() ? Long.parseLong(m.group(1)) : -1;
                result.put("handle", handle);
                yield hasHandle(change.verify(), handle);
            }
            case "firewall.rule.delete" -> !hasHandle(change.verify(), FwNames.handle(p));
            default -> {
                List<FwNames.Prefix> now = setElements(Map.of("family", p.get("family"), "table", p.get("table"),
                        "name", p.get("set")));
                List<FwNames.Prefix> wanted = FirewallChanges.elements(p);
                result.put("elements_now", now.stream().map(FwNames.Prefix::text).toList());
                yield opId.equals("firewall.element.add") ? now.containsAll(wanted)
                        : wanted.stream().noneMatch(now::contains);
            }
        };
        if (!verified) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "nft applied the change but reading it back "
                    + "does not show it", result);
        }
        result.put("verified", true);
        return new OperationResult.Document(result);
    }

    private boolean hasHandle(SshCommand listing, long handle) {
        return NftRows.rules(ssh.run(listing), "nft list chain").stream()
                .anyMatch(r -> ((Number) r.get("handle")).longValue() == handle);
    }

    /**
     * Refuses a write that could drop the management session ({@link Lockout}), erring towards refusal:
     * <ul>
     *   <li>adding a drop/reject rule that could match it ({@link RuleSpec#wouldDrop});</li>
     *   <li>deleting, from a chain whose policy is drop, a rule that lets packets through and could match
     *       it ({@code ip saddr <backplane> accept}, {@code tcp sport 22 accept}, {@code ct state
     *       established,related accept}, a jump, ...);</li>
     *   <li>deleting an element holding either end's address from a set a letting-through rule uses
     *       ({@code ip saddr @mgmt accept});</li>
     *   <li>adding an element holding either end's address to a set any other rule uses
     *       ({@code ip daddr @x drop}).</li>
     * </ul>
     */
    private void lockoutCheck(String opId, Map<String, Object> p) {
        FirewallChange change = FirewallChanges.of(opId, p);
        SshOutput env = ssh.run(NftCommands.sshConnection());
        Management m = Management.parse(env.ok() ? env.stdout() : "");
        boolean locksOut = switch (opId) {
            case "firewall.rule.add" -> RuleSpec.of(p).wouldDrop(m);
            case "firewall.rule.delete" -> {
                SshOutput chain = ssh.run(change.verify());
                long handle = FwNames.handle(p);
                yield NftRows.dropPolicy(chain) && NftRows.rules(chain, "nft list chain").stream()
                        .filter(r -> ((Number) r.get("handle")).longValue() == handle)
                        .map(r -> r.get("rule").toString())
                        .anyMatch(rule -> Lockout.letsThrough(rule) && Lockout.couldMatch(rule, m));
            }
            default -> {
                if (FirewallChanges.elements(p).stream().noneMatch(e -> Lockout.holdsAnEnd(e, m))) {
                    yield false;
                }
                SshOutput table = ssh.run(NftCommands.listTable(FwNames.family(p), FwNames.identifier(p, "table")));
                NftRows.requireOk(table, "nft list table");
                List<String> users = Lockout.rulesUsing(table.stdout(), FwNames.identifier(p, "set"));
                yield opId.equals("firewall.element.add")
                        ? users.stream().anyMatch(rule -> !rule.matches(".*\\baccept\\b.*"))
                        : users.stream().anyMatch(Lockout::letsThrough);
            }
        };
        if (locksOut) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "this change could drop the SSH session the "
                    + "backplane manages the firewall through (" + m.describe() + "); refused — pass allow_lockout: "
                    + "true if that is intended", Map.of("management_session", m.describe()), null);
        }
    }

    @Override
    public void close() {
        // the SSH session stays in the pool for the next call to this target
    }
}
