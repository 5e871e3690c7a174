package dev.backplane.cli.topology;

import picocli.CommandLine.Option;

/** {@code --since} and {@code --until} of history and timeline: each ISO 8601 or an age. */
final class TimeWindow {

    @Option(names = "--since", paramLabel = "<time>", description = "ISO 8601 or an age (30m, 24h, 7d, 2w)")
    String since;

    @Option(names = "--until", paramLabel = "<time>", description = "ISO 8601 or an age") String until;
}
