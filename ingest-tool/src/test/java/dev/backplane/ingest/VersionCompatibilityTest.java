package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.ingest.SpecIngestException.Reason;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VersionCompatibilityTest {

    @Test
    void majorIsTheLeadingIntegerAfterAnOptionalV() {
        assertThat(VersionCompatibility.major("23.x")).isEqualTo(OptionalInt.of(23));
        assertThat(VersionCompatibility.major("1.15")).isEqualTo(OptionalInt.of(1));
        assertThat(VersionCompatibility.major("1.0")).isEqualTo(OptionalInt.of(1));
        assertThat(VersionCompatibility.major("v2.0.1")).isEqualTo(OptionalInt.of(2));
        assertThat(VersionCompatibility.major("unversioned")).isEmpty();
        assertThat(VersionCompatibility.major("version not set")).isEmpty();
    }

    @Test
    void equalMajorsNeedNoDeclaration() {
        VersionCompatibility none = new VersionCompatibility(List.of());
        assertThat(none.accepts("1.15.0", "1.15")).isTrue();
        assertThat(none.accepts("v2.0.1", "2.x")).isTrue();
        assertThat(none.accepts("1.0", "23.x")).isFalse();
        assertThat(none.accepts("unversioned", "1.36")).isFalse();
    }

    @ParameterizedTest(name = "{1} accepts {0}: {2}")
    @CsvSource(delimiter = '|', value = {
            "1.0|1.x|true",
            "1.0|1.*|true",
            "1|1.x|true",
            "1.0|2.x|false",
            "unversioned|*|true",
            "version not set|*|true",
            "unversioned|unversioned|true",
            "unversioned|1.x|false",
            "1.15.3|1.15.*|true",
            "1.16.0|1.15.*|false",
            "1.0|1.0|true",
            "1.0.1|1.0|false",
            "v2.0.1|2.x|true",
            "2.0|1.x, 2.x|true",
            "1.2.3|1.x.3|true",
            "1.0|>=1.0,<2|true",
            "2.0|>=1.0,<2|false",
            "0.9|>=1.0,<2|false",
            "1.0|==1.*|true",
            "2.0|==1.*|false",
            "1.4.5|~=1.4.2|true",
            "1.5.0|~=1.4.2|false",
            "1.4.1|~=1.4.2|false",
            "1.9|~=1.4|true",
            "2.0|~=1.4|false",
            "1.0|!=1.0|false",
            "1.1|!=1.0|true",
            "1.5|>1.4,<=1.5|true",
            "1.0|===1.0|true",
            "1.0.0|===1.0|false",
            "unversioned|>=0|false",
            "3.0|9.x, >=3,<4|true",
    })
    void declarationsAcceptByGlobOrSpecifierSet(String infoVersion, String declaration, boolean accepted) {
        VersionCompatibility compatibility = new VersionCompatibility(List.of(declaration));
        assertThat(compatibility.accepts(infoVersion, "99.x")).isEqualTo(accepted);
    }

    @Test
    void anyDeclarationSuffices() {
        VersionCompatibility compatibility = new VersionCompatibility(List.of("3.x", ">=1.0,<2"));
        assertThat(compatibility.accepts("1.2", "23.x")).isTrue();
        assertThat(compatibility.accepts("3.1", "23.x")).isTrue();
        assertThat(compatibility.accepts("2.1", "23.x")).isFalse();
    }

    @Test
    void rejectionNamesSpecVersionLabelAndTheFlagToAdd() {
        VersionCompatibility none = new VersionCompatibility(List.of());
        assertThatThrownBy(() -> none.check("keycloak-23.0.7-openapi.json", "1.0", "23.x"))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_VERSION_MISMATCH))
                .hasMessage("keycloak-23.0.7-openapi.json has info.version '1.0' (major 1) but the label 23.x has major 23;"
                        + " if this spec serves that product version, declare it: --spec-info-versions-compatible 1.x");
    }

    @Test
    void rejectionOfAPlaceholderVersionSuggestsAcceptingAny() {
        VersionCompatibility declared = new VersionCompatibility(List.of("2.x"));
        assertThatThrownBy(() -> declared.check("argocd-swagger.json", "version not set", "2.x"))
                .isInstanceOf(SpecIngestException.class)
                .hasMessageContaining("'version not set' (no numeric major)")
                .hasMessageContaining("none of the declared compatible versions [2.x] matches")
                .hasMessageEndingWith("--spec-info-versions-compatible '*' (its info.version names no version to check; "
                        + "'*' accepts any)");
        // what the hint says works
        new VersionCompatibility(List.of("*")).check("argocd-swagger.json", "version not set", "2.x");
        new VersionCompatibility(List.of("*")).check("gitea.json", "{{AppVer | JSEscape}}", "1.x");
    }

    @Test
    void acceptedVersionPassesCheck() {
        new VersionCompatibility(List.of("1.x")).check("keycloak.json", "1.0", "23.x");
        new VersionCompatibility(List.of()).check("vault.json", "1.15.0", "1.15");
    }
}
