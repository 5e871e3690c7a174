package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs collections enable} */
@Command(name = "enable", description = "Return a collection to search [tenant_admin].")
final class Enable extends StateVerb {
}
