package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An ingest's rules file ({@code svc connector ingest --rules}, the {@code rules} member of the ingest body): an
 * admin's corrections of the heuristic's class, safety and approval, applied to the ingested catalog before it is
 * stored, so they hold for every tenant the connector is served to. Each rule is
 * <pre>{match: {op_id | operation_id | method + path}, op_class?, safety?, requires_approval?, reason}</pre>
 * where every criterion given must hold ({@code path} is a glob over the operation's path template: {@code *} stays
 * within one segment, {@code **} crosses segments; {@code method} alone is too broad and is refused). Rules apply in
 * file order, a later rule's field replacing an earlier one's. Precedence: an admin's per-tenant override
 * ({@code edit-op}) beats the rules file, which beats the heuristic; a {@code credential_read} always requires
 * approval, and an override to {@code read} of a method other than GET or HEAD never lets {@code enable-reads}
 * open it. A rule with a bad value, or one that matches no operation, refuses the whole ingest
 * ({@code invalid_override}, naming the rule) and nothing is written.
 */
final class ClassificationRules {

    /** The most rules one ingest takes. */
    static final int MAX_RULES = 500;
    static final int MAX_REASON_CHARS = 500;

    private static final Set<String> RULE_FIELDS = Set.of("match", "op_class", "safety", "requires_approval", "reason");
    private static final Set<String> MATCH_FIELDS = Set.of("op_id", "operation_id", "method", "path");
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
            "TRACE");

    /**
     * What one rule selects.
     *
     * @param opId the connector's op id, exactly
     * @param operationId the spec's operationId (compared ignoring case and separators: GetVariableQuery matches
     *                    op id segment get_variable_query)
     * @param method the HTTP method
     * @param path a glob over the HTTP path template
     */
    record Match(Optional<String> opId, Optional<String> operationId, Optional<String> method, Optional<Pattern> path,
                 Optional<String> pathGlob) {

        boolean matches(OperationDescriptor op) {
            Optional<OperationShape.Http> http = op.shape() instanceof OperationShape.Http h ? Optional.of(h)
                    : Optional.empty();
            return opId.map(op.opId()::equals).orElse(true)
                    && operationId.map(id -> squash(id).equals(squash(lastSegment(op.opId())))).orElse(true)
                    && method.map(m -> http.map(h -> h.method().equalsIgnoreCase(m)).orElse(false)).orElse(true)
                    && path.map(p -> http.map(h -> p.matcher(h.pathTemplate()).matches()).orElse(false)).orElse(true);
        }

        Map<String, Object> view() {
            Map<String, Object> m = new LinkedHashMap<>();
            opId.ifPresent(v -> m.put("op_id", v));
            operationId.ifPresent(v -> m.put("operation_id", v));
            method.ifPresent(v -> m.put("method", v));
            pathGlob.ifPresent(v -> m.put("path", v));
            return m;
        }
    }

    /**
     * One checked rule.
     *
     * @param index its position in the file, from 1 (what messages name)
     */
    record Rule(int index, Match match, Optional<OpClass> opClass, Optional<SafetyLevel> safety,
                Optional<Boolean> requiresApproval, String reason) {

        Map<String, Object> set() {
            Map<String, Object> m = new LinkedHashMap<>();
            opClass.ifPresent(c -> m.put("op_class", c.wireName()));
            safety.ifPresent(s -> m.put("safety", s.wireName()));
            requiresApproval.ifPresent(a -> m.put("requires_approval", a));
            return m;
        }
    }

    /**
     * The catalog with the rules applied, and what each rule did.
     *
     * @param applied per rule: rule (its index), match, set, reason and the op_ids it changed
     */
    record Applied(Catalog catalog, List<Map<String, Object>> applied) {
    }

    private ClassificationRules() {
    }

    /** The rules of an ingest body's {@code rules} member (absent or null: none), each checked. */
    static List<Rule> parse(JsonNode rules) {
        if (rules == null || rules.isNull() || rules.isMissingNode()) {
            return List.of();
        }
        if (!rules.isArray()) {
            throw invalid(0, "rules", "rules must be a list of {match, op_class?, safety?, requires_approval?, "
                    + "reason}");
        }
        if (rules.size() > MAX_RULES) {
            throw invalid(0, "rules", "at most " + MAX_RULES + " rules, got " + rules.size());
        }
        List<Rule> out = new ArrayList<>();
        int i = 0;
        for (JsonNode r : rules) {
            out.add(rule(++i, r));
        }
        return List.copyOf(out);
    }

    private static Rule rule(int i, JsonNode r) {
        if (!r.isObject()) {
            throw invalid(i, "rules", "rule " + i + " must be an object {match, op_class?, safety?, "
                    + "requires_approval?, reason}");
        }
        r.fieldNames().forEachRemaining(f -> {
            if (!RULE_FIELDS.contains(f)) {
                throw invalid(i, f, "rule " + i + " has an unknown field '" + f + "'; a rule has " + sorted(RULE_FIELDS));
            }
        });
        Match match = match(i, r.path("match"));
        Optional<OpClass> opClass = text(i, r, "op_class").map(c -> {
            if (!CatalogReview.OP_CLASSES.contains(c)) {
                throw invalid(i, "op_class", "rule " + i + ": op_class must be read, write or credential_read, got '"
                        + c + "'");
            }
            return OpClass.fromWireName(c).orElseThrow();
        });
        Optional<SafetyLevel> safety = text(i, r, "safety").map(s -> {
            if (!CatalogReview.SAFETY_LEVELS.contains(s)) {
                throw invalid(i, "safety", "rule " + i + ": safety must be safe, caution or dangerous, got '" + s + "'");
            }
            return SafetyLevel.valueOf(s.toUpperCase(Locale.ROOT));
        });
        Optional<Boolean> approval = Optional.empty();
        JsonNode a = r.get("requires_approval");
        if (a != null && !a.isNull()) {
            if (!a.isBoolean()) {
                throw invalid(i, "requires_approval", "rule " + i + ": requires_approval must be true or false");
            }
            approval = Optional.of(a.booleanValue());
        }
        if (opClass.isEmpty() && safety.isEmpty() && approval.isEmpty()) {
            throw invalid(i, "rules", "rule " + i + " changes nothing: give op_class, safety or requires_approval");
        }
        if (opClass.equals(Optional.of(OpClass.CREDENTIAL_READ)) && approval.equals(Optional.of(false))) {
            throw invalid(i, "requires_approval", "rule " + i + ": a credential_read always requires approval");
        }
        String reason = text(i, r, "reason").map(String::strip).filter(s -> !s.isEmpty()).orElseThrow(() ->
                invalid(i, "reason", "rule " + i + " needs a reason (it is shown in review and kept in the audit log)"));
        if (reason.length() > MAX_REASON_CHARS) {
            throw invalid(i, "reason", "rule " + i + ": reason is longer than " + MAX_REASON_CHARS + " characters");
        }
        return new Rule(i, match, opClass, safety, approval, reason);
    }

    private static Match match(int i, JsonNode m) {
        if (!m.isObject() || m.isEmpty()) {
            throw invalid(i, "match", "rule " + i + " needs match: {op_id}, {operation_id} or {method, path}");
        }
        m.fieldNames().forEachRemaining(f -> {
            if (!MATCH_FIELDS.contains(f)) {
                throw invalid(i, "match." + f, "rule " + i + ": match has an unknown field '" + f + "'; it takes "
                        + sorted(MATCH_FIELDS));
            }
        });
        Optional<String> opId = text(i, m, "op_id");
        Optional<String> operationId = text(i, m, "operation_id");
        Optional<String> method = text(i, m, "method").map(s -> s.toUpperCase(Locale.ROOT));
        Optional<String> glob = text(i, m, "path");
        method.ifPresent(s -> {
            if (!METHODS.contains(s)) {
                throw invalid(i, "match.method", "rule " + i + ": match.method must be an HTTP method, got '" + s + "'");
            }
        });
        if (opId.isEmpty() && operationId.isEmpty() && glob.isEmpty()) {
            throw invalid(i, "match", "rule " + i + ": match needs op_id, operation_id or path (method alone is "
                    + "too broad)");
        }
        glob.ifPresent(g -> {
            if (!g.startsWith("/")) {
                throw invalid(i, "match.path", "rule " + i + ": match.path is a path glob starting with '/', got '"
                        + g + "'");
            }
        });
        return new Match(opId, operationId, method, glob.map(ClassificationRules::glob), glob);
    }

    /**
     * The catalog with {@code rules} applied in order.
     *
     * @throws DomainException {@code invalid_override} when a rule matches no operation, or would lift the approval
     *     of a credential read
     */
    static Applied apply(Catalog catalog, List<Rule> rules) {
        if (rules.isEmpty()) {
            return new Applied(catalog, List.of());
        }
        List<OperationDescriptor> ops = new ArrayList<>(catalog.operations());
        List<Map<String, Object>> applied = new ArrayList<>();
        for (Rule rule : rules) {
            List<String> changed = new ArrayList<>();
            for (int k = 0; k < ops.size(); k++) {
                OperationDescriptor op = ops.get(k);
                if (rule.match().matches(op)) {
                    ops.set(k, applied(rule, op));
                    changed.add(op.opId());
                }
            }
            if (changed.isEmpty()) {
                throw invalid(rule.index(), "match", "rule " + rule.index() + " (" + rule.match().view()
                        + ") matches no operation of this spec; check svc connector ingest --dry-run's op ids, or "
                        + "remove the rule");
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", rule.index());
            m.put("match", rule.match().view());
            m.put("set", rule.set());
            m.put("reason", rule.reason());
            m.put("op_ids", List.copyOf(changed));
            applied.add(m);
        }
        return new Applied(new Catalog(catalog.groups(), ops), List.copyOf(applied));
    }

    private static OperationDescriptor applied(Rule rule, OperationDescriptor op) {
        OpClass opClass = rule.opClass().orElse(op.opClass());
        boolean approval = rule.requiresApproval().orElse(op.requiresApproval());
        if (opClass == OpClass.CREDENTIAL_READ) {
            if (rule.requiresApproval().equals(Optional.of(false))) {
                throw invalid(rule.index(), "requires_approval", "rule " + rule.index() + ": " + op.opId()
                        + " is a credential_read, which always requires approval");
            }
            approval = true;
        }
        return new OperationDescriptor(op.opId(), op.groupKey(), op.description(), rule.safety().orElse(op.safetyLevel()),
                approval, opClass, op.paramsSchema(), op.shape(), op.resultKind(), op.secretParams());
    }

    /** A path glob as a regex: {@code **} any characters, {@code *} any within a segment, the rest literal. */
    static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (int k = 0; k < glob.length(); k++) {
            char c = glob.charAt(k);
            if (c == '*' && k + 1 < glob.length() && glob.charAt(k + 1) == '*') {
                re.append(".*");
                k++;
            } else if (c == '*') {
                re.append("[^/]*");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }

    private static Optional<String> text(int i, JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw invalid(i, field, "rule " + i + ": " + field + " must be a string");
        }
        return Optional.of(v.asText());
    }

    private static String lastSegment(String opId) {
        return opId.substring(opId.lastIndexOf('.') + 1);
    }

    private static String squash(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    private static DomainException invalid(int rule, String field, String message) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("field", field.equals("rules") || field.startsWith("match") ? field : "rules." + field);
        if (rule > 0) {
            extras.put("rule", rule);
        }
        return CatalogErrors.INVALID_OVERRIDE.error(message, extras);
    }
}
