package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** {@code svc connector catalog} */
@Command(name = "catalog", description = "The product catalog.", subcommands = {CatalogList.class})
final class CatalogCmd {
}
