package dev.backplane.kernel.retrieval;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waiting for work another thread runs (a slice being read, a lexical ranking beside an embedding). */
final class Futures {

    private Futures() {
    }

    /** A future's value, its failure rethrown as it was raised (not wrapped in a CompletionException). */
    static <S> S joined(CompletableFuture<S> running) {
        try {
            return running.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
