package dev.backplane.cli.events;

import picocli.CommandLine.Command;

/** {@code svc events list|show}: the durable event log. */
@Command(name = "events", description = "The event log: accepted webhook deliveries, normalised.",
        subcommands = {ListEvents.class, Show.class})
public final class EventsCommand {
}
