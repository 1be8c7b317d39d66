package dev.solweb.provider.ctl;

/** A verb's result: the exit code and the ProviderHealth it prints (detail says why when not OK). */
public record Outcome(int exitCode, ProviderHealth health) {}
