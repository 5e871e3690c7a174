package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.governance.ApprovalRoutes;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a call starts, whoever starts it: now ({@link #call}), in the background with a run handle
 * ({@link #start}), or released by an approval ({@link #run}). All three end in the one
 * {@link Dispatcher}; route classes and the wiring hold no dispatch logic.
 */
public final class OperationCalls implements ApprovalRoutes.ParkedCallRunner {

    private final Dispatcher dispatcher;
    private final AsyncRuns runs;

    public OperationCalls(Dispatcher dispatcher, AsyncRuns runs) {
        this.dispatcher = dispatcher;
        this.runs = runs;
    }

    /** Runs the call through the pipeline and answers its envelope. */
    public ResultEnvelope call(Caller caller, CallRequest req) {
        return dispatcher.call(caller, req);
    }

    /**
     * Starts the call in the background and answers its run handle. An unknown connector, operation or
     * target answers its error at once: no handle is handed out for a call that cannot start.
     */
    public AsyncRuns.Run start(Caller caller, CallRequest req) {
        CallRequest sync = new CallRequest(req.connectorId(), req.opId(), req.target(), req.params(), req.workRef(),
                req.previewHash(), Optional.empty());
        dispatcher.checkResolvable(caller, sync);
        return runs.start(caller.tenantId(), caller.sub(), sync,
                Digests.sha256Hex(JsonMapping.write(new TreeMap<>(req.params()))), () -> dispatcher.call(caller, sync));
    }

    /** Runs a call an approver released: now (its envelope) or in the background (a run handle). */
    @Override
    public Object run(Caller approver, Approvals.Released released, boolean async) {
        if (!async) {
            return dispatcher.executeApproved(approver.tenantId(), released);
        }
        Approvals.Approval a = released.approval();
        CallRequest call = new CallRequest(a.connectorId(), a.opId(), a.target(), released.params(), a.workRef(),
                Optional.empty(), Optional.empty());
        return runs.start(approver.tenantId(), approver.sub(), call, "approval:" + a.id(),
                () -> dispatcher.executeApproved(approver.tenantId(), released));
    }
}
