/**
 * The audit log ({@code audit_rows}): {@link dev.backplane.kernel.audit.AuditLog} writes exactly one row per
 * dispatch, begun as {@code started} before the target is called (fail-closed: a row that cannot be written
 * means the target is never called) and finished with the outcome; rows hold a hash of the params, never
 * their values or a secret, and their extras are bounded. {@link dev.backplane.kernel.audit.AuditQueries}
 * reads the log (filters and a cursor, show, session replay, who touched a target, reflex), and every read
 * through {@link dev.backplane.kernel.audit.AuditRoutes} is itself audited. {@link
 * dev.backplane.kernel.audit.GovernanceAudit} is the governance trail, registered on the route table: a row
 * for every state-changing REST request that succeeded, keeping the body fields a route lists as plain and
 * every other field as a digest and size. The rows are written by their callers (dispatch, approvals, events,
 * agents, docs); this package records and reads, it decides nothing about what is allowed.
 */
package dev.backplane.kernel.audit;
