package io.millrace.broker.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.millrace.common.errors.MillraceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The JSON stored in each kind of znode (see {@link ClusterPaths} for the layout). Every object
 * carries {@code "version":1}; readers ignore fields they do not know, so later versions can add
 * fields. Malformed data raises {@link MalformedZNodeException}. Thread-safe.
 */
final class ClusterJson {

    static final int VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ClusterJson() {
    }

    /** Data that does not parse as the JSON its path calls for. */
    static final class MalformedZNodeException extends MillraceException {
        private static final long serialVersionUID = 1L;

        MalformedZNodeException(String message) {
            super(message);
        }
    }

    static byte[] broker(BrokerInfo broker) {
        ObjectNode json = versioned();
        json.put("host", broker.host());
        json.put("port", broker.port());
        json.put("rack", broker.rack());
        json.put("timestamp", broker.timestamp());
        return bytes(json);
    }

    static BrokerInfo parseBroker(int id, byte[] data) {
        JsonNode json = parse(data);
        JsonNode rack = json.path("rack");
        try {
            return new BrokerInfo(id, text(json, "host"), integer(json, "port"),
                rack.isTextual() ? rack.asText() : null, json.path("timestamp").asLong(-1));
        } catch (IllegalArgumentException e) {
            throw new MalformedZNodeException("Broker " + id + ": " + e.getMessage());
        }
    }

    /** A topic's replica lists, partition -> [replica ids], first = preferred leader. */
    static byte[] topic(Map<Integer, List<Integer>> replicas) {
        return topic(replicas, Map.of());
    }

    /**
     * A topic's replica lists and the partitions moving to new ones: as Kafka's topic znode (version 2
     * of its format), {@code "adding_replicas"} and {@code "removing_replicas"} map a moving partition
     * to what its move adds and removes; both are left out when nothing moves.
     */
    static byte[] topic(Map<Integer, List<Integer>> replicas, Map<Integer, Reassignment> moving) {
        ObjectNode json = versioned();
        putLists(json.putObject("partitions"), replicas);
        if (!moving.isEmpty()) {
            Map<Integer, List<Integer>> adding = new TreeMap<>();
            Map<Integer, List<Integer>> removing = new TreeMap<>();
            moving.forEach((partition, move) -> {
                adding.put(partition, move.adding());
                removing.put(partition, move.removing());
            });
            putLists(json.putObject("adding_replicas"), adding);
            putLists(json.putObject("removing_replicas"), removing);
        }
        return bytes(json);
    }

    private static void putLists(ObjectNode object, Map<Integer, List<Integer>> lists) {
        new TreeMap<>(lists).forEach((partition, ids) -> {
            ArrayNode list = object.putArray(String.valueOf(partition));
            ids.forEach(list::add);
        });
    }

    /** The partitions of a topic znode that are moving to new replica lists (none in data written before moves). */
    static SortedMap<Integer, Reassignment> parseReassignments(byte[] data) {
        JsonNode json = parse(data);
        JsonNode adding = json.path("adding_replicas");
        JsonNode removing = json.path("removing_replicas");
        SortedMap<Integer, Reassignment> moving = new TreeMap<>();
        if (!adding.isObject() || !removing.isObject()) {
            return moving;
        }
        for (Map.Entry<String, JsonNode> entry : adding.properties()) {
            List<Integer> added = entry.getValue().isArray() ? intList(entry.getValue()) : null;
            JsonNode removed = removing.path(entry.getKey());
            List<Integer> removedIds = removed.isArray() ? intList(removed) : null;
            if (added == null || removedIds == null) {
                throw new MalformedZNodeException("Partition " + entry.getKey() + " has no lists of replicas added and removed");
            }
            moving.put(partitionNumber(entry.getKey()), new Reassignment(added, removedIds));
        }
        return moving;
    }

    /** Reads replica lists, and the form written before replication (partition -> one broker id) as lists of one. */
    static SortedMap<Integer, List<Integer>> parseTopic(byte[] data) {
        JsonNode partitions = parse(data).path("partitions");
        if (!partitions.isObject()) {
            throw new MalformedZNodeException("Topic data has no \"partitions\" object");
        }
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : partitions.properties()) {
            replicas.put(partitionNumber(entry.getKey()), replicaList(entry.getKey(), entry.getValue()));
        }
        return replicas;
    }

    private static List<Integer> replicaList(String partition, JsonNode value) {
        if (value.canConvertToInt()) {
            return List.of(value.asInt());
        }
        List<Integer> ids = value.isArray() ? intList(value) : null;
        if (ids == null || ids.isEmpty() || ids.stream().distinct().count() != ids.size()) {
            throw new MalformedZNodeException("Partition " + partition + " has no list of distinct broker ids");
        }
        return ids;
    }

    static byte[] partitionState(int leader, int leaderEpoch, List<Integer> isr) {
        ObjectNode json = versioned();
        json.put("leader", leader);
        json.put("leader_epoch", leaderEpoch);
        ArrayNode list = json.putArray("isr");
        isr.forEach(list::add);
        return bytes(json);
    }

    static LeaderAndIsr parsePartitionState(byte[] data, int zkVersion) {
        JsonNode json = parse(data);
        List<Integer> isr = json.path("isr").isArray() ? intList(json.path("isr")) : null;
        if (isr == null) {
            throw new MalformedZNodeException("Partition state has no \"isr\" list of broker ids");
        }
        return new LeaderAndIsr(integer(json, "leader"), integer(json, "leader_epoch"), isr, zkVersion);
    }

    /** The ints of a JSON array, or null when an element is not one. */
    private static List<Integer> intList(JsonNode array) {
        List<Integer> ids = new ArrayList<>();
        for (JsonNode id : array) {
            if (!id.canConvertToInt()) {
                return null;
            }
            ids.add(id.asInt());
        }
        return ids;
    }

    static byte[] topicConfig(Map<String, String> config) {
        ObjectNode json = versioned();
        json.set("config", stringMap(config));
        return bytes(json);
    }

    static Map<String, String> parseTopicConfig(byte[] data) {
        return parseStringMap(parse(data).path("config"));
    }

    static byte[] createRequest(int partitions, Map<String, String> config) {
        return createRequest(partitions, 1, config);
    }

    /** A creation request with a replication factor (Kafka's -1 is resolved by the requester). */
    static byte[] createRequest(int partitions, int replicationFactor, Map<String, String> config) {
        return createRequest(partitions, replicationFactor, config, List.of());
    }

    /** As above, with the replicas of each partition when the requester chose them (empty: the controller places them). */
    static byte[] createRequest(int partitions, int replicationFactor, Map<String, String> config, List<List<Integer>> assignment) {
        ObjectNode json = versioned();
        json.put("partitions", partitions);
        json.put("replication_factor", replicationFactor);
        json.set("config", stringMap(config));
        if (!assignment.isEmpty()) {
            putAssignment(json, assignment);
        }
        return bytes(json);
    }

    static byte[] controlledShutdownRequest(boolean done) {
        ObjectNode json = versioned();
        if (done) {
            json.put("done", true);
        }
        return bytes(json);
    }

    /** Whether the controller has carried out a controlled shutdown request; malformed data reads as not yet. */
    static boolean parseControlledShutdownDone(byte[] data) {
        try {
            return parse(data).path("done").asBoolean(false);
        } catch (MalformedZNodeException e) {
            return false;
        }
    }

    static byte[] createPartitionsRequest(int partitions, List<List<Integer>> assignment) {
        ObjectNode json = versioned();
        json.put("partitions", partitions);
        putAssignment(json, assignment);
        return bytes(json);
    }

    private static void putAssignment(ObjectNode json, List<List<Integer>> assignment) {
        ArrayNode partitionsArray = json.putArray("assignment");
        for (List<Integer> replicas : assignment) {
            ArrayNode ids = partitionsArray.addArray();
            replicas.forEach(ids::add);
        }
    }

    static byte[] deleteRequest() {
        return bytes(versioned());
    }

    /** The request's data with the controller's verdict added. */
    static byte[] rejected(byte[] request, AdminError error, String message) {
        ObjectNode json;
        try {
            JsonNode parsed = parse(request);
            json = parsed.isObject() ? (ObjectNode) parsed : versioned();
        } catch (MalformedZNodeException e) {
            json = versioned(); // the verdict replaces what could not be read
        }
        json.put("error", error.name());
        json.put("message", message);
        return bytes(json);
    }

    /**
     * Reads a request znode. A request too malformed to read still yields a request (with
     * partitions 0), so the controller can reject it rather than skip it forever.
     */
    static AdminRequest parseRequest(AdminRequest.Kind kind, String topic, byte[] data, long czxid, int version) {
        JsonNode json;
        try {
            json = parse(data);
        } catch (MalformedZNodeException e) {
            json = MAPPER.createObjectNode();
        }
        JsonNode error = json.path("error");
        Map<String, String> config;
        try {
            config = parseStringMap(json.path("config"));
        } catch (MalformedZNodeException e) {
            config = Map.of();
        }
        return new AdminRequest(kind, topic, json.path("partitions").asInt(0), json.path("replication_factor").asInt(1), config,
            brokerList(json.path("assignment")),
            error.isTextual() ? error.asText() : null, json.path("message").asText(""), czxid, version);
    }

    /**
     * The replicas of each new partition: a JSON array of arrays of broker ids, or of single ids as
     * written before replication; empty when absent. A malformed entry reads as broker -1, which the
     * controller rejects as not live.
     */
    private static List<List<Integer>> brokerList(JsonNode json) {
        List<List<Integer>> partitions = new ArrayList<>();
        if (json.isArray()) {
            for (JsonNode entry : json) {
                List<Integer> ids = entry.isArray() ? intList(entry) : entry.canConvertToInt() ? List.of(entry.asInt()) : null;
                partitions.add(ids == null || ids.isEmpty() ? List.of(-1) : ids);
            }
        }
        return partitions;
    }

    /** Block ends as strings, as Kafka's ZooKeeper-era brokers write them. */
    static byte[] producerIdBlock(ProducerIdBlock block) {
        ObjectNode json = versioned();
        json.put("broker", block.brokerId());
        json.put("block_start", String.valueOf(block.firstId()));
        json.put("block_end", String.valueOf(block.lastId()));
        return bytes(json);
    }

    /** Reads block ends written as strings or as numbers. */
    static ProducerIdBlock parseProducerIdBlock(byte[] data) {
        JsonNode json = parse(data);
        try {
            return new ProducerIdBlock(json.path("broker").asInt(-1), longValue(json, "block_start"), longValue(json, "block_end"));
        } catch (IllegalArgumentException e) {
            throw new MalformedZNodeException("Producer id block: " + e.getMessage());
        }
    }

    private static long longValue(JsonNode json, String field) {
        JsonNode value = json.path(field);
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.asLong();
        }
        if (value.isTextual()) {
            try {
                return Long.parseLong(value.asText());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new MalformedZNodeException("Missing long field \"" + field + "\"");
    }

    private static ObjectNode versioned() {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("version", VERSION);
        return json;
    }

    private static ObjectNode stringMap(Map<String, String> map) {
        ObjectNode json = MAPPER.createObjectNode();
        new TreeMap<>(map).forEach(json::put);
        return json;
    }

    private static Map<String, String> parseStringMap(JsonNode json) {
        if (json.isMissingNode() || json.isNull()) {
            return Map.of();
        }
        if (!json.isObject()) {
            throw new MalformedZNodeException("Expected a JSON object of strings, found " + json.getNodeType());
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : json.properties()) {
            if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
                throw new MalformedZNodeException("Config " + entry.getKey() + " has no value");
            }
            map.put(entry.getKey(), entry.getValue().asText());
        }
        return map;
    }

    private static int partitionNumber(String key) {
        try {
            return Integer.parseInt(key);
        } catch (NumberFormatException e) {
            throw new MalformedZNodeException("Partition key is not a number: " + key);
        }
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.path(field);
        if (!value.isTextual()) {
            throw new MalformedZNodeException("Missing text field \"" + field + "\"");
        }
        return value.asText();
    }

    private static int integer(JsonNode json, String field) {
        JsonNode value = json.path(field);
        if (!value.canConvertToInt()) {
            throw new MalformedZNodeException("Missing integer field \"" + field + "\"");
        }
        return value.asInt();
    }

    private static JsonNode parse(byte[] data) {
        if (data == null || data.length == 0) {
            throw new MalformedZNodeException("Empty znode data");
        }
        try {
            return MAPPER.readTree(data);
        } catch (IOException e) {
            throw new MalformedZNodeException("Not JSON: " + e.getMessage());
        }
    }

    private static byte[] bytes(JsonNode json) {
        try {
            return MAPPER.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot serialise " + json, e);
        }
    }
}
