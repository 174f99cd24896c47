package io.millrace.broker.txn;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.message.DescribeTransactionsRequest;

/** DescribeTransactions (api key 65): {@link TransactionListings#describe}. */
public final class DescribeTransactionsHandler implements ApiHandler {

    private final TransactionListings listings;

    public DescribeTransactionsHandler(TransactionListings listings) {
        this.listings = listings;
    }

    @Override
    public void handle(Request request) {
        DescribeTransactionsRequest body = request.body();
        request.respond(listings.describe(body.transactionalIds()));
    }
}
