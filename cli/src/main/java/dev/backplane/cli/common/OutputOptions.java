package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * {@code --json} and {@code -o json|yaml|table}, the output options of every command that prints data.
 * {@code -o json} is {@code --json}, {@code -o table} the default human render.
 */
public final class OutputOptions {

    @Option(names = "--json", description = "print the data as JSON (as the server sent it); same as -o json")
    boolean json;

    @Option(names = {"-o", "--output"}, paramLabel = "json|yaml|table", converter = OutputFormat.Converter.class,
            completionCandidates = OutputFormat.Candidates.class,
            description = "output format: json (= --json), yaml (the same document as YAML) or table (default)")
    OutputFormat output;

    /** The format asked for; {@code --json} with a different {@code -o} is a usage error. */
    public OutputFormat format() {
        if (json && output != null && output != OutputFormat.JSON) {
            throw CliException.usage("--json and -o " + output.label() + " ask for different outputs; pass one");
        }
        if (json) {
            return OutputFormat.JSON;
        }
        return output == null ? OutputFormat.TABLE : output;
    }

    /** Whether a document (JSON or YAML) is printed instead of the human render. */
    public boolean json() {
        return format().machine();
    }

    /** Prints {@code document} in the chosen document format (JSON or YAML). */
    public void print(PrintWriter out, JsonNode document) {
        out.println(format().render(document));
    }
}
