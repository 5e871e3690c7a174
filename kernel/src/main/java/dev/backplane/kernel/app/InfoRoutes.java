package dev.backplane.kernel.app;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import io.helidon.http.Method;

/**
 * {@code GET /api/v1/info}: public facts a client needs before it has a token: the backplane's
 * version and REST API level, and where and how to log in (issuer, CLI client id, audience); and which vector index
 * serves retrieval ({@code pgvector-hnsw} or {@code jvm-hnsw}) and with which embedding model (and the one being filled
 * in while {@code retrieval.model} changes), so an operator sees which path is on.
 */
final class InfoRoutes {

    /** What the backplane advertises. */
    record Info(String name, String version, String apiLevel, String gitCommit, String buildTime, String issuer,
                String cliClientId, String audience, String mcpAudience, String vectorIndex, String embeddingModel,
                String embeddingModelFilling) {
    }

    private final BuildInfo build;
    private final KernelConfig config;
    private final String mcpAudience;
    private final RetrievalEngine retrieval;

    InfoRoutes(BuildInfo build, KernelConfig config, String mcpAudience, RetrievalEngine retrieval) {
        this.build = build;
        this.config = config;
        this.mcpAudience = mcpAudience;
        this.retrieval = retrieval;
    }

    Info info() {
        RetrievalEngine.ModelStatus model = retrieval.model();
        return new Info("svc backplane", build.version(), build.apiLevel(), build.gitCommit(), build.buildTime(),
                config.required(Setting.IDENTITY_ISSUER), config.get(Setting.IDENTITY_CLI_CLIENT_ID),
                config.get(Setting.IDENTITY_AUDIENCE), mcpAudience, retrieval.vectorIndex(), model.active(),
                model.filling().orElse(null));
    }

    void register(ApiRoutes api) {
        api.publicRoute(Method.GET, "/api/v1/info", (req, res) -> Json.ok(res, info()));
    }
}
