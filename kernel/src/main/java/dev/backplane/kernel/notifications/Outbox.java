package dev.backplane.kernel.notifications;

import java.util.Map;
import java.util.UUID;

/**
 * One outbox row claimed for delivery: an approval's event on one channel, with the message as it was when the
 * transition committed (the request as approvers see it, no params).
 *
 * @param attempts how many deliveries were tried, this one included
 */
record Outbox(UUID id, UUID tenantId, UUID approvalId, String event, String channel, Map<String, Object> message,
              int attempts) {

    static final String MAIL = "mail";
    static final String WEBHOOK = "webhook";
}
