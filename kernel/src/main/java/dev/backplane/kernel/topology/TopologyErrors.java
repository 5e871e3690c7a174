package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the topology capability raises (SPEC's limits answer 422 with the field named). */
public enum TopologyErrors implements ErrorCode {
    UNKNOWN_EDGE_KIND("unknown_edge_kind", ErrorKind.INVALID),
    INVALID_NODE_KIND("invalid_node_kind", ErrorKind.INVALID),
    INVALID_NODE_NAME("invalid_node_name", ErrorKind.INVALID),
    NODE_KIND_REQUIRED("node_kind_required", ErrorKind.INVALID),
    AMBIGUOUS_NODE("ambiguous_node", ErrorKind.INVALID),
    NODE_NOT_FOUND("node_not_found", ErrorKind.NOT_FOUND),
    EDGE_NOT_FOUND("edge_not_found", ErrorKind.NOT_FOUND),
    INVALID_EDGE("invalid_edge", ErrorKind.INVALID),
    INVALID_DEPTH("invalid_depth", ErrorKind.INVALID),
    INVALID_MAX_HOPS("invalid_max_hops", ErrorKind.INVALID),
    INVALID_SOURCE("invalid_source", ErrorKind.INVALID),
    TOO_MANY_EDGES("too_many_edges", ErrorKind.INVALID),
    REFRESH_UNSUPPORTED("refresh_unsupported", ErrorKind.INVALID),
    REFRESH_FAILED("refresh_failed", ErrorKind.CONFLICT);

    private final String code;
    private final ErrorKind kind;

    TopologyErrors(String code, ErrorKind kind) {
        this.code = code;
        this.kind = kind;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
