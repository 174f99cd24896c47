package io.millrace.audit;

/** Who counted: the tier, its cluster (data centre), the host and the application. Immutable. */
public record AuditSource(String tier, String cluster, String host, String application) {

    static AuditSource of(AuditConfig config) {
        return new AuditSource(config.tier(), config.cluster(), config.host(), config.application());
    }
}
