/**
 * Tenants and their policies: a tenant is minted by the identity provider and recorded the first time one of its
 * tokens is seen, with principals' display names beside it, and each tenant's {@link
 * dev.backplane.kernel.tenancy.FlightRecorderPolicy} and {@link dev.backplane.kernel.tenancy.MailRecipientPolicy}
 * (whom notification mail may go to; unset denies all), in the four {@code tenancy_*} tables. {@link
 * dev.backplane.kernel.tenancy.TenantService} holds the rules and implements {@code identity.TenantDirectory} for
 * the authenticator; {@code TenantStore} holds the SQL. {@link dev.backplane.kernel.tenancy.TenancyRoutes} stay
 * thin: reads for read_only, writes for tenant_admin, always on the tenant the caller acts on. Dashboards check
 * their recipients against the mail policy here; this package sends no mail.
 */
package dev.backplane.kernel.tenancy;
