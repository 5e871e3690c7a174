/**
 * The MCP endpoint: {@code /mcp} over Streamable HTTP, JSON-RPC 2.0 one message per POST, for the handshake
 * revisions and the stateless 2026-07-28 one, with its OAuth protected-resource metadata. {@link
 * dev.backplane.kernel.mcp.McpRoutes} checks each message (Origin, a bearer token for the MCP audience, scope,
 * protocol headers) and hands it to the protocol server, which lists and runs the agent tools of a
 * {@link dev.backplane.kernel.tools.ToolRegistry} (the capabilities declare them; agent runs read the same
 * registry). It stores nothing: a session's log level is a bounded in-memory cache and the audit session id is
 * derived from the caller and a client-sent value. This is the only package that turns an {@code ErrorKind} into a
 * JSON-RPC error.
 */
package dev.backplane.kernel.mcp;
