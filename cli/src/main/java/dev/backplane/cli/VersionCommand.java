package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code svc version}: the CLI's version, API level, git commit and build time, and — unless {@code --client} — the
 * backplane's version and API level (its public {@code /api/v1/info}), so a skew shows on both sides. The backplane
 * being unreachable or not chosen is said, not an error: this command is for finding out.
 */
@Command(name = "version", description = "Print the CLI's version and build metadata, and the backplane's version and "
        + "API level (--client: the CLI's only).")
final class VersionCommand extends CliCommand {

    @Spec CommandSpec spec;
    @Mixin OutputOptions output;
    @Option(names = "--client", description = "the CLI's version only; ask no backplane") boolean clientOnly;
    @Option(names = "--backplane", paramLabel = "<url>",
            description = "backplane URL (default: SVC_BACKPLANE, else the current context's)") String backplane;

    @Override
    public void run() {
        ObjectNode doc = document();
        if (!clientOnly) {
            doc.set("backplane", backplane());
        }
        if (output.json()) {
            output.print(ctx.out(), doc);
            return;
        }
        ctx.out().println(line());
        if (!clientOnly) {
            JsonNode b = doc.path("backplane");
            ctx.out().println(b.path("reachable").asBoolean()
                    ? "backplane " + b.path("url").asText() + ": svc backplane " + b.path("version").asText()
                    + " (API level " + b.path("api_level").asText() + ", commit " + b.path("git_commit").asText() + ")"
                    : "backplane" + (b.hasNonNull("url") ? " " + b.path("url").asText() : "") + ": "
                    + b.path("error").asText());
        }
    }

    /** The backplane's side: its info, or why there is none. */
    private ObjectNode backplane() {
        ObjectNode b = Http.JSON.createObjectNode();
        try (Session session = Session.open(ctx, Commands.global(spec), BackplaneOptions.of(backplane, null))) {
            b.put("url", session.backplane().toString());
            JsonNode info = session.client().getPublic(ApiPaths.INFO).json();
            b.put("reachable", true);
            b.put("version", info.path("version").asText());
            b.put("api_level", info.path("api_level").asText("unknown"));
            b.put("git_commit", info.path("git_commit").asText());
        } catch (CliException e) {
            b.put("reachable", false);
            b.put("error", e.getMessage());
        }
        return b;
    }

    static String line() {
        return "svc " + BuildInfo.version() + " (API level " + BuildInfo.apiLevel() + ", commit "
                + BuildInfo.value("git.commit") + ", built " + BuildInfo.value("build.time") + ", java "
                + Runtime.version() + ")";
    }

    /** The same facts as {@link #line()}, for {@code --json} and {@code -o yaml}. */
    static ObjectNode document() {
        ObjectNode doc = Http.JSON.createObjectNode();
        doc.put("version", BuildInfo.version());
        doc.put("api_level", BuildInfo.apiLevel());
        doc.put("git_commit", BuildInfo.value("git.commit"));
        doc.put("build_time", BuildInfo.value("build.time"));
        doc.put("java", Runtime.version().toString());
        return doc;
    }

    /** Feeds {@code svc --version}. */
    static final class Provider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }
}
