package io.millrace.broker.txn;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.message.ListTransactionsRequest;

/** ListTransactions (api key 66): {@link TransactionListings#list}. */
public final class ListTransactionsHandler implements ApiHandler {

    private final TransactionListings listings;

    public ListTransactionsHandler(TransactionListings listings) {
        this.listings = listings;
    }

    @Override
    public void handle(Request request) {
        ListTransactionsRequest body = request.body();
        request.respond(listings.list(body));
    }
}
