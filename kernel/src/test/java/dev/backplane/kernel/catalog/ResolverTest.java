package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorDescriptor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every branch of the resolver, with a modern and a legacy implementation of one product. */
class ResolverTest {

    private static ConnectorDescriptor impl(String implId, String version, String... ranges) {
        return new ConnectorDescriptor(implId, version, List.of(new ConnectorDescriptor.Product("harbor", 443)),
                List.of(ranges), List.of("username", "password"));
    }

    private static final ConnectorDescriptor MODERN = impl("harbor", "2.x", "2.x");
    private static final ConnectorDescriptor LEGACY = impl("harbor-legacy", "1.x", ">=1.5 <2");
    private static final List<ConnectorDescriptor> BOTH = List.of(MODERN, LEGACY);

    private static Resolution resolve(String version, String preferred, String tenantPref, List<ConnectorDescriptor> all) {
        return Resolver.resolve(new Resolver.Query("harbor", Optional.ofNullable(version), Optional.ofNullable(preferred),
                Optional.ofNullable(tenantPref)), all);
    }

    @Test
    void theFingerprintVersionPicksTheImplementation() {
        assertThat(resolve("2.9.1", null, null, BOTH)).isEqualTo(new Resolution.Resolved("harbor-2.x",
                "the only implementation that fits"));
        assertThat(resolve("1.10.0", null, null, BOTH)).extracting(r -> ((Resolution.Resolved) r).connectorId())
                .isEqualTo("harbor-legacy-1.x");
    }

    @Test
    void aVersionNoImplementationSupportsIsNoConnector() {
        assertThat(resolve("1.2", null, null, BOTH)).isInstanceOf(Resolution.NoConnector.class);
        assertThat(resolve("3.0", null, null, BOTH)).isInstanceOf(Resolution.NoConnector.class);
    }

    @Test
    void anUnknownProductIsNoConnector() {
        var r = Resolver.resolve(new Resolver.Query("vault", Optional.of("1.15"), Optional.empty(), Optional.empty()), BOTH);
        assertThat(r).isInstanceOf(Resolution.NoConnector.class);
        assertThat(((Resolution.NoConnector) r).message()).contains("vault");
    }

    @Test
    void withoutAnyVersionOnlyAnAnyVersionRangeFits() {
        assertThat(resolve(null, null, null, BOTH)).isInstanceOf(Resolution.NoConnector.class);
        var any = impl("harbor-generic", "0", "*");
        assertThat(resolve(null, null, null, List.of(MODERN, any))).isEqualTo(
                new Resolution.Resolved("harbor-generic-0", "the only implementation that fits"));
    }

    @Test
    void theTargetsPreferenceBreaksATie() {
        var other = impl("harbor-alt", "2.x", "2.x");
        assertThat(resolve("2.1", "harbor-alt", null, List.of(MODERN, other)))
                .isEqualTo(new Resolution.Resolved("harbor-alt-2.x", "the target's preferred_impl_id"));
        assertThat(resolve("2.1", "harbor-alt", "harbor", List.of(MODERN, other)))
                .as("the target's preference beats the tenant's")
                .isEqualTo(new Resolution.Resolved("harbor-alt-2.x", "the target's preferred_impl_id"));
    }

    @Test
    void aPreferenceForAnImplementationThatDoesNotFitIsIgnored() {
        assertThat(resolve("2.1", "harbor-legacy", null, BOTH))
                .isEqualTo(new Resolution.Resolved("harbor-2.x", "the only implementation that fits"));
    }

    @Test
    void theTenantsPreferenceBreaksATieNext() {
        var other = impl("harbor-alt", "2.x", "2.x");
        assertThat(resolve("2.1", null, "harbor-alt", List.of(MODERN, other)))
                .isEqualTo(new Resolution.Resolved("harbor-alt-2.x", "the tenant's preference"));
    }

    @Test
    void theMostSpecificRangeWinsThenATrueTieIsAmbiguous() {
        var narrow = impl("harbor-29", "2.9", "2.9.x");
        assertThat(resolve("2.9.3", null, null, List.of(MODERN, narrow)))
                .isEqualTo(new Resolution.Resolved("harbor-29-2.9", "the most specific version range"));
        var release = impl("harbor", "2.1", "2.x");
        assertThat(resolve("2.1", null, null, List.of(MODERN, release)))
                .as("two releases of one implementation: the newest").isEqualTo(
                        new Resolution.Resolved("harbor-2.1", "the newest release of harbor that fits"));
        var twin = impl("harbor-twin", "2.x", "2.x");
        assertThat(resolve("2.1", null, null, List.of(MODERN, twin)))
                .isEqualTo(new Resolution.Ambiguous(List.of("harbor-2.x", "harbor-twin-2.x")));
    }

    /** Review of the resolver (M1): a range a connector declared badly holds nothing; it never fails resolution. */
    @Test
    void aRangeThatDoesNotParseHoldsNothing() {
        var odd = impl("harbor-odd", "latest", "latest");
        assertThat(resolve("2.1", null, null, List.of(MODERN, odd)))
                .isEqualTo(new Resolution.Resolved("harbor-2.x", "the only implementation that fits"));
        assertThat(resolve("2.1", null, null, List.of(odd))).isInstanceOf(Resolution.NoConnector.class);
        assertThat(resolve(null, null, null, List.of(odd))).isInstanceOf(Resolution.NoConnector.class);
    }

    @Test
    void versionRangesParseAndMatch() {
        assertThat(VersionRange.parse("1.x").contains("1.28.3+k3s1")).isTrue();
        assertThat(VersionRange.parse("1.x").contains("2.0")).isFalse();
        assertThat(VersionRange.parse("9.0").contains("9.0.4")).isTrue();
        assertThat(VersionRange.parse("9.0").contains("9.1")).isFalse();
        assertThat(VersionRange.parse(">=1.20 <2").contains("v1.28.0")).isTrue();
        assertThat(VersionRange.parse(">=1.20,<2").contains("1.19.9")).isFalse();
        assertThat(VersionRange.parse(">1.0 <=1.5").contains("1.5")).isTrue();
        assertThat(VersionRange.parse("*").contains("anything")).isTrue();
        assertThat(VersionRange.parse("1.28.x").specificity()).isEqualTo(2);
        assertThat(VersionRange.parse("*").specificity()).isZero();
        assertThatThrownBy(() -> VersionRange.parse("~1.2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VersionRange.parse(">=x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VersionRange.parse("")).isInstanceOf(IllegalArgumentException.class);
    }
}
