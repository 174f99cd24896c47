package io.millrace.schemaregistry.server;

import java.util.Locale;

/**
 * What a registry accepts, as Confluent's modes: READWRITE (the default: registrations get new ids),
 * READONLY (reads only: a registry that must not change), IMPORT (registrations bring their id, which is
 * kept: the offline registry the mirror copies every live registry's schemas into).
 */
public enum RegistryMode {
    READWRITE, READONLY, IMPORT;

    static RegistryMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RegistryError.INVALID_MODE.exception("Invalid mode " + text + ": READWRITE, READONLY or IMPORT");
        }
    }
}
