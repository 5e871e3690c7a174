package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs}: the docs add-on (experimental) — grounded search and answers over doc collections. */
@Command(name = "docs", description = "Doc collections add-on (experimental): search and ask external documentation.",
        subcommands = {Search.class, Ask.class, DocCollectionsCommand.class})
public final class DocsCommand {

    private DocsCommand() {
    }

    static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }
}
