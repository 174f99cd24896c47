package io.millrace.common.protocol;

/**
 * The Kafka APIs Millrace serves, with the version range it parses and writes.
 *
 * <p>The ranges are chosen so that Apache Kafka's Java client 3.9 and 4.x and librdkafka 2.x can
 * negotiate a version with a Millrace broker: every range includes the oldest version Kafka 4.x
 * clients still send (Produce 3, Fetch 4, ListOffsets 1, Metadata 1) and stops where a newer
 * version needs something Millrace does not have (topic IDs in Produce 13 / Fetch 13, transaction
 * protocol V2 in Produce 12, tiered storage in ListOffsets 9). {@code docs/protocol.md} explains
 * each choice.
 *
 * <p>{@link #advertisedMinVersion()} is the minimum put into ApiVersions responses. It differs from
 * {@link #minVersion()} only for Produce, advertised from 0 as Apache Kafka does since 4.0
 * (KAFKA-18659): librdkafka detects message-format and compression support from Produce versions
 * 0-2 being listed, and refuses to produce compressed data otherwise. A Produce request below 3 is
 * still not parsed.
 *
 * <p>An API can be parsed without being served: {@link #advertised()} is false for an API whose
 * codec exists before the broker serves it. The broker lists only
 * advertised APIs in ApiVersions responses (a client would otherwise send requests nobody handles)
 * and closes the connection on a request of any other, as for an unknown api key.
 */
public enum ApiKey {
    PRODUCE(0, "Produce", 3, 11, 9, 0),
    FETCH(1, "Fetch", 4, 12, 12),
    LIST_OFFSETS(2, "ListOffsets", 1, 8, 6),
    METADATA(3, "Metadata", 1, 13, 9),
    API_VERSIONS(18, "ApiVersions", 0, 4, 3),
    CREATE_TOPICS(19, "CreateTopics", 2, 7, 5),
    DELETE_TOPICS(20, "DeleteTopics", 1, 6, 4),
    INIT_PRODUCER_ID(22, "InitProducerId", 0, 5, 2),
    DESCRIBE_CONFIGS(32, "DescribeConfigs", 1, 4, 4),
    CREATE_PARTITIONS(37, "CreatePartitions", 0, 3, 2),
    DELETE_RECORDS(21, "DeleteRecords", 0, 2, 2),
    DESCRIBE_LOG_DIRS(35, "DescribeLogDirs", 1, 5, 2),
    ELECT_LEADERS(43, "ElectLeaders", 0, 2, 2),
    DESCRIBE_PRODUCERS(61, "DescribeProducers", 0, 0, 0),
    LIST_TRANSACTIONS(66, "ListTransactions", 0, 2, 0),
    ALTER_PARTITION_REASSIGNMENTS(45, "AlterPartitionReassignments", 0, 1, 0),
    LIST_PARTITION_REASSIGNMENTS(46, "ListPartitionReassignments", 0, 0, 0),
    // Millrace has no quotas: none to describe, a change refused
    DESCRIBE_CLIENT_QUOTAS(48, "DescribeClientQuotas", 0, 1, 1),
    ALTER_CLIENT_QUOTAS(49, "AlterClientQuotas", 0, 1, 1),
    // Millrace authenticates no client: no SCRAM credential to describe, a change refused
    DESCRIBE_USER_SCRAM_CREDENTIALS(50, "DescribeUserScramCredentials", 0, 0, 0),
    ALTER_USER_SCRAM_CREDENTIALS(51, "AlterUserScramCredentials", 0, 0, 0),
    // answered as by a Kafka broker with no authorizer: SECURITY_DISABLED
    DESCRIBE_ACLS(29, "DescribeAcls", 1, 3, 2),
    CREATE_ACLS(30, "CreateAcls", 1, 3, 2),
    DELETE_ACLS(31, "DeleteAcls", 1, 3, 2),
    OFFSET_FOR_LEADER_EPOCH(23, "OffsetForLeaderEpoch", 2, 4, 4),
    // served by the broker's group coordinator (classic protocol)
    OFFSET_COMMIT(8, "OffsetCommit", 2, 9, 8),
    OFFSET_FETCH(9, "OffsetFetch", 1, 9, 6),
    FIND_COORDINATOR(10, "FindCoordinator", 0, 6, 3),
    JOIN_GROUP(11, "JoinGroup", 0, 9, 6),
    HEARTBEAT(12, "Heartbeat", 0, 4, 4),
    LEAVE_GROUP(13, "LeaveGroup", 0, 5, 4),
    SYNC_GROUP(14, "SyncGroup", 0, 5, 4),
    // the group admin APIs, served by the same coordinator
    DESCRIBE_GROUPS(15, "DescribeGroups", 0, 6, 5),
    LIST_GROUPS(16, "ListGroups", 0, 5, 3),
    DELETE_GROUPS(42, "DeleteGroups", 0, 2, 2),
    OFFSET_DELETE(47, "OffsetDelete", 0, 0, Short.MAX_VALUE),   // never flexible
    // the consumer group protocol of KIP-848, served by the same coordinator
    CONSUMER_GROUP_HEARTBEAT(68, "ConsumerGroupHeartbeat", 0, 1, 0),
    // the configuration admin APIs and DescribeCluster
    ALTER_CONFIGS(33, "AlterConfigs", 0, 2, 2),
    INCREMENTAL_ALTER_CONFIGS(44, "IncrementalAlterConfigs", 0, 1, 1),
    DESCRIBE_CLUSTER(60, "DescribeCluster", 0, 2, 0),
    // the transaction coordinator (transaction protocol V1) and the markers it has leaders write
    ADD_PARTITIONS_TO_TXN(24, "AddPartitionsToTxn", 0, 3, 3),
    ADD_OFFSETS_TO_TXN(25, "AddOffsetsToTxn", 0, 4, 3),
    END_TXN(26, "EndTxn", 0, 4, 3),
    WRITE_TXN_MARKERS(27, "WriteTxnMarkers", 1, 1, 1),
    DESCRIBE_TRANSACTIONS(65, "DescribeTransactions", 0, 0, 0),
    // offsets committed in a transaction, served by the group coordinator
    TXN_OFFSET_COMMIT(28, "TxnOffsetCommit", 0, 4, 3);

    /** One more than the largest id: the size of a table indexed by api key. */
    public static final int ID_LIMIT = java.util.Arrays.stream(values()).mapToInt(ApiKey::id).max().orElse(0) + 1;

    private static final ApiKey[] BY_ID = new ApiKey[ID_LIMIT];

    static {
        for (ApiKey key : values()) {
            BY_ID[key.id] = key;
        }
    }

    private final short id;
    private final String displayName;
    private final short minVersion;
    private final short maxVersion;
    private final short firstFlexibleVersion;
    private final short advertisedMinVersion;
    private final boolean advertised;

    ApiKey(int id, String displayName, int minVersion, int maxVersion, int firstFlexibleVersion) {
        this(id, displayName, minVersion, maxVersion, firstFlexibleVersion, minVersion, true);
    }

    ApiKey(int id, String displayName, int minVersion, int maxVersion, int firstFlexibleVersion, int advertisedMinVersion) {
        this(id, displayName, minVersion, maxVersion, firstFlexibleVersion, advertisedMinVersion, true);
    }

    ApiKey(int id, String displayName, int minVersion, int maxVersion, int firstFlexibleVersion, boolean advertised) {
        this(id, displayName, minVersion, maxVersion, firstFlexibleVersion, minVersion, advertised);
    }

    ApiKey(int id, String displayName, int minVersion, int maxVersion, int firstFlexibleVersion, int advertisedMinVersion,
           boolean advertised) {
        this.id = (short) id;
        this.displayName = displayName;
        this.minVersion = (short) minVersion;
        this.maxVersion = (short) maxVersion;
        this.firstFlexibleVersion = (short) firstFlexibleVersion;
        this.advertisedMinVersion = (short) advertisedMinVersion;
        this.advertised = advertised;
    }

    /** The API, or null when Millrace does not serve {@code id}. */
    public static ApiKey forId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /** The api key on the wire. */
    public short id() {
        return id;
    }

    /** The name Kafka's documentation uses, e.g. "ListOffsets". */
    public String displayName() {
        return displayName;
    }

    /** The oldest version Millrace parses and writes. */
    public short minVersion() {
        return minVersion;
    }

    /** The newest version Millrace parses and writes. */
    public short maxVersion() {
        return maxVersion;
    }

    /** The minimum version the broker lists in ApiVersions responses (see the class comment). */
    public short advertisedMinVersion() {
        return advertisedMinVersion;
    }

    /** Whether the broker lists this API in ApiVersions responses and serves it (see the class comment). */
    public boolean advertised() {
        return advertised;
    }

    /** The first version that uses compact encodings and tagged fields. */
    public short firstFlexibleVersion() {
        return firstFlexibleVersion;
    }

    public boolean isVersionSupported(short version) {
        return version >= minVersion && version <= maxVersion;
    }

    /** Whether {@code version} is flexible; also answered for versions above {@link #maxVersion()}. */
    public boolean isFlexible(short version) {
        return version >= firstFlexibleVersion;
    }

    /** Throws {@link UnsupportedVersionException} unless Millrace parses and writes {@code version}. */
    public void checkVersion(short version) {
        if (!isVersionSupported(version)) {
            throw new UnsupportedVersionException(displayName + " version " + version + " is not supported; Millrace supports "
                + minVersion + " to " + maxVersion);
        }
    }

    /** Request header version 2 for flexible versions, otherwise 1. */
    public short requestHeaderVersion(short version) {
        return (short) (isFlexible(version) ? 2 : 1);
    }

    /**
     * Response header version 1 for flexible versions, otherwise 0. ApiVersions responses always use
     * header version 0, so that a client that does not yet know the broker's versions can read the
     * correlation id of any of them.
     */
    public short responseHeaderVersion(short version) {
        return (short) (this != API_VERSIONS && isFlexible(version) ? 1 : 0);
    }
}
