package dev.backplane.kernel.governance;

import static dev.backplane.kernel.governance.Grants.check;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Times;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Service-principal grants (SPEC "Agent records"): exact connector_id and op_id — globs refused,
 * delete-shaped operations refused — a required reason, and targets named by uuid, name pattern
 * and/or product (a targetless grant is not a wildcard, so at least one is required). A service
 * principal may dispatch only what such a grant covers.
 */
public final class ServiceGrants {

    /** A service grant as shown. */
    public record ServiceGrant(UUID id, String principal, String connectorId, String opId, String reason,
                               Optional<UUID> target, Optional<String> targetNamePattern, Optional<String> targetProduct,
                               Optional<Instant> expires, boolean revoked, String createdBy, Instant createdAt) {
    }

    private final GrantStore store;
    private final OperationLookup operations;

    /** Looks up an operation as a tenant sees it (throws unknown_connector / unknown_operation). */
    @FunctionalInterface
    public interface OperationLookup {
        OperationDescriptor find(UUID tenant, String connectorId, String opId);
    }

    /** @param operations looks up an operation (throws unknown_connector / unknown_operation) */
    public ServiceGrants(Jdbc jdbc, OperationLookup operations) {
        this.store = new GrantStore(jdbc);
        this.operations = operations;
    }

    public ServiceGrant create(UUID tenant, String createdBy, String principal, String connectorId, String opId,
                               String reason, Optional<String> target, Optional<String> namePattern,
                               Optional<String> product, Optional<String> expires) {
        check(principal != null && !principal.isBlank(), "principal is required", "principal");
        check(principal.length() <= Grants.MAX_PRINCIPAL, "principal is longer than " + Grants.MAX_PRINCIPAL
                + " characters", "principal");
        check(reason != null && !reason.isBlank(), "reason is required", "reason");
        check(reason.length() <= 2000, "reason is longer than 2000 characters", "reason");
        check(namePattern.map(String::length).orElse(0) <= 256, "target_name_pattern is longer than 256 characters",
                "target_name_pattern");
        check(product.map(String::length).orElse(0) <= 128, "target_product is longer than 128 characters",
                "target_product");
        check(connectorId != null && !hasGlob(connectorId), "connector_id must be exact (no globs)", "connector_id");
        check(opId != null && !hasGlob(opId), "op_id must be exact (no globs)", "op_id");
        OperationDescriptor op = operations.find(tenant, connectorId, opId);
        check(!deleteShaped(op), "delete-shaped operations cannot be granted to a service principal", "op_id");
        Optional<UUID> targetId = target.map(t -> {
            try {
                return UUID.fromString(t);
            } catch (IllegalArgumentException e) {
                throw GovernanceErrors.INVALID_GRANT.error("target must be a target uuid", Map.of("field", "target"));
            }
        });
        check(targetId.isPresent() || namePattern.isPresent() || product.isPresent(), "name the targets: target, "
                + "target_name_pattern or target_product (a targetless grant is not a wildcard)", "target");
        Optional<Instant> exp = expires.map(ServiceGrants::instant);
        exp.ifPresent(e -> check(e.isAfter(Instant.now()), "expires must be in the future", "expires"));
        UUID id = UUID.randomUUID();
        store.insertServiceGrant(id, tenant, principal, connectorId, opId, reason, targetId, namePattern, product, exp,
                createdBy);
        return show(tenant, id);
    }

    public List<ServiceGrant> list(UUID tenant, Optional<String> principal, boolean includeExpired,
                                   boolean includeRevoked) {
        return store.listServiceGrants(tenant, principal, includeExpired, includeRevoked);
    }

    public ServiceGrant show(UUID tenant, UUID id) {
        return store.findServiceGrant(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    /** What a service grant id answers when it is not a uuid or names no grant of the tenant. */
    static DomainException notFound(String id) {
        return CommonErrors.GRANT_NOT_FOUND.error("no service grant " + id);
    }

    /** Revokes the grant (the row stays, marked revoked) and answers it again. */
    public ServiceGrant revoke(UUID tenant, UUID id) {
        show(tenant, id);
        store.revokeServiceGrant(id);
        return show(tenant, id);
    }

    /** The active grant covering this call, if any. */
    public Optional<ServiceGrant> covering(UUID tenant, String principal, String connectorId, String opId, UUID targetId,
                                           String targetName, String targetProduct) {
        Instant now = Instant.now();
        return store.unrevokedServiceGrants(tenant, principal, connectorId, opId).stream()
                .filter(g -> g.expires().map(now::isBefore).orElse(true))
                .filter(g -> g.target().map(targetId::equals).orElse(true))
                .filter(g -> g.targetNamePattern().map(p -> Grants.matches(p, targetName)).orElse(true))
                .filter(g -> g.targetProduct().map(targetProduct::equals).orElse(true))
                .findFirst();
    }

    static boolean deleteShaped(OperationDescriptor op) {
        if (op.shape() instanceof OperationShape.Http http && http.method().equals("DELETE")) {
            return true;
        }
        String last = op.opId().substring(op.opId().lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return last.startsWith("delete") || last.startsWith("remove") || last.startsWith("destroy")
                || last.startsWith("purge") || last.startsWith("drop");
    }

    private static boolean hasGlob(String s) {
        return s.contains("*") || s.contains("?") || s.contains("[");
    }

    private static Instant instant(String text) {
        try {
            return Times.inRange(OffsetDateTime.parse(text).toInstant(), "expires",
                    "invalid_grant");
        } catch (DateTimeParseException e) {
            throw GovernanceErrors.INVALID_GRANT.error("expires must be an ISO 8601 time", Map.of("field", "expires"));
        }
    }

    /** What the policy gate asks: whether a live grant covers this call on this target. */
    public PolicyGate.ServiceGrantLookup lookup() {
        return (tenant, principal, connectorId, opId, target) -> covering(tenant, principal, connectorId, opId,
                target.id(), target.name(), target.product()).isPresent();
    }
}
