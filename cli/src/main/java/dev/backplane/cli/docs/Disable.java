package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs collections disable} */
@Command(name = "disable", description = "Hide a collection from search [tenant_admin].")
final class Disable extends StateVerb {
}
