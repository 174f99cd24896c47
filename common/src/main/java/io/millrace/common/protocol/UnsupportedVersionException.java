package io.millrace.common.protocol;

/**
 * A request or response version outside the range Millrace supports for its API. A subclass of
 * {@link InvalidRequestException} because the version arrives in untrusted bytes; it maps to
 * {@link Errors#UNSUPPORTED_VERSION} rather than {@link Errors#INVALID_REQUEST}.
 */
public class UnsupportedVersionException extends InvalidRequestException {

    private static final long serialVersionUID = 1L;

    public UnsupportedVersionException(String message) {
        super(message);
    }
}
