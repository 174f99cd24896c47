package io.millrace.common.config;

import io.millrace.common.errors.MillraceException;

/** A setting is missing, of the wrong type or out of range; raised at startup, naming the setting. */
public class ConfigException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String name, Object value, String problem) {
        super("Invalid value " + value + " for configuration " + name + ": " + problem);
    }
}
