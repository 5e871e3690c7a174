package dev.backplane.cli.events;

import picocli.CommandLine.Command;

/** {@code svc event-source pause} */
@Command(name = "pause", description = "Pause a source [tenant_admin]: its URL answers 404 like a missing one.")
final class Pause extends StatusChange {
}
