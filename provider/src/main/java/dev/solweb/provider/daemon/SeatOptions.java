package dev.solweb.provider.daemon;

import java.nio.file.Path;

/** Browser options for the Playwright seat; the scripted seat ignores them. */
public record SeatOptions(String chatUrl, boolean headless, Path chromium, Path profile, Path home) {}
