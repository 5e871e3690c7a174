package dev.backplane.cli.kb;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc kb add} */
@Command(name = "add", description = "Add an entry, or update it in place if the slug exists [tenant_admin].")
final class Add extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--body", paramLabel = "<text|@file|@->", required = true,
            description = "Markdown body: text, @file, or @- for standard input")
    String body;
    @Option(names = "--metadata", paramLabel = "k=v,...", description = "comma-separated key=value labels")
    String metadata;

    private String text;
    private Map<String, Object> meta;

    /** The body of POST /api/v1/kb. */
    @RequestBody
    record Entry(String slug, String body, Map<String, Object> metadata) {
    }

    @Override
    protected void validate() {
        if (body.equals("@-")) {
            try {
                text = new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw CliException.usage("--body @-: cannot read standard input: " + e.getMessage());
            }
        } else {
            text = dev.backplane.cli.common.TextArgs.read(body, "--body");
        }
        meta = new LinkedHashMap<>();
        if (metadata != null) {
            for (String pair : metadata.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw CliException.usage("--metadata takes key=value pairs separated by commas, got '" + pair + "'");
                }
                meta.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.KB, new Entry(slug, text, meta), r -> ctx.out().println(r.path("outcome").asText()
                + " kb entry " + slug
                + (r.path("outcome").asText().equals("unchanged") ? " (same body: not re-embedded)" : "")));
    }
}
