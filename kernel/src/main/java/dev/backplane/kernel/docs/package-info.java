/**
 * The experimental docs add-on: doc collections ({@code docs_collections}, {@link
 * dev.backplane.kernel.docs.DocCollections}) are named views onto external retrieval services; the backplane
 * keeps how to reach the backend, never the documents. {@link dev.backplane.kernel.docs.DocsService} searches
 * the collections a query names, merged by reciprocal rank fusion, and answers extractively with citations
 * ({@link dev.backplane.kernel.docs.GroundedAnswer}, no language model), writing one audit row per search or
 * ask with the query only as a hash. A tenant searches a collection only while it is enabled and only with
 * its capability {@code svc-docs:<key>} ({@link dev.backplane.kernel.docs.DocsCapabilities}, {@code
 * docs_collection_grants}). A backend's URL passes the SSRF guard when it is set, and every connection to it
 * goes through the egress proxy.
 */
package dev.backplane.kernel.docs;
