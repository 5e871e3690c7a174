/**
 * Notifications: telling a tenant's approvers when a call parks and when its approval request is decided
 * (approved, rejected, withdrawn) or expires. The approvals' transitions write rows into a durable outbox in their
 * own transaction ({@link dev.backplane.kernel.governance.ApprovalEvents}); a delivery job sends each row as mail
 * (through the dashboards' mailer, each recipient checked against the tenant's mail-recipient policy) or as an
 * outbound webhook (json, Slack- or Teams-compatible, signed with Standard Webhooks HMAC-SHA256, its secret by
 * secret_ref, dialled through the egress proxy), retries with a capped exponential backoff and audits every
 * outcome. A message carries the request as approvers see it, never its params. Owns {@code notification_settings}
 * and {@code notification_outbox}.
 */
package dev.backplane.kernel.notifications;
