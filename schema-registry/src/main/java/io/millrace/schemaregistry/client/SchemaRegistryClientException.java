package io.millrace.schemaregistry.client;

/**
 * A request the registry refused or could not be reached for: the HTTP status and the
 * registry's {@code error_code} (e.g. 404 / 40403 for an unknown id, 409 / 409 for an
 * incompatible schema), or both 0 when no answer came, even after the retries.
 */
public final class SchemaRegistryClientException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final int errorCode;

    public SchemaRegistryClientException(String message, int status, int errorCode, Throwable cause) {
        super(message + (status == 0 ? "" : "; status " + status + ", error code " + errorCode), cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public int errorCode() {
        return errorCode;
    }
}
