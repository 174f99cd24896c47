package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.millrace.common.client.ZooKeeperConnect;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's state in ZooKeeper, through Curator; the znode layout and why it is safe for
 * several registries to share it are in {@link RegistryPaths}. Every method goes to ZooKeeper
 * (callers cache what never changes) and turns a ZooKeeper failure into STORE_ERROR (500 / 50001);
 * Curator reconnects by itself, so the next request after ZooKeeper returns succeeds. Thread-safe.
 */
public final class SchemaStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CuratorFramework client;
    private final SchemaRegistryConfig config;

    public SchemaStore(SchemaRegistryConfig config) {
        this.config = config;
        this.client = newClient(config);
    }

    /** Connects and creates the directories; fails when ZooKeeper is not reachable in time. */
    public void start() throws InterruptedException {
        client.getConnectionStateListenable().addListener((c, state) -> logState(state));
        client.start();
        if (!client.blockUntilConnected(config.zookeeperConnectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("Could not connect to ZooKeeper at " + config.zookeeperConnect()
                + " within " + config.zookeeperConnectionTimeoutMs() + " ms");
        }
        call(() -> {
            for (String dir : List.of(RegistryPaths.IDS, RegistryPaths.SCHEMAS, RegistryPaths.SUBJECTS, RegistryPaths.CONFIG)) {
                createIfAbsent(dir, new byte[0]);
            }
            createIfAbsent(RegistryPaths.ID_SEQUENCE, "0".getBytes(StandardCharsets.UTF_8));
            return null;
        });
    }

    /** The canonical schema text of {@code id}, if there is such an id. */
    public Optional<String> schemaById(int id) {
        return call(() -> readJson(RegistryPaths.id(id)).map(node -> node.get("schema").asText()));
    }

    /** The id of a schema (in canonical form), if it has one. */
    public OptionalInt idOf(String canonical) {
        return call(() -> {
            Optional<JsonNode> node = readJson(RegistryPaths.schema(AvroSchemas.fingerprint(canonical)));
            return node.isPresent() ? OptionalInt.of(node.get().get("id").asInt()) : OptionalInt.empty();
        });
    }

    /** The id of a schema (in canonical form), given one if it has none yet. */
    public int idFor(String canonical) {
        return call(() -> {
            while (true) {
                OptionalInt existing = idOf(canonical);
                if (existing.isPresent()) {
                    return existing.getAsInt();
                }
                OptionalInt created = tryCreateId(canonical);
                if (created.isPresent()) {
                    return created.getAsInt();
                }
            }
        });
    }

    /**
     * Gives {@code id} to {@code canonical}, as a registry in IMPORT mode does with the id a registration
     * brings: true when the id is new or already holds this schema, false when it holds another. The schema's
     * own lookup entry is made only if the schema has no id yet (two live registries may have given the
     * same schema two ids: both stay readable, lookups answer the first).
     */
    public boolean importId(int id, String canonical) {
        return call(() -> {
            Optional<JsonNode> existing = readJson(RegistryPaths.id(id));
            if (existing.isPresent()) {
                return existing.get().get("schema").asText().equals(canonical);
            }
            try {
                client.create().forPath(RegistryPaths.id(id), JSON.writeValueAsBytes(JSON.createObjectNode().put("schema", canonical)));
            } catch (KeeperException.NodeExistsException e) {
                return schemaById(id).map(canonical::equals).orElse(false);
            }
            createIfAbsent(RegistryPaths.schema(AvroSchemas.fingerprint(canonical)),
                JSON.writeValueAsBytes(JSON.createObjectNode().put("id", id)));
            log.info("Schema id {} imported", id);
            return true;
        });
    }

    /** The registry's mode; READWRITE when none was set. */
    public RegistryMode mode() {
        return call(() -> {
            try {
                return RegistryMode.parse(new String(client.getData().forPath(RegistryPaths.MODE), StandardCharsets.UTF_8));
            } catch (KeeperException.NoNodeException e) {
                return RegistryMode.READWRITE;
            }
        });
    }

    public void setMode(RegistryMode mode) {
        call(() -> {
            byte[] data = mode.name().getBytes(StandardCharsets.UTF_8);
            try {
                client.setData().forPath(RegistryPaths.MODE, data);
            } catch (KeeperException.NoNodeException e) {
                createIfAbsent(RegistryPaths.MODE, data);
                client.setData().forPath(RegistryPaths.MODE, data);
            }
            return null;
        });
    }

    /** Every subject that has at least one version, soft-deleted or not, sorted. */
    public List<String> subjects() {
        return call(() -> {
            List<String> subjects = new ArrayList<>();
            for (String child : client.getChildren().forPath(RegistryPaths.SUBJECTS)) {
                String subject = RegistryPaths.decode(child);
                if (!versions(subject).isEmpty()) {
                    subjects.add(subject);
                }
            }
            subjects.sort(Comparator.naturalOrder());
            return subjects;
        });
    }

    /** The versions of {@code subject}, soft-deleted ones included, oldest first; empty for an unknown subject. */
    public List<SubjectVersion> versions(String subject) {
        return call(() -> {
            List<SubjectVersion> versions = new ArrayList<>();
            for (String child : childrenOrEmpty(RegistryPaths.versions(subject))) {
                int version = Integer.parseInt(child);
                readJson(RegistryPaths.version(subject, version)).ifPresent(node ->
                    versions.add(new SubjectVersion(version, node.get("id").asInt(), node.path("deleted").asBoolean())));
            }
            versions.sort(Comparator.comparingInt(SubjectVersion::version));
            return versions;
        });
    }

    /** Creates {@code version} of {@code subject}; false when another registration created it first. */
    public boolean createVersion(String subject, int version, int id) {
        return call(() -> {
            try {
                client.create().creatingParentContainersIfNeeded()
                    .forPath(RegistryPaths.version(subject, version), versionData(id, false));
                return true;
            } catch (KeeperException.NodeExistsException e) {
                return false;
            }
        });
    }

    public void markDeleted(String subject, SubjectVersion version) {
        call(() -> client.setData().forPath(RegistryPaths.version(subject, version.version()), versionData(version.id(), true)));
    }

    /** Deletes a version for good; the schema keeps its id, which other subjects may use. */
    public void deleteVersion(String subject, int version) {
        call(() -> {
            try {
                client.delete().forPath(RegistryPaths.version(subject, version));
            } catch (KeeperException.NoNodeException e) {
                // deleted by a concurrent request: the outcome is the same
            }
            return null;
        });
    }

    /** The mode set for {@code subject} alone, if any. */
    public Optional<RegistryMode> mode(String subject) {
        return call(() -> {
            try {
                return Optional.of(RegistryMode.parse(new String(client.getData().forPath(RegistryPaths.mode(subject)),
                    StandardCharsets.UTF_8)));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        });
    }

    public void setMode(String subject, RegistryMode mode) {
        byte[] data = mode.name().getBytes(StandardCharsets.UTF_8);
        call(() -> client.create().orSetData().creatingParentsIfNeeded().forPath(RegistryPaths.mode(subject), data));
    }

    public void deleteMode(String subject) {
        call(() -> {
            try {
                client.delete().forPath(RegistryPaths.mode(subject));
            } catch (KeeperException.NoNodeException e) {
                // nothing was set
            }
            return null;
        });
    }

    /** The level set for {@code subject}, or the global one when {@code subject} is null. */
    public Optional<CompatibilityLevel> compatibility(String subject) {
        String path = subject == null ? RegistryPaths.CONFIG : RegistryPaths.config(subject);
        return call(() -> readJson(path).map(node -> CompatibilityLevel.forName(node.path("compatibility").asText())));
    }

    public void setCompatibility(String subject, CompatibilityLevel level) {
        String path = subject == null ? RegistryPaths.CONFIG : RegistryPaths.config(subject);
        ObjectNode node = JSON.createObjectNode().put("compatibility", level.name());
        call(() -> client.create().orSetData().forPath(path, JSON.writeValueAsBytes(node)));
    }

    /** Removes the level of {@code subject}, or, when it is null, the global one (the configured default applies again). */
    public void deleteCompatibility(String subject) {
        if (subject == null) {
            // the global level's znode is also the parent of every subject's: emptied, not deleted
            call(() -> client.setData().forPath(RegistryPaths.CONFIG, new byte[0]));
            return;
        }
        call(() -> {
            try {
                client.delete().forPath(RegistryPaths.config(subject));
            } catch (KeeperException.NoNodeException e) {
                // nothing was set
            }
            return null;
        });
    }

    @Override
    public void close() {
        client.close();
    }

    /**
     * One try at giving {@code canonical} the next id: bump the sequence at the version read and
     * create both the id's and the schema's znodes, all or nothing.
     */
    private OptionalInt tryCreateId(String canonical) throws Exception {
        Stat stat = new Stat();
        byte[] last = client.getData().storingStatIn(stat).forPath(RegistryPaths.ID_SEQUENCE);
        int id = Math.max(Integer.parseInt(new String(last, StandardCharsets.UTF_8).trim()), config.schemaIdBase()) + 1;
        try {
            client.transaction().forOperations(
                client.transactionOp().setData().withVersion(stat.getVersion())
                    .forPath(RegistryPaths.ID_SEQUENCE, String.valueOf(id).getBytes(StandardCharsets.UTF_8)),
                client.transactionOp().create()
                    .forPath(RegistryPaths.id(id), JSON.writeValueAsBytes(JSON.createObjectNode().put("schema", canonical))),
                client.transactionOp().create()
                    .forPath(RegistryPaths.schema(AvroSchemas.fingerprint(canonical)), JSON.writeValueAsBytes(JSON.createObjectNode().put("id", id))));
            log.info("Schema id {} assigned", id);
            return OptionalInt.of(id);
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            return OptionalInt.empty(); // another registration took the id or registered this schema: look again
        }
    }

    private Optional<JsonNode> readJson(String path) throws Exception {
        byte[] data;
        try {
            data = client.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
        if (data == null || data.length == 0) {
            return Optional.empty();
        }
        return Optional.of(JSON.readTree(data));
    }

    private List<String> childrenOrEmpty(String path) throws Exception {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private void createIfAbsent(String path, byte[] data) throws Exception {
        try {
            client.create().creatingParentsIfNeeded().forPath(path, data);
        } catch (KeeperException.NodeExistsException e) {
            // made by another registry, or by an earlier run
        }
    }

    private static byte[] versionData(int id, boolean deleted) throws IOException {
        return JSON.writeValueAsBytes(JSON.createObjectNode().put("id", id).put("deleted", deleted));
    }

    private <T> T call(StoreCall<T> call) {
        try {
            return call.run();
        } catch (RegistryException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryError.STORE_ERROR.exception("Interrupted while waiting for ZooKeeper", e);
        } catch (Exception e) {
            log.warn("ZooKeeper operation failed: {}", e.toString());
            throw RegistryError.STORE_ERROR.exception("Error in the backend data store (ZooKeeper): " + e.getMessage(), e);
        }
    }

    private void logState(ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
            log.warn("ZooKeeper connection {}: requests fail with 50001 until it is back", state);
        } else {
            log.info("ZooKeeper connection {}", state);
        }
    }

    private static CuratorFramework newClient(SchemaRegistryConfig config) {
        return ZooKeeperConnect.curatorBuilder(config.zookeeperConnect())
            .sessionTimeoutMs(config.zookeeperSessionTimeoutMs())
            .connectionTimeoutMs(config.zookeeperConnectionTimeoutMs())
            // bounded in time, so a request fails with 50001 instead of hanging while ZooKeeper is away
            .retryPolicy(new RetryUntilElapsed(config.zookeeperConnectionTimeoutMs(), config.zookeeperRetryBackoffMs()))
            .build();
    }

    @FunctionalInterface
    private interface StoreCall<T> {
        T run() throws Exception;
    }
}
