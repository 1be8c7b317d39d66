package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool the client offers: its name, description and JSON Schema, preserved as given. Every
 * wire reads its own tool list into these ({@code ChatRequest}, {@code ResponsesRequest}); the
 * preamble renders them.
 */
public record ToolSpec(String name, String description, JsonNode parameters) {}
