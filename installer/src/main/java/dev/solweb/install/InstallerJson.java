package dev.solweb.install;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The installer's one Jackson configuration (thread-safe once configured). Its own because the
 * installer jar runs alone ({@code bin/install}, before anything else is wired) and does not
 * depend on the provider, whose {@code platform.Json} the daemon, its clients, factory-plugin and
 * killgate share.
 */
final class InstallerJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private InstallerJson() {}
}
