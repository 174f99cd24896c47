package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.databind.JsonNode;

/** A successful REST answer: 200 and a JSON body (errors are {@link RegistryException}s). */
public record ApiResponse(JsonNode body) {
}
