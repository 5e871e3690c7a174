package dev.backplane.kernel.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scope rules without a database: parsing, promotion order, ownership, targets and partitions. */
class MemoryScopeTest {

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(textBlock = """
            user-target, user-tenant, true
            user-target, target,      true
            user-target, user,        true
            user-target, tenant,      true
            user-tenant, user,        true
            user-tenant, tenant,      true
            target,      tenant,      true
            user-tenant, target,      false
            target,      user-tenant, false
            user,        tenant,      false
            tenant,      user,        false
            tenant,      target,      false
            user,        user-tenant, false
            user,        user,        false
            """)
    void promotionGoesStrictlyToABroaderScope(String from, String to, boolean allowed) {
        assertThat(MemoryScope.require(from).canPromoteTo(MemoryScope.require(to))).isEqualTo(allowed);
    }

    @Test
    void personalAndTargetedScopes() {
        assertThat(MemoryScope.values()).filteredOn(MemoryScope::personal)
                .containsExactly(MemoryScope.USER, MemoryScope.USER_TENANT, MemoryScope.USER_TARGET);
        assertThat(MemoryScope.values()).filteredOn(MemoryScope::targeted)
                .containsExactly(MemoryScope.USER_TARGET, MemoryScope.TARGET);
    }

    @Test
    void anUnknownScopeIsRefusedListingTheValidOnes() {
        assertThat(MemoryScope.WIRE_NAMES).containsExactly("user", "user-tenant", "user-target", "tenant", "target");
        assertThatThrownBy(() -> MemoryScope.require("global")).isInstanceOf(DomainException.class)
                .hasMessageContaining("got 'global'").extracting(e -> ((DomainException) e).code())
                .isEqualTo("invalid_scope");
        assertThatThrownBy(() -> MemoryScope.require(null)).isInstanceOf(DomainException.class);
    }

    @Test
    void partitionsSeparatePeopleButShareTheTenantsOwn() {
        UUID tenant = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        assertThat(MemoryScope.TENANT.partition(tenant, "alice")).isEqualTo(tenant);
        assertThat(MemoryScope.TARGET.partition(tenant, "bob")).isEqualTo(tenant);
        assertThat(MemoryScope.USER_TENANT.partition(tenant, "alice"))
                .isEqualTo(MemoryScope.USER_TARGET.partition(tenant, "alice"))
                .isNotEqualTo(MemoryScope.USER_TENANT.partition(tenant, "bob"))
                .isNotEqualTo(MemoryScope.USER_TENANT.partition(other, "alice"))
                .isNotEqualTo(tenant);
        assertThat(MemoryScope.USER.partition(tenant, "alice")).as("the user scope spans tenants")
                .isEqualTo(MemoryScope.USER.partition(other, "alice"))
                .isNotEqualTo(MemoryScope.USER_TENANT.partition(tenant, "alice"));
    }
}
