package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A session's log level is found only by the caller who set it, under an id the server hands out. */
class McpLogLevelsTest {

    private final McpLogLevels levels = new McpLogLevels();
    private final UUID tenant = UUID.randomUUID();

    @Test
    void aLevelIsKeyedBySessionTenantAndSubject() {
        String session = McpLogLevels.newSessionId();
        levels.set(session, tenant, "alice", McpLogLevel.NOTICE);
        assertThat(levels.get(session, tenant, "alice")).contains(McpLogLevel.NOTICE);
        assertThat(levels.get(session, tenant, "mallory")).isEmpty();
        assertThat(levels.get(session, UUID.randomUUID(), "alice")).isEmpty();
        assertThat(levels.get(McpLogLevels.newSessionId(), tenant, "alice")).isEmpty();
        levels.set(session, tenant, "alice", McpLogLevel.DEBUG);
        assertThat(levels.get(session, tenant, "alice")).as("set again, replaced").contains(McpLogLevel.DEBUG);
    }

    @Test
    void onlyIdsOfTheHandedOutShapeAreSessionIds() {
        assertThat(McpLogLevels.wellFormed(McpLogLevels.newSessionId())).isTrue();
        assertThat(McpLogLevels.newSessionId()).isNotEqualTo(McpLogLevels.newSessionId());
        for (String id : new String[] {"", "x", "../../etc", UUID.randomUUID().toString().toUpperCase(),
                UUID.randomUUID() + "\n", "a".repeat(36)}) {
            assertThat(McpLogLevels.wellFormed(id)).as(id).isFalse();
        }
    }

    @Test
    void levelsParseFromTheWireAndOrderBySeverity() {
        assertThat(McpLogLevel.parse("warning")).contains(McpLogLevel.WARNING);
        assertThat(McpLogLevel.parse("WARNING")).isEmpty();
        assertThat(McpLogLevel.parse("warn")).isEmpty();
        assertThat(McpLogLevel.wireNames()).containsExactly("debug", "info", "notice", "warning", "error", "critical",
                "alert", "emergency");
        assertThat(McpLogLevel.ERROR.atLeast(McpLogLevel.WARNING)).isTrue();
        assertThat(McpLogLevel.WARNING.atLeast(McpLogLevel.WARNING)).isTrue();
        assertThat(McpLogLevel.NOTICE.atLeast(McpLogLevel.WARNING)).isFalse();
    }
}
