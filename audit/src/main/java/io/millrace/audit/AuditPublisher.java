package io.millrace.audit;

import io.millrace.common.serialization.StringSerializer;
import io.millrace.common.utils.Time;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerConfig;
import io.millrace.producer.ProducerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import io.millrace.schemaregistry.serde.AvroSerializer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one tier's counts to the audit topic, on a thread of its own so that the data path never
 * waits for it. Every {@code audit.publish.interval.ms} it turns the windows that are due into audit
 * records, each with a new unique id, and sends every record not yet acknowledged (acks=all). A record
 * is kept until the audit topic acknowledged it: while the topic cannot be reached the records wait in
 * memory, at most {@code audit.max.pending.records} of them (the oldest beyond are dropped, counted and
 * logged). A record sent twice (an acknowledgement lost, then a retry) has the same id twice, which the
 * report counts once. Closing publishes every window, due or not, and waits up to
 * {@code audit.close.timeout.ms}. Thread-safe.
 */
public final class AuditPublisher implements AutoCloseable, AuditMetricsMBean {

    private static final Logger LOG = LoggerFactory.getLogger(AuditPublisher.class);
    /** How often a failure that every round meets again is logged at WARN; at DEBUG in between. */
    private static final long FAILURE_REMINDER_MS = 60_000;
    /** The registry's error code for a registration its mode does not allow. */
    private static final int OPERATION_NOT_PERMITTED = 42205;

    private final AuditConfig config;
    private final AuditSource source;
    private final Producer<String, GenericRecord> producer;
    private final AuditTopic auditTopic;   // null: the topic is known to exist (tests)
    private final AuditCounter counter;
    private final Time time;
    private final ScheduledExecutorService scheduler;
    /** Records not yet acknowledged, oldest first, by id; guarded by this. */
    private final LinkedHashMap<String, GenericRecord> pending = new LinkedHashMap<>();
    private final Set<String> inFlight = new HashSet<>();   // guarded by this
    /** Lost ranges and deltas handed in by tiers that window their counts themselves; guarded by this. */
    private final List<GenericRecord> handedIn = new ArrayList<>();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final RepeatedFailureLog failures = new RepeatedFailureLog(LOG, FAILURE_REMINDER_MS);
    private ObjectName mbean;
    private boolean closed;   // guarded by this
    private boolean started;   // guarded by this
    private boolean roundSoon;   // guarded by this: a round for handed-in records is scheduled

    /**
     * A publisher from {@code settings}: the {@link AuditConfig} settings, and the audit producer's
     * ({@code bootstrap.servers}, {@code schema.registry.url}, ...), to which acks=all is added.
     */
    public AuditPublisher(Map<String, ?> settings) {
        this(new AuditConfig(settings), auditProducer(settings), new AuditTopic(new AuditConfig(settings).topic(),
            producerSettings(settings)), Time.SYSTEM);
    }

    AuditPublisher(AuditConfig config, Producer<String, GenericRecord> producer, AuditTopic auditTopic, Time time) {
        this.config = config;
        this.source = AuditSource.of(config);
        this.producer = producer;
        this.auditTopic = auditTopic;
        this.time = time;
        this.counter = new AuditCounter(config.windowMs(), config.latenessMs(), time);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "millrace-audit-" + source.tier() + "-" + source.application());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The settings that are not the audit's own: the audit producer's. */
    private static Map<String, Object> producerSettings(Map<String, ?> settings) {
        Map<String, Object> producer = new HashMap<>();
        settings.forEach((key, value) -> {
            if (AuditConfig.CONFIG.key(key) == null) {
                producer.put(key, value);
            }
        });
        return producer;
    }

    private static Producer<String, GenericRecord> auditProducer(Map<String, ?> settings) {
        Map<String, Object> producer = producerSettings(settings);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.putIfAbsent("auto.register.schemas", true);
        return new MillraceProducer<>(producer, new StringSerializer(), new AvroSerializer<>());
    }

    /** Where the tier counts. */
    public AuditCounter counter() {
        return counter;
    }

    public AuditSource source() {
        return source;
    }

    /** Starts publishing every {@code audit.publish.interval.ms} and exports the metrics. */
    public AuditPublisher start() {
        synchronized (this) {
            started = true;
        }
        long interval = config.publishIntervalMs();
        scheduler.scheduleWithFixedDelay(this::publishQuietly, interval, interval, TimeUnit.MILLISECONDS);
        register();
        return this;
    }

    /** Reports offsets this tier knows it could not deliver; sent at once once started (see {@link #roundSoon}). */
    public void lostRange(LostRangeReport range) {
        lostRange(source, range);
    }

    /** Reports offsets that {@code where} (another tier or cluster than this publisher's own) could not deliver. */
    public synchronized void lostRange(AuditSource where, LostRangeReport range) {
        handedIn.add(AuditRecords.lostRangeRecord(UUID.randomUUID().toString(), where, time.milliseconds(), range));
        roundSoon();
    }

    /**
     * Publishes counts that a tier made and released itself, e.g. the mirror's, released only once the
     * live offsets they cover are committed, so that a crash never publishes counts of records that are
     * copied again. Sent at once once started (see {@link #roundSoon}).
     */
    public synchronized void publish(AuditSource counted, List<WindowDelta> deltas) {
        long now = time.milliseconds();
        for (WindowDelta delta : deltas) {
            handedIn.add(AuditRecords.windowRecord(UUID.randomUUID().toString(), counted, now, delta));
        }
        roundSoon();
    }

    /**
     * Publishes counts under ids the tier chose, one per delta, at once once started. A tier that may hand in
     * the same counts again after a crash (a load whose completion is replayed from its committed manifest)
     * derives each id from what it committed, so that the report, which counts an id once, counts them once.
     */
    public synchronized void publishWithIds(AuditSource counted, Map<String, WindowDelta> deltasById) {
        long now = time.milliseconds();
        deltasById.forEach((id, delta) -> handedIn.add(AuditRecords.windowRecord(id, counted, now, delta)));
        roundSoon();
    }

    /**
     * Reports lost ranges under ids the tier chose, at once once started: as {@link #publishWithIds}, for a tier
     * that may report the same ranges again after a crash (a replayed load), so that the report lists each once.
     */
    public synchronized void lostRangesWithIds(AuditSource where, Map<String, LostRangeReport> rangesById) {
        long now = time.milliseconds();
        rangesById.forEach((id, range) -> handedIn.add(AuditRecords.lostRangeRecord(id, where, now, range)));
        roundSoon();
    }

    /**
     * Sends what was handed in at once rather than with the next round. A tier hands counts in right after
     * the commit that released them (the mirror, the loader): until they are acknowledged, a crash takes
     * them along, so the shorter they wait the smaller that gap. Called holding this.
     */
    private void roundSoon() {
        if (started && !closed && !roundSoon && !handedIn.isEmpty()) {
            roundSoon = true;
            scheduler.execute(() -> {
                synchronized (this) {
                    roundSoon = false;
                }
                publishQuietly();
            });
        }
    }

    /** A source with this publisher's host and application and the given tier and cluster. */
    public AuditSource source(String tier, String cluster) {
        return new AuditSource(tier, cluster, source.host(), source.application());
    }

    private void publishQuietly() {
        try {
            publish(false);
        } catch (RuntimeException e) {
            failures.failed(time.milliseconds(), "Publishing audit records failed; trying again in "
                + config.publishIntervalMs() + " ms: " + e);
        }
    }

    /** One round: make the records that are due, then send every record not acknowledged or in flight. */
    void publish(boolean everything) {
        List<GenericRecord> made = new ArrayList<>();
        long now = time.milliseconds();
        for (WindowDelta delta : counter.drainDue(everything)) {
            made.add(AuditRecords.windowRecord(UUID.randomUUID().toString(), source, now, delta));
        }
        List<GenericRecord> toSend;
        synchronized (this) {
            made.addAll(handedIn);
            handedIn.clear();
            for (GenericRecord record : made) {
                pending.put(record.get("id").toString(), record);
            }
            dropOldestBeyondLimit();
            toSend = new ArrayList<>();
            for (Map.Entry<String, GenericRecord> entry : pending.entrySet()) {
                if (inFlight.add(entry.getKey())) {
                    toSend.add(entry.getValue());
                }
            }
        }
        if (!toSend.isEmpty() && !topicReady()) {
            synchronized (this) {
                toSend.forEach(r -> inFlight.remove(r.get("id").toString()));
            }
            failures.failed(time.milliseconds(), "The audit topic " + config.topic() + " cannot be reached now; "
                + getPendingRecords() + " audit records wait for the next round");
            return;
        }
        for (GenericRecord record : toSend) {
            if (!send(record)) {
                synchronized (this) {
                    toSend.subList(toSend.indexOf(record), toSend.size()).forEach(r -> inFlight.remove(r.get("id").toString()));
                }
                return;   // the audit topic cannot be reached now: the rest waits for the next round
            }
        }
        if (!toSend.isEmpty()) {
            failures.succeeded(time.milliseconds());
        }
    }

    private boolean topicReady() {
        try {
            return auditTopic == null || auditTopic.ensure();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean send(GenericRecord record) {
        String id = record.get("id").toString();
        try {
            producer.send(new ProducerRecord<>(config.topic(), id, record), (metadata, exception) -> acknowledged(id, exception));
            return true;
        } catch (RuntimeException e) {
            String hint = registryHint(e);
            failures.failed(time.milliseconds(), "Cannot send audit records to " + config.topic() + " now (" + e
                + hint + "); " + getPendingRecords() + " wait for the next round", !hint.isEmpty());
            return false;
        }
    }

    /**
     * Why a registry refuses the audit schema, where that is expected for a while: an offline data centre's
     * registry takes only schemas copied from a live one, and the mirror copies the audit schema with the
     * first live audit record it mirrors.
     */
    private static String registryHint(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SchemaRegistryClientException r && r.errorCode() == OPERATION_NOT_PERMITTED) {
                return "; the registry's mode takes no new schema: an offline data centre's registry, in IMPORT mode, "
                    + "gets the audit schema when the mirror copies it from a live registry, with the first live audit "
                    + "record it mirrors";
            }
        }
        return "";
    }

    private synchronized void acknowledged(String id, Exception exception) {
        inFlight.remove(id);
        if (exception == null) {
            if (pending.remove(id) != null) {
                published.incrementAndGet();
            }
        } else {
            LOG.debug("Audit record {} not acknowledged ({}); sent again next round", id, exception.toString());
        }
    }

    private void dropOldestBeyondLimit() {
        Iterator<String> oldest = pending.keySet().iterator();
        int over = pending.size() - config.maxPendingRecords();
        int removed = 0;
        while (over-- > 0 && oldest.hasNext()) {
            String id = oldest.next();
            if (!inFlight.contains(id)) {
                oldest.remove();
                removed++;
            }
        }
        if (removed > 0) {
            dropped.addAndGet(removed);
            LOG.error("Dropped the {} oldest audit records: more than {} waited for the audit topic {} (audit.max.pending.records)",
                removed, config.maxPendingRecords(), config.topic());
        }
    }

    /** Publishes every window, due or not, waits up to audit.close.timeout.ms for the acknowledgements, and stops. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(config.closeTimeoutMs(), TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.closeTimeoutMs());
            publish(true);
            while (getPendingRecords() > 0 && System.nanoTime() < deadline) {
                producer.flush();
                if (getPendingRecords() > 0) {
                    Thread.sleep(100);
                    publish(false);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Publishing the last audit records failed: {}", e.toString());
        } finally {
            int unsent = getPendingRecords();
            if (unsent > 0) {
                dropped.addAndGet(unsent);
                LOG.error("{} audit records of {} were not acknowledged within {} ms and are lost", unsent, source,
                    config.closeTimeoutMs());
            }
            producer.close(Duration.ZERO);
            if (auditTopic != null) {
                auditTopic.close();
            }
            unregister();
        }
    }

    @Override
    public long getPublishedRecords() {
        return published.get();
    }

    @Override
    public synchronized int getPendingRecords() {
        return pending.size();
    }

    @Override
    public long getDroppedRecords() {
        return dropped.get();
    }

    private void register() {
        try {
            // host and cluster too: simulated front-ends, or a mirror and a loader, share a JVM under one application
            mbean = new ObjectName("io.millrace:type=audit-metrics,tier=" + ObjectName.quote(source.tier())
                + ",cluster=" + ObjectName.quote(source.cluster()) + ",host=" + ObjectName.quote(source.host())
                + ",application=" + ObjectName.quote(source.application()));
            ManagementFactory.getPlatformMBeanServer().registerMBean(new StandardMBean(this, AuditMetricsMBean.class, true),
                mbean);
        } catch (JMException e) {
            LOG.warn("Cannot export the audit metrics of {}: {}", source, e.toString());
            mbean = null;
        }
    }

    private void unregister() {
        if (mbean != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbean);
            } catch (JMException e) {
                LOG.debug("Could not unregister {}: {}", mbean, e.toString());
            }
        }
    }
}
