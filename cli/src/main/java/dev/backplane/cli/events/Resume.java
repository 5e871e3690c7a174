package dev.backplane.cli.events;

import picocli.CommandLine.Command;

/** {@code svc event-source resume} */
@Command(name = "resume", description = "Resume a paused source [tenant_admin].")
final class Resume extends StatusChange {
}
