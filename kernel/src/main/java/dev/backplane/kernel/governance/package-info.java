/**
 * Who may do what: {@link dev.backplane.kernel.governance.PolicyGate} answers Allow, Deny or Park for a call
 * in a fixed order (default-deny review state, the principal's grants or safety-level fallback, the preview
 * proof a dangerous operation needs, then parking), and only the dispatcher asks it. Its inputs are kept here:
 * agent principals and their kill switch ({@link dev.backplane.kernel.governance.AgentPrincipals}, {@code
 * governance_agent_principals}), agent grants ({@link dev.backplane.kernel.governance.Grants}, {@code
 * governance_grants}) and service-principal grants ({@link dev.backplane.kernel.governance.ServiceGrants},
 * {@code governance_service_grants}). {@link dev.backplane.kernel.governance.Approvals} holds parked calls
 * ({@code governance_approvals}) until someone other than the requester approves them (or an audited
 * break-glass is used), they are rejected, or they expire. Approving hands the released call back to the
 * dispatch pipeline through a runner the wiring supplies; this package never calls a plugin itself. The SQL of
 * these tables lives in the stores ({@code ApprovalStore}, {@code AgentPrincipalStore}, {@code GrantStore}); an
 * approval's life cycle is {@link dev.backplane.kernel.governance.ApprovalStatus}, the four-eyes rule {@code
 * FourEyes}.
 */
package dev.backplane.kernel.governance;
