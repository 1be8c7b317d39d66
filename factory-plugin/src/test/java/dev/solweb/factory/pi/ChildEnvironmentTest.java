package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.session.ClientSession;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {

  final ClientSession session = ClientSession.derive("env");

  @Test
  void dropsSecretNamedVariablesAndKnownSecretValuesAndAddsTheRunsOwn() {
    Map<String, String> env = ChildEnvironment.build(Map.ofEntries(
            Map.entry("PATH", "/usr/bin"),
            Map.entry("HOME", "/h"),
            Map.entry("SOLWEBD_HOME", "/h/.overdeck/gptbridge"),
            Map.entry("SOLWEBD_TOKEN", "t1"),
            Map.entry("GITHUB_TOKEN", "t2"),
            Map.entry("OPENAI_API_KEY", "t3"),
            Map.entry("DB_PASSWORD", "t4"),
            Map.entry("aws_secret_access_key", "t5"),
            Map.entry("GIT_AUTHOR_NAME", "Owner"),
            Map.entry("INNOCENT_NAME", "the-solweb-token-value"),
            Map.entry("NO_PROXY", "corp.example")),
        Path.of("/agents/a1"), session, Set.of("the-solweb-token-value"));

    assertThat(env).containsEntry("PATH", "/usr/bin").containsEntry("SOLWEBD_HOME", "/h/.overdeck/gptbridge")
        .containsEntry("GIT_AUTHOR_NAME", "Owner")
        .containsEntry("PI_CODING_AGENT_DIR", "/agents/a1")
        .containsEntry("OVERDECK_PI_CLIENT_SESSION", session.value())
        .containsEntry("NO_PROXY", "corp.example,127.0.0.1,localhost")
        .containsEntry("no_proxy", "127.0.0.1,localhost")
        .containsEntry("PI_OFFLINE", "1")
        .doesNotContainKeys("SOLWEBD_TOKEN", "GITHUB_TOKEN", "OPENAI_API_KEY", "DB_PASSWORD",
            "aws_secret_access_key", "INNOCENT_NAME");
    assertThat(env.values()).doesNotContain("t1", "t2", "t3", "t4", "t5", "the-solweb-token-value");
  }
}
