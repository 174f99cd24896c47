package io.millrace.mirror;

import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import io.millrace.schemaregistry.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the schema ids a live cluster's records carry mean the same schemas offline. A key or value in
 * the Avro wire format ({@code 0x00 | schema id | Avro}) names an id of the live data centre's registry;
 * before the first record with that id goes to the offline cluster, the schema is read from the live
 * registry and imported, id kept, under each subject that holds it there, into the offline registry
 * (which runs in IMPORT mode). Ids of different data centres do not collide because each live registry
 * hands out ids from its own {@code schema.id.base}. Thread-safe; each id is copied once per process.
 */
final class SchemaCopier {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaCopier.class);

    private final String cluster;
    private final SchemaRegistryClient live;
    private final SchemaRegistryClient offline;
    private final MirrorCounters counters;
    private final Set<Integer> copied = ConcurrentHashMap.newKeySet();
    private final Set<Integer> unknown = ConcurrentHashMap.newKeySet();

    SchemaCopier(String cluster, SchemaRegistryClient live, SchemaRegistryClient offline, MirrorCounters counters) {
        this.cluster = cluster;
        this.live = live;
        this.offline = offline;
        this.counters = counters;
    }

    /** Copies the schema {@code data} names, if it is in the wire format and its id is new here. */
    void ensureCopied(String topic, byte[] data, boolean isKey) {
        if (data != null) {
            ensureCopied(topic, ByteBuffer.wrap(data), isKey);
        }
    }

    /** The same for a key or value read where it lies in a record batch (from its position to its limit). */
    void ensureCopied(String topic, ByteBuffer data, boolean isKey) {
        int start = data == null ? 0 : data.position();
        if (data == null || data.remaining() < WireFormat.PAYLOAD_OFFSET || data.get(start) != WireFormat.MAGIC_BYTE) {
            return;
        }
        int id = data.getInt(start + WireFormat.SCHEMA_ID_OFFSET);
        if (copied.contains(id) || unknown.contains(id)) {
            return;
        }
        Schema schema;
        List<String> subjects;
        try {
            schema = live.getById(id);
            subjects = live.subjectsOf(id);
        } catch (SchemaRegistryClientException e) {
            if (e.status() == 404) {
                // bytes that only look like the wire format: mirrored as they are, undecodable live as offline
                unknown.add(id);
                LOG.warn("A {} of {} in {} names schema id {}, which {}'s registry does not know; mirrored as is",
                    isKey ? "key" : "value", topic, cluster, id, cluster);
                return;
            }
            throw new MirrorException("Could not read schema " + id + " from " + cluster + "'s registry: " + e.getMessage(), e);
        }
        if (subjects.isEmpty()) {
            subjects = List.of(topic + (isKey ? "-key" : "-value"));   // its versions were deleted live
        }
        try {
            for (String subject : subjects) {
                offline.importSchema(subject, id, schema);
            }
        } catch (SchemaRegistryClientException e) {
            throw new MirrorException("Could not copy schema " + id + " of " + cluster + " into the offline registry"
                + (e.errorCode() == 42205 ? " (it must be in IMPORT mode, and each live registry needs its own "
                    + "schema.id.base)" : "") + ": " + e.getMessage(), e);
        }
        copied.add(id);
        counters.schemaCopied();
        LOG.info("Copied schema {} of {} ({}) into the offline registry", id, cluster, subjects);
    }
}
