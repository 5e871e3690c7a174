/**
 * Who is calling: bearer JWTs checked by {@link dev.backplane.kernel.identity.TokenVerifier} (signature against the
 * issuer's keys from {@link dev.backplane.kernel.identity.JwksKeys}, an algorithm allow-list, issuer, one audience
 * per instance, expiry and not-before), and the {@link dev.backplane.kernel.identity.Caller} a request then acts
 * as: subject, home and acting tenant, role, platform_admin and principal kind. {@link
 * dev.backplane.kernel.identity.Subjects} names the reserved {@code svc-<kind>:} subjects the backplane's own work
 * runs under (agent runs, sensors, triggers, dashboards, topology discovery), which the authenticator refuses on
 * every token. No tables, no routes and no tokens issued: the authenticator in {@code http}, the MCP endpoint and
 * the console call it, and what it must know of tenants and agent principals it asks through {@code
 * TenantDirectory} and {@code PrincipalDirectory}, implemented by {@code tenancy} and {@code governance} so that
 * identity stays below both.
 */
package dev.backplane.kernel.identity;
