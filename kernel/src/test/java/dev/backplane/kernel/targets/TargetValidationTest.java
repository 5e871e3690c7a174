package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.errors.DomainException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The field rules every target write is held to, without a database: aliases valid, distinct and not the name;
 * host, port and auth model; verify_tls against a pinned CA; extras.scheme; names already taken. The merge with a
 * stored target and the connector-backed checks (product, preferred_impl_id, SSRF) run in TargetsIT.
 */
class TargetValidationTest {

    private static DomainException refusal(Runnable check) {
        try {
            check.run();
        } catch (DomainException e) {
            return e;
        }
        throw new AssertionError("the check accepted what it must refuse");
    }

    @Test
    void aliasesAreValidNamesListedOnceSortedAndNotTheName() {
        assertThat(TargetValidation.aliases("pve1", List.of("zeta", "alpha.1", "b_2"))).containsExactly("alpha.1", "b_2", "zeta");
        assertThat(refusal(() -> TargetValidation.aliases("pve1", List.of("a", "a"))).getMessage()).contains("listed twice");
        assertThat(refusal(() -> TargetValidation.aliases("pve1", List.of("pve1"))).getMessage())
                .contains("equals the target's name");
        DomainException bad = refusal(() -> TargetValidation.aliases("pve1", List.of("-dash")));
        assertThat(bad.code()).isEqualTo("invalid_alias");
        assertThat(bad.extras()).containsEntry("field", "aliases");
        assertThat(refusal(() -> TargetValidation.aliases("pve1", Arrays.asList((String) null))).code())
                .isEqualTo("invalid_alias");
    }

    @Test
    void hostPortAndAuthModel() {
        TargetValidation.checkHost("pve-1.lab.example.");
        TargetValidation.checkHost("10.0.0.1");
        TargetValidation.checkHost("[fe80::1%eth0]");
        assertThat(refusal(() -> TargetValidation.checkHost("bad host")).code()).isEqualTo("invalid_host");
        assertThat(refusal(() -> TargetValidation.checkHost("a_b.example")).code()).isEqualTo("invalid_host");

        TargetValidation.checkPort(null);
        TargetValidation.checkPort(1);
        TargetValidation.checkPort(65535);
        assertThat(refusal(() -> TargetValidation.checkPort(0)).code()).isEqualTo("invalid_port");
        assertThat(refusal(() -> TargetValidation.checkPort(65536)).extras()).containsEntry("field", "port");

        TargetValidation.checkAuthModel(TargetValidation.DEFAULT_AUTH_MODEL);
        assertThat(refusal(() -> TargetValidation.checkAuthModel("Shared")).code()).isEqualTo("invalid_auth_model");
    }

    @Test
    void verificationOffAndAPinnedCaExcludeEachOtherAndAPinMustBePem() {
        TargetValidation.checkTls(true, null);
        TargetValidation.checkTls(false, null);
        DomainException conflict = refusal(() -> TargetValidation.checkTls(false, "-----BEGIN CERTIFICATE-----"));
        assertThat(conflict.code()).isEqualTo(TargetErrors.TLS_OPTIONS_CONFLICT.error("x").code());
        assertThat(conflict.extras()).containsEntry("field", "tls_ca_pin");
        assertThat(refusal(() -> TargetValidation.checkTls(true, "not a certificate")).extras())
                .containsEntry("field", "tls_ca_pin");
    }

    @Test
    void extrasSchemeIsHttpOrHttps() {
        TargetValidation.checkExtras(Map.of());
        TargetValidation.checkExtras(Map.of("scheme", "http", "other", 1));
        TargetValidation.checkExtras(Map.of("scheme", "https"));
        DomainException typo = refusal(() -> TargetValidation.checkExtras(Map.of("scheme", "htps")));
        assertThat(typo.code()).isEqualTo("invalid_extras");
        assertThat(typo.extras()).containsEntry("field", "extras.scheme");
    }

    @Test
    void aTakenNameIsTargetExistsATakenAliasIsAliasInUse() {
        TargetStore.Row row = new TargetStore.Row(UUID.randomUUID(), "pve1", List.of("lab"), "proxmox", "10.0.0.1", null,
                null, "tenants/x/pve1", TargetValidation.DEFAULT_AUTH_MODEL, false, null, null, true, null, null, Map.of(),
                null, null, null, null);
        TargetValidation.requireFree(row, List.of());
        assertThat(refusal(() -> TargetValidation.requireFree(row, List.of("pve1", "lab"))).code()).isEqualTo("target_exists");
        DomainException alias = refusal(() -> TargetValidation.requireFree(row, List.of("lab")));
        assertThat(alias.code()).isEqualTo("alias_in_use");
        assertThat(alias.extras()).containsEntry("taken", List.of("lab"));
    }

    @Test
    void anImportIsRefusedWholeWhenEmptyHoldingANullOrNamingATargetTwice() {
        assertThat(refusal(() -> TargetImport.checkShape(List.of())).getMessage()).contains("holds no targets");
        assertThat(refusal(() -> TargetImport.checkShape(Arrays.asList(fields("a"), null))).extras().toString())
                .contains("null_target");
        DomainException twice = refusal(() -> TargetImport.checkShape(List.of(fields("a"), fields("b"), fields("a"))));
        assertThat(twice.code()).isEqualTo(TargetErrors.INVALID_IMPORT.error("x").code());
        assertThat(twice.extras().get("errors")).asList().singleElement().asString().contains("index=2")
                .contains("duplicate_name");
        TargetImport.checkShape(List.of(fields("a"), fields("b")));
    }

    private static TargetFields fields(String name) {
        return new TargetFields(Optional.of(name), null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null);
    }
}
