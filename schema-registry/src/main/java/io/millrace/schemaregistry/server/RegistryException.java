package io.millrace.schemaregistry.server;

/** A request the registry refuses or cannot carry out, with the error it answers with. */
public final class RegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RegistryError error;

    RegistryException(RegistryError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public RegistryError error() {
        return error;
    }
}
