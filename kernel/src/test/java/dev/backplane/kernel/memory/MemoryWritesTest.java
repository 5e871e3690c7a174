package dev.backplane.kernel.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.memory.MemoryService.Write;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a memory write must satisfy and where it lands, without a database. */
class MemoryWritesTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final MemoryWrites WRITES = new MemoryWrites(Duration.ofDays(7));

    private static Caller caller(Role role, PrincipalKind kind) {
        return new Caller("alice", Optional.empty(), Optional.of(TENANT), TENANT, role, false, kind, Optional.empty());
    }

    private static Write write(String scope, Optional<String> target, String body) {
        return new Write(scope, Optional.of("a-note"), body, List.of("x"), target, Optional.empty(), false);
    }

    private static String refusal(Caller caller, Write w) {
        try {
            WRITES.check(caller, w);
            return "ok";
        } catch (DomainException e) {
            return e.code();
        }
    }

    @Test
    void whoMayWriteWhichScope() {
        Caller operator = caller(Role.OPERATOR, PrincipalKind.HUMAN);
        assertThat(refusal(operator, write("tenant", Optional.empty(), "b"))).isEqualTo("insufficient_role");
        assertThat(refusal(caller(Role.TENANT_ADMIN, PrincipalKind.HUMAN), write("tenant", Optional.empty(), "b")))
                .isEqualTo("ok");
        assertThat(refusal(caller(Role.OPERATOR, PrincipalKind.AGENT), write("user", Optional.empty(), "b")))
                .as("an agent principal has no cross-tenant scope").isEqualTo("invalid_scope");
        assertThat(refusal(caller(Role.OPERATOR, PrincipalKind.AGENT), write("user-tenant", Optional.empty(), "b")))
                .isEqualTo("ok");
        assertThat(refusal(operator, write("everyone", Optional.empty(), "b"))).isEqualTo("invalid_scope");
    }

    @Test
    void targetNamesGoWithTargetedScopesOnly() {
        Caller c = caller(Role.OPERATOR, PrincipalKind.HUMAN);
        assertThat(refusal(c, write("target", Optional.empty(), "b"))).isEqualTo("target_name_required");
        assertThat(refusal(c, write("user-target", Optional.of(" "), "b"))).isEqualTo("target_name_required");
        assertThat(refusal(c, write("user-tenant", Optional.of("prod-1"), "b"))).isEqualTo("invalid_scope");
        assertThat(WRITES.check(c, write("target", Optional.of("prod-1"), "b")).target()).contains("prod-1");
    }

    @Test
    void bodyAndSlugAreChecked() {
        Caller c = caller(Role.OPERATOR, PrincipalKind.HUMAN);
        assertThat(refusal(c, write("user", Optional.empty(), " "))).isEqualTo("invalid_body");
        assertThat(refusal(c, write("user", Optional.empty(), "é".repeat(MemoryWrites.MAX_BODY / 2 + 1))))
                .as("the limit counts UTF-8 bytes").isEqualTo("invalid_body");
        assertThat(refusal(c, new Write("user", Optional.of("Not A Slug"), "b", List.of(), Optional.empty(),
                Optional.empty(), false))).isEqualTo("invalid_slug");
        String generated = WRITES.check(c, new Write("user", Optional.empty(), "Restart the Pods, then wait!", null,
                Optional.empty(), Optional.empty(), false)).slug();
        assertThat(generated).startsWith("restart-the-pods-then-wait-");
    }

    @Test
    void personalScopesExpireByDefaultAndLandWithTheirOwner() {
        Caller c = caller(Role.TENANT_ADMIN, PrincipalKind.HUMAN);
        Instant before = Instant.now();
        var personal = WRITES.check(c, write("user-tenant", Optional.empty(), "b"));
        assertThat(personal.expires()).hasValueSatisfying(e -> assertThat(e).isBetween(before.plus(Duration.ofDays(7)),
                Instant.now().plus(Duration.ofDays(7))));
        assertThat(personal.owner()).contains("alice");
        assertThat(personal.tenant()).contains(TENANT);
        var crossTenant = WRITES.check(c, write("user", Optional.empty(), "b"));
        assertThat(crossTenant.tenant()).as("the user scope belongs to no tenant").isEmpty();
        var shared = WRITES.check(c, write("tenant", Optional.empty(), "b"));
        assertThat(shared.expires()).isEmpty();
        assertThat(shared.owner()).isEmpty();
        assertThat(WRITES.check(c, new Write("user", Optional.empty(), "b", List.of(), Optional.empty(),
                Optional.empty(), true)).expires()).as("persist keeps it forever").isEmpty();
    }
}
