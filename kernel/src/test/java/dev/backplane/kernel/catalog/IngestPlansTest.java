package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.kernel.catalog.IngestPlans.Plan;
import dev.backplane.kernel.catalog.SpecIngestService.IngestRequest;
import dev.backplane.kernel.catalog.SpecIngestService.SpecUpload;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The ingest request's rules without a database: scope, mode, names, the spec size cap, the port range. */
class IngestPlansTest {

    private static final UUID TENANT = UUID.fromString("00000000-0000-0000-0000-0000000000a1");
    private static final UUID OTHER = UUID.fromString("00000000-0000-0000-0000-0000000000b2");
    private static final long CAP = 10;
    /** Manual mode never reads the catalog index, so no registry. */
    private final IngestPlans plans = new IngestPlans(null, CAP);

    private static Caller caller(boolean platformAdmin) {
        return new Caller("admin-1", Optional.empty(), Optional.of(TENANT), TENANT, Role.TENANT_ADMIN, platformAdmin,
                PrincipalKind.HUMAN, Optional.of("cli"));
    }

    private static IngestRequest manual(String product, String version, String impl, List<SpecUpload> specs,
                                        String scheme, List<String> secretFields, Integer port, String tenant) {
        return new IngestRequest(Optional.empty(), Optional.ofNullable(product), Optional.ofNullable(version),
                Optional.ofNullable(impl), specs, Optional.ofNullable(scheme), secretFields, Map.of(), List.of(),
                false, Optional.ofNullable(tenant), Optional.ofNullable(port));
    }

    private static IngestRequest manual(List<SpecUpload> specs, Integer port) {
        return manual("harbor", "2.10", null, specs, null, null, port, TENANT.toString());
    }

    private DomainException rejected(Caller caller, IngestRequest req) {
        DomainException e = catchThrowableOfType(DomainException.class, () -> plans.plan(caller, req));
        assertThat(e).as("the request is rejected").isNotNull();
        return e;
    }

    @Test
    void aBasePathIsAnAbsolutePathOrRefused() {
        List<SpecUpload> spec = List.of(new SpecUpload("a.yaml", "12345"));
        IngestRequest base = manual(spec, null);
        java.util.function.Function<String, IngestRequest> with = p -> new IngestRequest(base.catalog(), base.product(),
                base.version(), base.impl(), base.specs(), base.authScheme(), base.authSecretFields(),
                base.authSettings(), base.specInfoVersionsCompatible(), base.dryRun(), base.tenantId(),
                base.defaultPort(), null, Optional.of(p));
        assertThat(plans.plan(caller(false), with.apply("/gitea/api/v1/")).basePath()).contains("/gitea/api/v1");
        assertThat(plans.plan(caller(false), with.apply("/")).basePath()).contains("");
        assertThat(plans.plan(caller(false), base).basePath()).isEmpty();
        for (String bad : List.of("api/v1", "/{{AppSubUrl}}/api", "/a/../b", "/a?x=1", "/a#f", "", "/" + "a".repeat(200),
                "https://x.example.com/api")) {
            DomainException e = rejected(caller(false), with.apply(bad));
            assertThat(e.code()).as(bad).isEqualTo("invalid_request");
            assertThat(e.extras()).as(bad).containsEntry("field", "base_path");
        }
    }

    @Test
    void aValidManualRequestBecomesAPlanForItsOwnTenant() {
        Plan plan = plans.plan(caller(false), manual(List.of(new SpecUpload("a.yaml", "12345"),
                new SpecUpload(null, "67890")), null));
        assertThat(plan.connectorId()).isEqualTo("harbor-2.10");
        assertThat(plan.implId()).isEqualTo("harbor");
        assertThat(plan.defaultPort()).isEqualTo(443);
        assertThat(plan.bytes()).isEqualTo(10);
        assertThat(plan.sources()).hasSize(2);
        assertThat(plan.auth().scheme()).isEqualTo("none");
        assertThat(plan.owner()).contains(TENANT);
        assertThat(plan.source()).isEqualTo("manual");
        assertThat(plan.dryRun()).isFalse();
    }

    @Test
    void aSpecOverTheCapIsTooLargeAndOneAtTheCapIsNot() {
        DomainException e = rejected(caller(false), manual(List.of(new SpecUpload("big.yaml", "12345678901")), null));
        assertThat(e.code()).isEqualTo("spec_too_large");
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID);
        assertThat(e.getMessage()).contains("big.yaml is 11 bytes").contains("cap is 10");
        assertThat(plans.plan(caller(false), manual(List.of(new SpecUpload("ok.yaml", "1234567890")), null)).bytes())
                .isEqualTo(10);
    }

    @Test
    void theCapCountsUtf8BytesNotCharacters() {
        DomainException e = rejected(caller(false), manual(List.of(new SpecUpload("u.yaml", "ééééé" + "é")), null));
        assertThat(e.code()).isEqualTo("spec_too_large");
    }

    @Test
    void theDefaultPortMustBeAPort() {
        for (int bad : new int[] {0, 65536, -1}) {
            DomainException e = rejected(caller(false), manual(List.of(new SpecUpload("a", "x")), bad));
            assertThat(e.code()).isEqualTo("invalid_request");
            assertThat(e.extras()).containsEntry("field", "default_port");
        }
        assertThat(plans.plan(caller(false), manual(List.of(new SpecUpload("a", "x")), 65535)).defaultPort())
                .isEqualTo(65535);
        assertThat(plans.plan(caller(false), manual(List.of(new SpecUpload("a", "x")), 1)).defaultPort()).isEqualTo(1);
    }

    @Test
    void catalogAndManualModeAreExclusiveAndOneIsNeeded() {
        IngestRequest both = new IngestRequest(Optional.of("harbor/2.10"), Optional.of("harbor"), Optional.empty(),
                Optional.empty(), List.of(), Optional.empty(), List.of(), Map.of(), List.of(), false,
                Optional.of(TENANT.toString()), Optional.empty());
        assertThat(rejected(caller(false), both).code()).isEqualTo("invalid_ingest_mode");
        IngestRequest neither = new IngestRequest(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), Optional.empty(), List.of(), Map.of(), List.of(), false,
                Optional.of(TENANT.toString()), Optional.empty());
        assertThat(rejected(caller(false), neither).code()).isEqualTo("invalid_ingest_mode");
    }

    @Test
    void namesMustHaveTheirShapes() {
        List<SpecUpload> spec = List.of(new SpecUpload("a", "x"));
        DomainException product = rejected(caller(false), manual("Harbor", "1", null, spec, null, null, null,
                TENANT.toString()));
        assertThat(product.extras()).containsEntry("field", "product");
        DomainException version = rejected(caller(false), manual("harbor", "1/2", null, spec, null, null, null,
                TENANT.toString()));
        assertThat(version.extras()).containsEntry("field", "version");
        DomainException impl = rejected(caller(false), manual("harbor", "1", "my--impl", spec, null, null, null,
                TENANT.toString()));
        assertThat(impl.extras()).containsEntry("field", "impl");
        assertThat(plans.plan(caller(false), manual("harbor", "23.x", "harbor-ce", spec, null, null, null,
                TENANT.toString())).connectorId()).isEqualTo("harbor-ce-23.x");
        DomainException blank = rejected(caller(false), manual(List.of(new SpecUpload("a", "  ")), null));
        assertThat(blank.extras()).containsEntry("field", "specs");
    }

    @Test
    void authSchemeRules() {
        List<SpecUpload> spec = List.of(new SpecUpload("a", "x"));
        assertThat(rejected(caller(false), manual("harbor", "1", null, spec, null, List.of("token"), null,
                TENANT.toString())).code()).isEqualTo("auth_secret_field_without_scheme");
        DomainException unknown = rejected(caller(false), manual("harbor", "1", null, spec, "kerberos", null, null,
                TENANT.toString()));
        assertThat(unknown.code()).isEqualTo("invalid_auth_scheme");
        Plan basic = plans.plan(caller(false), manual("harbor", "1", null, spec, "basic", null, null,
                TENANT.toString()));
        assertThat(basic.auth().secretFields()).containsExactly("username", "password");
    }

    @Test
    void onlyAPlatformAdminWritesGlobalOrAnotherTenant() {
        DomainException global = rejected(caller(false), manual("harbor", "1", null,
                List.of(new SpecUpload("a", "x")), null, null, null, null));
        assertThat(global.code()).isEqualTo("insufficient_role");
        assertThat(global.extras()).containsEntry("required_role", "platform_admin");
        assertThat(IngestPlans.owner(caller(true), Optional.empty())).isEmpty();
        DomainException other = catchThrowableOfType(DomainException.class,
                () -> IngestPlans.owner(caller(false), Optional.of(OTHER.toString())));
        assertThat(other.code()).isEqualTo("tenant_forbidden");
        assertThat(other.kind()).isEqualTo(ErrorKind.FORBIDDEN);
        assertThat(IngestPlans.owner(caller(true), Optional.of(OTHER.toString()))).contains(OTHER);
        assertThat(IngestPlans.owner(caller(false), Optional.of(" " + TENANT + " "))).contains(TENANT);
        DomainException notUuid = catchThrowableOfType(DomainException.class,
                () -> IngestPlans.owner(caller(false), Optional.of("acme")));
        assertThat(notUuid.code()).isEqualTo("invalid_tenant_id");
    }
}
