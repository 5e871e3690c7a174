package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Mixin;

/**
 * A verb that removes one thing the user names, only with {@code --confirm}: {@code DELETE} on its
 * route, then {@code deleted <noun> <key>}. A verb declares its key as its one positional parameter
 * (so {@code --help} shows its own label, such as {@code <slug>}) and passes the rest to the
 * constructor; the key is read from that parameter ({@link KeyedCall}).
 */
public abstract class ConfirmedDelete extends KeyedCall {

    @Mixin private ConfirmOption confirm;

    private final String noun;
    private final String consequence;

    /**
     * @param noun what is deleted, as the messages name it ({@code kb entry})
     * @param routeTemplate the route with one {@code {key}} placeholder ({@link ApiPaths})
     * @param consequence what confirming accepts, shown when {@code --confirm} is missing ({@code it cannot be restored})
     */
    protected ConfirmedDelete(String noun, String routeTemplate, String consequence) {
        super("DELETE " + routeTemplate);
        this.noun = noun;
        this.consequence = consequence;
    }

    @Override
    protected final void validate() {
        confirm.require("delete " + noun + " " + key() + ": " + consequence);
    }

    @Override
    protected final void render(JsonNode answer) {
        ctx.out().println("deleted " + noun + " " + key());
    }
}
