package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.testing.GeneratedReference;
import dev.backplane.kernel.tools.Tool;
import org.junit.jupiter.api.Test;

/** {@code docs/reference/mcp-tools.md} is what the tool registry generates: a new or changed tool shows in it. */
class McpToolsReferenceTest {

    @Test
    void theCommittedMcpToolsReferenceIsWhatTheRegistryGenerates() throws Exception {
        GeneratedReference.check(McpToolsReference.FILE, McpToolsReference.markdown());
    }

    @Test
    void everyToolHasItsSectionWithTheRoleItNeeds() {
        String md = McpToolsReference.markdown();
        assertThat(McpToolsReference.tools()).extracting(Tool::name)
                .contains("call_operation", "search_knowledge", "add_to_memory", "search_docs")
                .doesNotHaveDuplicates();
        for (Tool t : McpToolsReference.tools()) {
            assertThat(md).as(t.name()).contains("\n## " + t.name() + "\n\nRole: " + t.role().wireName() + " and up.");
        }
        assertThat(md).contains("| [`add_to_knowledge`](#add_to_knowledge) | " + Role.TENANT_ADMIN.wireName() + " |")
                .contains("| `limit` | integer (1..50) |  |");
    }
}
