package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the topology capability raises (SPEC's limits answer 422 with the field named). */
public enum TopologyErrors implements ErrorCode {
    UNKNOWN_EDGE_KIND(ErrorKind.INVALID),
    INVALID_NODE_KIND(ErrorKind.INVALID),
    INVALID_NODE_NAME(ErrorKind.INVALID),
    NODE_KIND_REQUIRED(ErrorKind.INVALID),
    AMBIGUOUS_NODE(ErrorKind.INVALID),
    NODE_NOT_FOUND(ErrorKind.NOT_FOUND),
    EDGE_NOT_FOUND(ErrorKind.NOT_FOUND),
    INVALID_EDGE(ErrorKind.INVALID),
    INVALID_DEPTH(ErrorKind.INVALID),
    INVALID_MAX_HOPS(ErrorKind.INVALID),
    INVALID_SOURCE(ErrorKind.INVALID),
    TOO_MANY_EDGES(ErrorKind.INVALID),
    REFRESH_UNSUPPORTED(ErrorKind.INVALID),
    REFRESH_FAILED(ErrorKind.CONFLICT);

    private final ErrorKind kind;

    TopologyErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
