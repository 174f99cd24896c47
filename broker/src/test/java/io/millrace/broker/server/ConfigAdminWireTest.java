package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LogConfig;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterConfigsRequest;
import io.millrace.common.protocol.message.AlterConfigsResponse;
import io.millrace.common.protocol.message.DescribeClusterRequest;
import io.millrace.common.protocol.message.DescribeClusterResponse;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import io.millrace.common.protocol.message.DescribeConfigsResponse;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig;
import io.millrace.common.protocol.message.IncrementalAlterConfigsResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * The configuration admin APIs and DescribeCluster at every version, over a raw connection: the
 * older AlterConfigs (which replaces a topic's whole set of overrides and which Kafka 4's
 * AdminClient no longer sends), and requests no well-behaved client sends.
 */
public class ConfigAdminWireTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void alterConfigsReplacesTheTopicsWholeSetOfOverridesAtEveryVersion() throws Exception {
        for (short v = ApiKey.ALTER_CONFIGS.minVersion(); v <= ApiKey.ALTER_CONFIGS.maxVersion(); v++) {
            String topic = "replaced-" + v;
            CLUSTER.createTopic(topic, 1, Map.of("retention.ms", "5000", "max.message.bytes", "3000"));
            AlterConfigsResponse response = alterConfigs(topic, v, false, new AlterConfigsRequest.AlterableConfig("segment.ms", "60000"));
            assertEquals(List.of(new AlterConfigsResponse.Result(Errors.NONE.code(), null, DescribeConfigsRequest.TOPIC, topic)),
                response.responses());
            Conditions.waitUntil(() -> CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow().config().retentionMs()
                == LogConfig.defaults().retentionMs(), "retention.ms back at the broker's value");
            assertEquals(Map.of("segment.ms", "60000"), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
            assertEquals(LogConfig.DEFAULT_MAX_MESSAGE_BYTES,
                CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow().config().maxMessageBytes());
        }
    }

    @Test
    public void alterConfigsRefusesMissingValuesUnknownNamesAndBrokerChangesAndHonoursValidateOnly() throws Exception {
        String topic = "kept";
        CLUSTER.createTopic(topic, 1, Map.of("retention.ms", "5000"));
        short v = ApiKey.ALTER_CONFIGS.maxVersion();
        assertError(Errors.INVALID_CONFIG, "needs a value",
            alterConfigs(topic, v, false, new AlterConfigsRequest.AlterableConfig("retention.ms", null)));
        assertError(Errors.INVALID_CONFIG, "Unknown topic configuration cleanup.polcy",
            alterConfigs(topic, v, false, new AlterConfigsRequest.AlterableConfig("cleanup.polcy", "delete")));
        assertError(Errors.INVALID_REQUEST, "duplicate config keys", alterConfigs(topic, v, false,
            new AlterConfigsRequest.AlterableConfig("retention.ms", "1"), new AlterConfigsRequest.AlterableConfig("retention.ms", "2")));
        assertError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "does not exist",
            alterConfigs("absent", v, false, new AlterConfigsRequest.AlterableConfig("retention.ms", "1")));
        assertEquals(Errors.NONE, alterConfigs(topic, v, true).responses().get(0).error());
        AlterConfigsResponse broker = call(new AlterConfigsRequest(List.of(new AlterConfigsRequest.Resource(
            DescribeConfigsRequest.BROKER, "0", List.of(new AlterConfigsRequest.AlterableConfig("num.partitions", "3")))), false), v);
        assertError(Errors.INVALID_REQUEST, "Cannot update these configs dynamically", broker);
        Thread.sleep(200);
        assertEquals(Map.of("retention.ms", "5000"), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
    }

    @Test
    public void incrementalAlterConfigsRefusesWhatNoWellBehavedClientSends() throws Exception {
        String topic = "odd-requests";
        CLUSTER.createTopic(topic, 1, Map.of());
        for (short v = ApiKey.INCREMENTAL_ALTER_CONFIGS.minVersion(); v <= ApiKey.INCREMENTAL_ALTER_CONFIGS.maxVersion(); v++) {
            IncrementalAlterConfigsResponse response = call(new IncrementalAlterConfigsRequest(List.of(
                resource(DescribeConfigsRequest.TOPIC, topic, new AlterableConfig("retention.ms", IncrementalAlterConfigsRequest.SET, "1"),
                    new AlterableConfig("retention.ms", IncrementalAlterConfigsRequest.DELETE, null)),
                resource(DescribeConfigsRequest.TOPIC, "twice", new AlterableConfig("retention.ms", (byte) 9, "1")),
                resource(DescribeConfigsRequest.TOPIC, "twice"),
                resource((byte) 16, "metrics"),
                resource(DescribeConfigsRequest.BROKER, "7", new AlterableConfig("num.partitions", IncrementalAlterConfigsRequest.SET, "2"))),
                false), v);
            List<IncrementalAlterConfigsResponse.Result> results = response.responses();
            assertEquals(5, results.size());
            assertTrue(results.get(0).errorMessage(), results.get(0).errorMessage().contains("duplicate config keys"));
            assertEquals(Errors.INVALID_REQUEST, results.get(1).error());
            assertEquals(Errors.INVALID_REQUEST, results.get(2).error());
            assertTrue(results.get(3).errorMessage(), results.get(3).errorMessage().contains("resource type 16"));
            assertTrue(results.get(4).errorMessage(), results.get(4).errorMessage().contains("Unexpected broker id"));
            assertTrue(results.stream().allMatch(r -> r.error() == Errors.INVALID_REQUEST));
            IncrementalAlterConfigsResponse unknownOperation = call(new IncrementalAlterConfigsRequest(List.of(
                resource(DescribeConfigsRequest.TOPIC, topic, new AlterableConfig("retention.ms", (byte) 9, "1"))), false), v);
            assertEquals(Errors.INVALID_REQUEST, unknownOperation.responses().get(0).error());
            IncrementalAlterConfigsResponse setNull = call(new IncrementalAlterConfigsRequest(List.of(
                resource(DescribeConfigsRequest.TOPIC, topic, new AlterableConfig("retention.ms", IncrementalAlterConfigsRequest.SET, null))),
                false), v);
            assertEquals(Errors.INVALID_CONFIG, setNull.responses().get(0).error());
        }
        assertEquals(Map.of(), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
    }

    @Test
    public void describeClusterAnswersEveryVersionAndRefusesTheControllersEndpointType() throws Exception {
        // A broker serves once it has started; its controller election may still be under way (-1 until then).
        Conditions.waitUntil(() -> CLUSTER.broker(0).cluster().metadata().snapshot().controllerId() == 0,
            "broker 0 to be elected controller");
        for (short v = ApiKey.DESCRIBE_CLUSTER.minVersion(); v <= ApiKey.DESCRIBE_CLUSTER.maxVersion(); v++) {
            DescribeClusterResponse response = call(new DescribeClusterRequest(true, DescribeClusterRequest.ENDPOINT_BROKERS, true), v);
            assertEquals(Errors.NONE, response.error());
            assertEquals(MetadataHandler.CLUSTER_ID, response.clusterId());
            assertEquals(0, response.controllerId());
            assertEquals(List.of(new DescribeClusterResponse.Broker(0, "127.0.0.1", CLUSTER.broker(0).boundPort(), null, false)),
                response.brokers());
        }
        DescribeClusterResponse controllers = call(new DescribeClusterRequest(false, DescribeClusterRequest.ENDPOINT_CONTROLLERS,
            false), (short) 1);
        assertEquals(Errors.MISMATCHED_ENDPOINT_TYPE, controllers.error());
        assertEquals(List.of(), controllers.brokers());
    }

    @Test
    public void describeConfigsAnswersOnlyForThisBrokerAndFiltersByKey() throws Exception {
        DescribeConfigsResponse response = call(new DescribeConfigsRequest(List.of(
            new DescribeConfigsRequest.Resource(DescribeConfigsRequest.BROKER, "0", List.of("num.partitions", "log.dirs")),
            new DescribeConfigsRequest.Resource(DescribeConfigsRequest.BROKER, "3", null),
            new DescribeConfigsRequest.Resource(DescribeConfigsRequest.BROKER_LOGGER, "0", null)), true, true),
            ApiKey.DESCRIBE_CONFIGS.maxVersion());
        DescribeConfigsResponse.Result self = response.results().get(0);
        assertEquals(List.of("num.partitions", "log.dirs"), self.configs().stream().map(DescribeConfigsResponse.Entry::name).sorted(
            java.util.Comparator.reverseOrder()).toList());
        DescribeConfigsResponse.Entry partitions = self.configs().stream().filter(e -> e.name().equals("num.partitions"))
            .findFirst().orElseThrow();
        assertEquals(List.of(new DescribeConfigsResponse.Synonym("num.partitions", "1", DescribeConfigsResponse.SOURCE_DEFAULT_CONFIG)),
            partitions.synonyms());
        assertTrue(partitions.documentation().contains("partitions"));
        assertEquals(Errors.INVALID_REQUEST, response.results().get(1).error());
        assertEquals(Errors.INVALID_REQUEST, response.results().get(2).error());
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static IncrementalAlterConfigsRequest.Resource resource(byte type, String name, AlterableConfig... configs) {
        return new IncrementalAlterConfigsRequest.Resource(type, name, List.of(configs));
    }

    private static AlterConfigsResponse alterConfigs(String topic, short version, boolean validateOnly,
                                                     AlterConfigsRequest.AlterableConfig... configs) throws Exception {
        return call(new AlterConfigsRequest(List.of(new AlterConfigsRequest.Resource(DescribeConfigsRequest.TOPIC, topic,
            List.of(configs))), validateOnly), version);
    }

    private static void assertError(Errors error, String messagePart, AlterConfigsResponse response) {
        AlterConfigsResponse.Result result = response.responses().get(0);
        assertEquals(result.errorMessage(), error, result.error());
        assertTrue(result.errorMessage(), result.errorMessage().contains(messagePart));
    }

    private static <T extends io.millrace.common.protocol.ApiMessage> T call(io.millrace.common.protocol.ApiMessage body,
                                                                              short version) throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            return client.call(body, version);
        }
    }
}
