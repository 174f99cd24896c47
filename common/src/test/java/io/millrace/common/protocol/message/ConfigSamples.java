package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.TOPIC;

import java.util.List;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;

/**
 * Samples of the configuration admin APIs and DescribeCluster built with Kafka's generated classes,
 * in the manner of {@link KafkaSamples}: every field a version has is set to a value other than its
 * default, and fields Kafka refuses to drop silently are set only at the versions that have them.
 */
final class ConfigSamples {

    private ConfigSamples() {
    }

    static DescribeClusterRequestData describeClusterRequest(short version) {
        DescribeClusterRequestData data = new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true);
        if (version >= 1) {
            data.setEndpointType((byte) 2);
        }
        if (version >= 2) {
            data.setIncludeFencedBrokers(true);
        }
        return data;
    }

    static DescribeClusterResponseData describeClusterResponse(short version) {
        DescribeClusterResponseData.DescribeClusterBrokerCollection brokers =
            new DescribeClusterResponseData.DescribeClusterBrokerCollection();
        brokers.add(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(1).setHost("broker-ü.example")
            .setPort(9092).setRack("rack-a").setIsFenced(version >= 2));
        brokers.add(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(2).setHost("10.0.0.2")
            .setPort(19092).setRack(null));
        DescribeClusterResponseData data = new DescribeClusterResponseData().setThrottleTimeMs(3).setErrorCode((short) 42)
            .setErrorMessage("described anyway").setClusterId("millrace-cluster").setControllerId(2).setBrokers(brokers)
            .setClusterAuthorizedOperations(0x0f);
        if (version >= 1) {
            data.setEndpointType((byte) 2);
        }
        return data;
    }

    static IncrementalAlterConfigsRequestData incrementalAlterConfigsRequest() {
        IncrementalAlterConfigsRequestData.AlterableConfigCollection topicConfigs =
            new IncrementalAlterConfigsRequestData.AlterableConfigCollection();
        topicConfigs.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("retention.ms")
            .setConfigOperation((byte) 0).setValue("3600000"));
        topicConfigs.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("segment.bytes")
            .setConfigOperation((byte) 1).setValue(null));
        topicConfigs.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("cleanup.policy")
            .setConfigOperation((byte) 2).setValue("compact,délété"));
        IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection resources =
            new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
        resources.add(new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 2)
            .setResourceName(TOPIC).setConfigs(topicConfigs));
        resources.add(new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 4)
            .setResourceName("1").setConfigs(new IncrementalAlterConfigsRequestData.AlterableConfigCollection()));
        return new IncrementalAlterConfigsRequestData().setResources(resources).setValidateOnly(true);
    }

    static IncrementalAlterConfigsResponseData incrementalAlterConfigsResponse() {
        return new IncrementalAlterConfigsResponseData().setThrottleTimeMs(9).setResponses(List.of(
            new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode((short) 0)
                .setErrorMessage(null).setResourceType((byte) 2).setResourceName(TOPIC),
            new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode((short) 40)
                .setErrorMessage("Invalid value x for configuration retention.ms").setResourceType((byte) 4)
                .setResourceName("1")));
    }

    static AlterConfigsRequestData alterConfigsRequest() {
        AlterConfigsRequestData.AlterableConfigCollection configs = new AlterConfigsRequestData.AlterableConfigCollection();
        configs.add(new AlterConfigsRequestData.AlterableConfig().setName("retention.ms").setValue("3600000"));
        configs.add(new AlterConfigsRequestData.AlterableConfig().setName("max.message.bytes").setValue(null));
        AlterConfigsRequestData.AlterConfigsResourceCollection resources =
            new AlterConfigsRequestData.AlterConfigsResourceCollection();
        resources.add(new AlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 2).setResourceName(TOPIC)
            .setConfigs(configs));
        resources.add(new AlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 4).setResourceName("")
            .setConfigs(new AlterConfigsRequestData.AlterableConfigCollection()));
        return new AlterConfigsRequestData().setResources(resources).setValidateOnly(true);
    }

    static AlterConfigsResponseData alterConfigsResponse() {
        return new AlterConfigsResponseData().setThrottleTimeMs(9).setResponses(List.of(
            new AlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode((short) 3)
                .setErrorMessage("Topic clicks-été does not exist").setResourceType((byte) 2).setResourceName(TOPIC),
            new AlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode((short) 0).setErrorMessage(null)
                .setResourceType((byte) 4).setResourceName("")));
    }
}
