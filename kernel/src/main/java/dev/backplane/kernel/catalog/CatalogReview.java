package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.catalog.CatalogViews.GroupView;
import dev.backplane.kernel.catalog.CatalogViews.Review;
import dev.backplane.kernel.catalog.CatalogViews.ReviewChange;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The review rules of a tenant's catalog: enabling and disabling a connector (the moves {@link ReviewStatus}
 * allows), enabling its reads in bulk, and sparse edits of an operation's overrides and a group's wording, each
 * checked before it is stored; and the review as shown (groups with their enabled counts).
 */
final class CatalogReview {

    static final Set<String> SAFETY_LEVELS = Set.of("safe", "caution", "dangerous");
    /** The classes an admin may give an operation ({@code other} is the plugin's to say). */
    static final List<String> OP_CLASSES = List.of("read", "write", "credential_read");

    private final ConnectorRegistry registry;
    private final ReviewStore store;
    private final ConnectorListing listing;

    CatalogReview(ConnectorRegistry registry, ReviewStore store, ConnectorListing listing) {
        this.registry = registry;
        this.store = store;
        this.listing = listing;
    }

    Review review(UUID tenant, String connectorId) {
        return review(tenant, connectorId, Optional.empty());
    }

    /**
     * The review, of one group when {@code group} is given (an unknown group is {@code unknown_group}, 404). Every
     * operation says why it has its class and safety ({@link OperationView#classificationReason()}).
     */
    Review review(UUID tenant, String connectorId, Optional<String> group) {
        LoadedConnector c = registry.require(tenant, connectorId);
        group.ifPresent(g -> requireGroup(c, g));
        Map<String, ReviewStore.OpOverride> overrides = store.overrides(tenant, connectorId);
        ConnectorRegistry.Ingested ingested = registry.isPlugin(connectorId) ? null
                : registry.ingested(tenant).get(connectorId);
        Map<String, String> reasons = ingested == null ? Map.of() : ingested.stored().classificationReasons();
        String fallback = ingested == null ? "declared by the plugin " + c.pluginId()
                : "ingested before classification reasons were kept; ingest the spec again to see why";
        List<OperationView> ops = c.catalog().operations().stream()
                .filter(op -> group.isEmpty() || group.get().equals(op.groupKey()))
                .map(op -> OperationView.of(op, overrides.get(op.opId()), reasons.getOrDefault(op.opId(), fallback)))
                .toList();
        List<GroupView> groups = groupViews(tenant, c, ops).stream()
                .filter(g -> group.isEmpty() || group.get().equals(g.groupKey())).toList();
        return new Review(listing.summary(c, store.status(tenant, connectorId), overrides), c.descriptor().secretFields(),
                groups, ops, classificationRules(tenant, connectorId),
                ingested == null ? null : IngestedJson.authJson(ingested.stored().connector().auth()),
                ingested == null ? null : ingested.stored().connector().basePath());
    }

    /** The rules file's rules as the ingest applied them, with their reasons (none for a plugin's connector). */
    private List<JsonNode> classificationRules(UUID tenant, String connectorId) {
        ConnectorRegistry.Ingested i = registry.ingested(tenant).get(connectorId);
        if (i == null || registry.isPlugin(connectorId)) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        i.stored().classificationRules().forEach(out::add);
        return out;
    }

    List<GroupView> groups(UUID tenant, String connectorId) {
        LoadedConnector c = registry.require(tenant, connectorId);
        return groupViews(tenant, c, views(c, store.overrides(tenant, connectorId)));
    }

    ReviewChange enable(UUID tenant, String connectorId, String actor) {
        registry.require(tenant, connectorId);
        ReviewStatus before = store.status(tenant, connectorId);
        if (!before.canMoveTo(ReviewStatus.ENABLED)) {
            return new ReviewChange(connectorId, before.wireName(), before.wireName(), 0, "already enabled; nothing changed");
        }
        store.setStatus(tenant, connectorId, ReviewStatus.ENABLED, actor);
        return new ReviewChange(connectorId, before.wireName(), ReviewStatus.ENABLED.wireName(), 0,
                "enabled: its enabled operations are now dispatchable");
    }

    ReviewChange disable(UUID tenant, String connectorId, String actor) {
        registry.require(tenant, connectorId);
        ReviewStatus before = store.status(tenant, connectorId);
        if (!before.canMoveTo(ReviewStatus.DISABLED)) {
            throw CatalogErrors.INVALID_TRANSITION.error("connector " + connectorId + " is "
                    + before.wireName() + "; only an enabled connector can be disabled", Map.of("status", before.wireName()));
        }
        store.setStatus(tenant, connectorId, ReviewStatus.DISABLED, actor);
        return new ReviewChange(connectorId, before.wireName(), ReviewStatus.DISABLED.wireName(), 0,
                "disabled: nothing is dispatchable; per-operation overrides are kept");
    }

    ReviewChange enableReads(UUID tenant, String connectorId, String actor) {
        return enableReads(tenant, connectorId, false, actor);
    }

    /**
     * Enables every read-class (GET/HEAD) operation; with {@code includeReadPosts}, also every POST the connector
     * itself classes as a read ({@link OperationView#readOnlyPost()}: search, plan, validate). Without it, the
     * answer says how many such POSTs stay off.
     */
    ReviewChange enableReads(UUID tenant, String connectorId, boolean includeReadPosts, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        ReviewStatus status = store.status(tenant, connectorId);
        // the tenant's view: an override to credential_read or write takes an operation out; one to read puts a
        // GET or HEAD in, never another method
        List<OperationView> views = views(c, store.overrides(tenant, connectorId));
        List<String> reads = views.stream().filter(v -> v.readClass() || includeReadPosts && v.readOnlyPost())
                .map(OperationView::opId).toList();
        long postsLeft = includeReadPosts ? 0 : views.stream().filter(v -> v.readOnlyPost() && !v.isEnabled()).count();
        int changed = store.enableAll(tenant, connectorId, reads, actor);
        return new ReviewChange(connectorId, status.wireName(), status.wireName(), changed, changed
                + " read operation(s) newly enabled of " + reads.size() + "; writes stay default-deny"
                + (postsLeft == 0 ? "" : "; " + postsLeft + " POST(s) that only read (search, plan, validate ...) "
                + "stay off: add --include-read-posts to enable them too")
                + (status.dispatchable() ? "" : "; the connector is " + status.wireName()
                + ", enable it to make them dispatchable"));
    }

    /** A sparse change of one operation's overrides; {@code customDescription} "" clears it. */
    OperationView editOperation(UUID tenant, String connectorId, String opId, Optional<String> customDescription,
                                Optional<String> safetyLevel, Optional<Boolean> requiresApproval,
                                Optional<Boolean> isEnabled, Optional<String> opClass, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        OperationDescriptor op = operation(c, opId);
        checkOverride(customDescription, safetyLevel, requiresApproval, isEnabled, opClass);
        ReviewStore.OpOverride before = store.overrides(tenant, connectorId).get(opId);
        String classAfter = opClass.or(() -> before == null ? Optional.empty() : before.opClass())
                .orElse(op.opClass().wireName());
        if (classAfter.equals(OpClass.CREDENTIAL_READ.wireName()) && requiresApproval.equals(Optional.of(false))) {
            throw CatalogErrors.INVALID_OVERRIDE.error("operation " + opId + " is a credential_read, which always "
                    + "requires approval; change its class first (--op-class read) to lift the approval",
                    Map.of("field", "requires_approval", "op_class", classAfter));
        }
        boolean clear = customDescription.map(String::isBlank).orElse(false);
        store.mergeOverride(tenant, connectorId, opId, new ReviewStore.OpOverride(
                customDescription.filter(d -> !d.isBlank()), safetyLevel, requiresApproval, isEnabled, opClass), clear,
                actor);
        return OperationView.of(op, store.overrides(tenant, connectorId).get(opId));
    }

    /** An override change names a known safety level and changes something. */
    static void checkOverride(Optional<String> customDescription, Optional<String> safetyLevel,
                              Optional<Boolean> requiresApproval, Optional<Boolean> isEnabled) {
        checkOverride(customDescription, safetyLevel, requiresApproval, isEnabled, Optional.empty());
    }

    /** An override change names a known safety level and class, and changes something. */
    static void checkOverride(Optional<String> customDescription, Optional<String> safetyLevel,
                              Optional<Boolean> requiresApproval, Optional<Boolean> isEnabled,
                              Optional<String> opClass) {
        safetyLevel.ifPresent(CatalogReview::checkSafetyLevel);
        opClass.ifPresent(CatalogReview::checkOpClass);
        if (customDescription.isEmpty() && safetyLevel.isEmpty() && requiresApproval.isEmpty() && isEnabled.isEmpty()
                && opClass.isEmpty()) {
            throw CatalogErrors.INVALID_OVERRIDE.error("nothing to change: give custom_description, "
                    + "safety_level, requires_approval, is_enabled or op_class", Map.of());
        }
    }

    static void checkSafetyLevel(String s) {
        if (!SAFETY_LEVELS.contains(s)) {
            throw CatalogErrors.INVALID_OVERRIDE.error("safety_level must be safe, caution or dangerous, "
                    + "got '" + s + "'", Map.of("field", "safety_level"));
        }
    }

    static void checkOpClass(String c) {
        if (!OP_CLASSES.contains(c)) {
            throw CatalogErrors.INVALID_OVERRIDE.error("op_class must be read, write or credential_read, got '" + c
                    + "'", Map.of("field", "op_class", "valid_op_classes", OP_CLASSES));
        }
    }

    GroupView editGroup(UUID tenant, String connectorId, String groupKey, Optional<String> displayName,
                        Optional<String> whenToUse, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        requireGroup(c, groupKey);
        checkGroupEdit(displayName, whenToUse);
        store.mergeGroupEdit(tenant, connectorId, groupKey, new ReviewStore.GroupEdit(displayName, whenToUse), actor);
        return groups(tenant, connectorId).stream().filter(g -> g.groupKey().equals(groupKey)).findFirst().orElseThrow();
    }

    /** A group edit changes something and does not blank the name. */
    static void checkGroupEdit(Optional<String> displayName, Optional<String> whenToUse) {
        if (displayName.isEmpty() && whenToUse.isEmpty()) {
            throw CatalogErrors.INVALID_GROUP_EDIT.error("nothing to change: give name or when_to_use", Map.of());
        }
        if (displayName.map(String::isBlank).orElse(false)) {
            throw CatalogErrors.INVALID_GROUP_EDIT.error("name must not be blank", Map.of("field", "name"));
        }
    }

    /** The connector's operation {@code opId}, or {@code unknown_operation} with the search that finds one. */
    static OperationDescriptor operation(LoadedConnector c, String opId) {
        return c.catalog().operations().stream().filter(o -> o.opId().equals(opId)).findFirst()
                .orElseThrow(() -> CatalogErrors.UNKNOWN_OPERATION.error("connector " + c.connectorId()
                        + " has no operation '" + opId + "'; search with: svc operation search " + c.connectorId()
                        + " <query>"));
    }

    private static void requireGroup(LoadedConnector c, String groupKey) {
        if (c.catalog().groups().stream().noneMatch(g -> g.groupKey().equals(groupKey))) {
            throw CatalogErrors.UNKNOWN_GROUP.error("connector " + c.connectorId() + " has no group '" + groupKey + "'")
                    .withExtras("valid_groups", c.catalog().groups().stream().map(OperationGroup::groupKey).toList());
        }
    }

    private static List<OperationView> views(LoadedConnector c, Map<String, ReviewStore.OpOverride> overrides) {
        return c.catalog().operations().stream().map(op -> OperationView.of(op, overrides.get(op.opId()))).toList();
    }

    private List<GroupView> groupViews(UUID tenant, LoadedConnector c, List<OperationView> ops) {
        Map<String, ReviewStore.GroupEdit> edits = store.groupEdits(tenant, c.connectorId());
        List<GroupView> out = new ArrayList<>();
        for (OperationGroup g : c.catalog().groups()) {
            int count = (int) ops.stream().filter(o -> o.groupKey().equals(g.groupKey())).count();
            int enabled = (int) ops.stream().filter(o -> o.groupKey().equals(g.groupKey()) && o.isEnabled()).count();
            ReviewStore.GroupEdit e = edits.get(g.groupKey());
            out.add(new GroupView(g.groupKey(), e == null ? g.displayName() : e.displayName().orElse(g.displayName()),
                    e == null ? g.whenToUse() : e.whenToUse().orElse(g.whenToUse()), count, enabled,
                    enabled > 0 && enabled < count));
        }
        return out;
    }
}
