package io.millrace.schemaregistry.server;

/**
 * Which versions a listing shows, as Confluent's {@code deleted} and {@code deletedOnly} query
 * parameters choose: the live ones (the default), the soft-deleted ones too, or the soft-deleted alone.
 */
public enum VersionFilter {
    LIVE,
    ALL,
    DELETED_ONLY;

    /** From the request's flags; {@code deletedOnly} wins over {@code deleted}, as in Confluent's registry. */
    public static VersionFilter of(boolean deleted, boolean deletedOnly) {
        return deletedOnly ? DELETED_ONLY : deleted ? ALL : LIVE;
    }

    boolean shows(SubjectVersion version) {
        return switch (this) {
            case LIVE -> !version.deleted();
            case ALL -> true;
            case DELETED_ONLY -> version.deleted();
        };
    }
}
