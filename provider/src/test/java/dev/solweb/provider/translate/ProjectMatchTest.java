package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SOLWEBD_PROJECT against a conversation's project: by the project's id, the slug after it optional (REAL-PAGE row 23). */
class ProjectMatchTest {

  private static final String HEX = "68e61c405d3e8013b7a10c2f4e6a8b1d";

  @Test
  void aProjectUrlMatchesByItsIdWithOrWithoutTheSlug() {
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-" + HEX + "/project", HEX + "-my-work")).isTrue();
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-" + HEX + "-my-work/project", HEX)).isTrue();
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-" + HEX + "-renamed/project", HEX + "-my-work")).isTrue();
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-" + HEX.replace('6', '7') + "/project", HEX + "-my-work")).isFalse();
  }

  @Test
  void aNameMatchesTheSlugsNamePartAndShortSlugsStillMatchExactly() {
    assertThat(ProjectMatch.matches("My Work", HEX + "-my-work")).isTrue();
    assertThat(ProjectMatch.matches("Work", HEX + "-my-work")).isTrue();
    assertThat(ProjectMatch.matches("Other", HEX + "-my-work")).isFalse();
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-0f1e2d-my-work/project", "0f1e2d-my-work")).isTrue();
    assertThat(ProjectMatch.matches("https://chatgpt.com/g/g-p-0f1e2d/project", "0f1e2d-my-work")).isFalse();
  }
}
