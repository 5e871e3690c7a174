package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where the notifications about one request go before its response: the transport's side of a
 * request, kept out of {@link McpServer} so the protocol does not know about HTTP.
 */
interface McpStream {

    /** Whether the client takes a stream ({@code Accept: text/event-stream}); if not, nothing is notified. */
    boolean streamable();

    /** Sends one JSON-RPC notification ahead of the response; a client that went away is not an error. */
    void notify(ObjectNode notification);
}
