package io.millrace.broker.server;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeClusterRequest;
import io.millrace.common.protocol.message.DescribeClusterResponse;
import java.util.List;

/**
 * The live brokers, the controller and the cluster id from one snapshot of the metadata cache, as
 * AdminClient's describeCluster and the tools built on it (kafka-cluster, kafka-broker-api-versions)
 * ask for them. The cluster id is the one Metadata answers. No broker is ever fenced, and since
 * Millrace has no authorizer no authorized operations are reported. A client asking for the
 * controllers' endpoints (KRaft's bootstrap.controllers) gets MISMATCHED_ENDPOINT_TYPE, as from
 * a Kafka broker: Millrace's controller is a broker.
 */
final class DescribeClusterHandler implements ApiHandler {

    private final MetadataCache metadata;

    DescribeClusterHandler(MetadataCache metadata) {
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        DescribeClusterRequest body = request.body();
        if (body.endpointType() != DescribeClusterRequest.ENDPOINT_BROKERS) {
            request.respond(new DescribeClusterResponse(0, Errors.MISMATCHED_ENDPOINT_TYPE.code(), "The request was sent to "
                + "a broker endpoint, but asked for endpoint type " + body.endpointType(), body.endpointType(),
                MetadataHandler.CLUSTER_ID, ClusterSnapshot.NO_CONTROLLER, List.of(),
                DescribeClusterResponse.OPERATIONS_NOT_ASKED));
            return;
        }
        ClusterSnapshot snapshot = metadata.snapshot();
        List<DescribeClusterResponse.Broker> brokers = snapshot.liveBrokers().stream().map(DescribeClusterHandler::broker)
            .toList();
        request.respond(new DescribeClusterResponse(0, Errors.NONE.code(), null, DescribeClusterRequest.ENDPOINT_BROKERS,
            MetadataHandler.CLUSTER_ID, snapshot.controllerId(), brokers, DescribeClusterResponse.OPERATIONS_NOT_ASKED));
    }

    private static DescribeClusterResponse.Broker broker(BrokerInfo broker) {
        return new DescribeClusterResponse.Broker(broker.id(), broker.host(), broker.port(), broker.rack(), false);
    }
}
