package dev.backplane.cli.connectors;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc connector ...}: the connector catalog and its review. */
@Command(name = "connector", description = "List, review and enable connectors and their operations.",
        subcommands = {ListConnectors.class, Review.class, Enable.class,
                Disable.class, EnableReads.class, EditGroup.class,
                EditOp.class, CatalogCmd.class, Ingest.class,
                IngestStatus.class})
public final class ConnectorCommand {
}
