package dev.backplane.kernel.testing;

import java.util.UUID;

/**
 * Base of a {@link KernelTest} class whose every test acts in a tenant of its own, so that the tests of one
 * class, sharing one kernel, never see each other's rows: the class's issuer and kernel (set before the
 * class's {@code @BeforeAll} methods run) and, per test, a new tenant with its tenant_admin's, a second
 * tenant_admin's (the four-eyes approver) and its operator's tokens. A subclass that needs kernel settings annotates itself {@code @KernelTest(settings = ...)}.
 */
@KernelTest
public abstract class PerTestTenant {

    protected static TestIssuer issuer;
    protected static TestKernel kernel;
    protected final UUID tenant = UUID.randomUUID();
    protected final String admin = issuer.tenantAdmin(tenant);
    protected final String admin2 = issuer.token("admin2-" + tenant, tenant, "tenant_admin");
    protected final String operator = issuer.operator(tenant);
}
