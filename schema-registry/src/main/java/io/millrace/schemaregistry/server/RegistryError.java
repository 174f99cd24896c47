package io.millrace.schemaregistry.server;

/**
 * Every error the REST API answers with: the HTTP status and the {@code error_code} of
 * Confluent's Schema Registry, so that its clients react to Millrace's errors as to its own.
 * Errors become responses in one place, {@link RegistryHttpHandler}.
 */
public enum RegistryError {
    MALFORMED_REQUEST(400, 400),
    NOT_FOUND(404, 404),
    SUBJECT_NOT_FOUND(404, 40401),
    VERSION_NOT_FOUND(404, 40402),
    SCHEMA_NOT_FOUND(404, 40403),
    SUBJECT_SOFT_DELETED(404, 40404),
    SUBJECT_NOT_SOFT_DELETED(404, 40405),
    VERSION_SOFT_DELETED(404, 40406),
    VERSION_NOT_SOFT_DELETED(404, 40407),
    SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED(404, 40408),
    SUBJECT_LEVEL_MODE_NOT_CONFIGURED(404, 40409),
    METHOD_NOT_ALLOWED(405, 405),
    INCOMPATIBLE_SCHEMA(409, 409),
    PAYLOAD_TOO_LARGE(413, 413),
    UNSUPPORTED_MEDIA_TYPE(415, 415),
    INVALID_SCHEMA(422, 42201),
    INVALID_VERSION(422, 42202),
    INVALID_COMPATIBILITY_LEVEL(422, 42203),
    INVALID_MODE(422, 42204),
    OPERATION_NOT_PERMITTED(422, 42205),
    STORE_ERROR(500, 50001),
    INTERNAL_ERROR(500, 500);

    private final int httpStatus;
    private final int errorCode;

    RegistryError(int httpStatus, int errorCode) {
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public int errorCode() {
        return errorCode;
    }

    public RegistryException exception(String message) {
        return new RegistryException(this, message, null);
    }

    public RegistryException exception(String message, Throwable cause) {
        return new RegistryException(this, message, cause);
    }
}
