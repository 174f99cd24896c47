package io.millrace.hadoop.load;

import io.millrace.audit.AuditPublisher;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.state.AuditMark;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hadoop tier of the audit, in the driver: publishes the window counts and the lost ranges (offsets retention
 * deleted before they were loaded) that committed loads keep in their manifests to the audit topic (tier
 * {@value LoadConfig#AUDIT_TIER}), when a load is complete, so never before its commit point. Each record's id is
 * made from the manifest ({@link LoadAuditRecords}): a load whose records go out again publishes the same records
 * again, and the report counts an id once. Once the audit topic acknowledged them all (acks=all) each load is
 * marked in {@code audits/}; a crash before the mark only means they are published once more.
 *
 * <p>A load is published with every earlier committed load not yet marked, oldest first: one killed after its
 * summary, or one whose audit topic could not be reached, goes out with the next. The walk back stops at a
 * marked load, or at one counted with auditing off, so it reads only the manifests still to publish. An audit
 * topic that cannot be reached never fails a load: the records wait in the manifests, and an error is logged.
 */
final class LoadAudit {

    private static final Logger LOG = LoggerFactory.getLogger(LoadAudit.class);

    private final StateDir state;
    private final LoadConfig config;
    private final CommitHook hook;

    LoadAudit(StateDir state, LoadConfig config, CommitHook hook) {
        this.state = state;
        this.config = config;
        this.hook = hook;
    }

    /** Load {@code manifest} is complete: publishes its counts and those of earlier loads not yet published. */
    void completed(Manifest manifest) throws IOException {
        List<Manifest> loads = config.auditEnabled() ? unpublished(manifest.sequence()) : List.of();
        if (publish(loads)) {
            hook.reached(CommitStep.AUDIT_PUBLISHED);
            mark(loads);
        }
    }

    /** Publishes what committed loads counted and no load has published yet; recovery's last step. */
    void catchUp() throws IOException {
        List<Long> committed = state.committed();
        if (!config.auditEnabled() || committed.isEmpty()) {
            return;
        }
        List<Manifest> loads = unpublished(committed.get(committed.size() - 1));
        if (publish(loads)) {
            mark(loads);
        }
    }

    /** The committed loads up to {@code sequence} whose counts were not published, oldest first. */
    private List<Manifest> unpublished(long sequence) throws IOException {
        List<Manifest> loads = new ArrayList<>();
        for (long s = sequence; s > 0 && !state.audited(s) && state.isCommitted(s); s--) {
            Manifest manifest = state.read(s);
            if (manifest.auditWindows() == null) {
                break;   // counted with auditing off: turning it on must not make every load read all older manifests
            }
            loads.add(0, manifest);
        }
        return loads;
    }

    /** Sends the loads' records and waits for the acknowledgements; whether every record was acknowledged. */
    private boolean publish(List<Manifest> loads) {
        LoadAuditRecords records = new LoadAuditRecords(state.root(), loads);
        if (records.isEmpty()) {
            return true;
        }
        AuditPublisher publisher;
        try {
            publisher = new AuditPublisher(config.auditSettings());
        } catch (RuntimeException e) {
            LOG.error("Cannot publish the audit counts of loads {}: {}; the next load tries again", sequences(loads),
                e.toString());
            return false;
        }
        try (publisher) {
            records.handTo(publisher, publisher.source());
        }
        // closing sent everything and waited up to audit.close.timeout.ms; what was not acknowledged counts as dropped
        if (publisher.getDroppedRecords() > 0) {
            LOG.error("The audit topic did not acknowledge {} of the {} audit records of loads {}; the next load publishes "
                + "them again", publisher.getDroppedRecords(), records.size(), sequences(loads));
            return false;
        }
        LOG.info("Published {} audit records of loads {}", records.size(), sequences(loads));
        return true;
    }

    private void mark(List<Manifest> loads) throws IOException {
        String topic = loads.isEmpty() ? null : config.auditConfig().topic();
        for (Manifest load : loads) {
            state.markAudited(new AuditMark(load.sequence(), System.currentTimeMillis(), topic, LoadAuditRecords.count(load)));
        }
    }

    private static List<Long> sequences(List<Manifest> loads) {
        return loads.stream().map(Manifest::sequence).toList();
    }
}
