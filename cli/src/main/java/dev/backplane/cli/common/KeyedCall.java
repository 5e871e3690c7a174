package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import java.util.Objects;

/**
 * A verb on one thing the user names: one request on that thing's route (show, pause, resume, cancel,
 * delete, ...), without a body unless the verb gives one ({@link #body}), the answer printed through
 * the verb's {@link Render}. A verb
 * declares its key as its one positional parameter (so {@code --help} shows its own label, such as
 * {@code <trigger-id>}) and passes its call and its render to the constructor; the key is read from
 * that parameter here.
 */
public abstract class KeyedCall extends BackplaneCommand {

    private final String method;
    private final String routeTemplate;
    private final Render human;

    /**
     * @param call method and route, as in {@link ApiPaths#CALLS}: {@code "POST " + ApiPaths.TRIGGER + "/pause"};
     *     the route's one placeholder takes the key
     * @param human how the answer is shown without {@code --json}
     */
    protected KeyedCall(String call, Render human) {
        int space = call.indexOf(' ');
        this.method = call.substring(0, space);
        this.routeTemplate = call.substring(space + 1);
        this.human = human;
    }

    /** For a verb whose render reads its own fields: it overrides {@link #render}. */
    protected KeyedCall(String call) {
        this(call, null);
    }

    /** The key the user named: the verb's one positional parameter. */
    protected final String key() {
        return spec.positionalParameters().get(0).getValue().toString();
    }

    /** The query string after the route ({@link QueryString}); none unless the verb has options to send. */
    protected String query() {
        return "";
    }

    /** The request body ({@link RequestBody}); none unless the verb's options are sent. */
    protected Object body() {
        return null;
    }

    protected void render(JsonNode answer) {
        Objects.requireNonNull(human, "a verb without a Render overrides render").print(ctx, answer);
    }

    @Override
    protected void execute(Session s) {
        send(s, method, ApiPaths.expand(routeTemplate, key()) + query(), body(), this::render);
    }
}
