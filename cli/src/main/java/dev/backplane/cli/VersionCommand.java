package dev.backplane.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/** {@code svc version}: CLI version, git commit and build time. */
@Command(name = "version", description = "Print the CLI version and build metadata.")
final class VersionCommand extends CliCommand {

    @Mixin OutputOptions output;

    @Override
    public void run() {
        if (output.json()) {
            output.print(ctx.out(), document());
        } else {
            ctx.out().println(line());
        }
    }

    static String line() {
        return "svc " + BuildInfo.version() + " (commit " + BuildInfo.value("git.commit") + ", built "
                + BuildInfo.value("build.time") + ", java " + Runtime.version() + ")";
    }

    /** The same facts as {@link #line()}, for {@code --json} and {@code -o yaml}. */
    static ObjectNode document() {
        ObjectNode doc = Http.JSON.createObjectNode();
        doc.put("version", BuildInfo.version());
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
