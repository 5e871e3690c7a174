package dev.backplane.cli.common;

import picocli.CommandLine.Option;

/** {@code --limit} and {@code --offset} of a list verb whose server pages hold 1 to 500 rows (100 by default). */
public final class Paging {

    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;

    @Option(names = "--offset") Integer offset;
}
