package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * {@code --json} and {@code -o table|wide|json|yaml|jsonpath=<expr>}, the output options of every command that prints
 * data. {@code -o json} is {@code --json}; without either the default is {@code SVC_OUTPUT}, else the context's
 * output default, else {@code table} (see {@link #defaultTo}).
 */
public final class OutputOptions {

    @Option(names = "--json", description = "print the data as JSON (as the server sent it); same as -o json")
    boolean json;

    @Option(names = {"-o", "--output"}, paramLabel = "<format>", converter = OutputFormat.Converter.class,
            completionCandidates = OutputFormat.Candidates.class,
            description = "output format: table (default; fitted to the terminal), wide (every cell whole), json "
                    + "(= --json), yaml, or jsonpath=<expr> (what a JSONPath selects, one value per line); "
                    + "default SVC_OUTPUT or the context's")
    OutputFormat output;

    private OutputFormat fallback = OutputFormat.TABLE;

    /** The format when neither {@code -o} nor {@code --json} is given ({@code SVC_OUTPUT}, the context's default). */
    public void defaultTo(OutputFormat format) {
        this.fallback = format;
    }

    /** Whether {@code -o} or {@code --json} was given (then no default applies). */
    public boolean named() {
        return json || output != null;
    }

    /** The format asked for; {@code --json} with a different {@code -o} is a usage error. */
    public OutputFormat format() {
        if (json && output != null && output.kind() != OutputFormat.Kind.JSON) {
            throw CliException.usage("--json and -o " + output.label() + " ask for different outputs; pass one");
        }
        if (json) {
            return OutputFormat.JSON;
        }
        return output == null ? fallback : output;
    }

    /** Whether a document (JSON, YAML or a JSONPath selection) is printed instead of the human render. */
    public boolean json() {
        return format().machine();
    }

    /** Prints {@code document} in the chosen document format (JSON, YAML or a JSONPath selection). */
    public void print(PrintWriter out, JsonNode document) {
        out.println(format().render(document));
    }
}
