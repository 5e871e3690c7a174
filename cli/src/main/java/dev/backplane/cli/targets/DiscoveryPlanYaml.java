package dev.backplane.cli.targets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.backplane.cli.common.Http;
import java.io.UncheckedIOException;

/**
 * A discovery answer as a targets.yaml: a header of comments (the seed target, the product, the connector,
 * what to do next), the importable candidates under {@code targets}, then each member that is not importable
 * as it is, commented out with its reason, so an operator can fix and uncomment it. Strings are always
 * quoted, so a version such as {@code 9.1} reads back as text.
 */
final class DiscoveryPlanYaml {

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();

    /**
     * What a YAML parser takes for a line break (YAML 1.1 adds NEL, LS and PS to CR and LF): a commented-out
     * member is cut at each, so text a vendor chose (a job name in notes, a node name) cannot end the comment
     * and slip an entry into the plan.
     */
    static final String LINE_BREAK = "\r\n|[\n\r\u0085\u2028\u2029]";

    private DiscoveryPlanYaml() {
    }

    static String render(JsonNode answer, String product, String seed) {
        StringBuilder out = new StringBuilder();
        JsonNode candidates = answer.path("candidates");
        JsonNode skipped = answer.path("skipped");
        out.append("# svc targets discover ").append(product).append(" --seed-target ").append(seed).append('\n');
        out.append("# seed target: ").append(answer.path("seed_target").asText(seed)).append(" (product ")
                .append(answer.path("product").asText(product)).append(", through connector ")
                .append(answer.path("connector_id").asText("?")).append(")\n");
        out.append("# a plan: nothing is registered. ").append(candidates.size()).append(" importable candidate(s)");
        if (skipped.size() > 0) {
            out.append("; ").append(skipped.size()).append(" not importable as they are, commented out at the end");
        }
        out.append(".\n");
        if (answer.path("omitted").asInt(0) > 0) {
            out.append("# ").append(answer.path("omitted").asInt()).append(" more member(s) beyond the plan's cap "
                    + "were not checked.\n");
        }
        out.append("# Check it with: svc targets import <this file> --dry-run; then import it. Each new target reads\n"
                + "# its credential at its default secret_ref: stage it with svc targets stage-secret <name>.\n");
        ObjectNode doc = Http.JSON.createObjectNode();
        ArrayNode targets = doc.putArray("targets");
        candidates.forEach(targets::add);
        out.append(yaml(doc));
        if (skipped.size() > 0) {
            out.append("\n# not importable as they are:\n");
            for (JsonNode s : skipped) {
                out.append("#\n# ").append(oneLine(s.path("reason").asText())).append(": ")
                        .append(oneLine(s.path("message").asText())).append('\n');
                ArrayNode one = Http.JSON.createArrayNode();
                one.add(s.path("candidate"));
                for (String line : yaml(one).split(LINE_BREAK)) {
                    out.append("# ").append(line).append('\n');
                }
            }
        }
        return out.toString();
    }

    private static String yaml(JsonNode node) {
        try {
            return YAML.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The message on one comment line: every YAML line break and control character becomes a space. */
    private static String oneLine(String text) {
        return text.replaceAll("\\s*(" + LINE_BREAK + "|\\p{Cntrl})+\\s*", " ");
    }
}
