/**
 * The HTTP edge every REST route shares: {@link dev.backplane.kernel.http.ApiRoutes} declares each route with
 * the least role it needs and wraps it with authentication ({@link dev.backplane.kernel.http.Authenticator}:
 * bearer token to caller, and the acting-tenant header), {@link dev.backplane.kernel.http.ErrorMapping}
 * renders every failure as the one error envelope, and {@link dev.backplane.kernel.http.Json} reads and writes
 * JSON on the wire (snake_case, unknown request fields refused). It also gives every request an id, times it,
 * refuses NUL characters and unpaired surrogates at the edge, and serves the OpenAPI document. Capabilities'
 * route classes declare their routes here and stay thin; services raise {@code DomainException} and use no
 * Helidon type, which only route classes, this package, {@code mcp} and {@code app} may.
 */
package dev.backplane.kernel.http;
