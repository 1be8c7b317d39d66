package dev.solweb.factory.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClientSessionTest {

  // Vectors computed outside Java, with the derivation documented on ClientSession:
  //   printf 'solweb/factory-client-session/v1\0%s' 'factory-session-42' | openssl dgst -sha256 -binary \
  //     | base64 | tr '+/' '-_' | tr -d '='
  //   -> SWWPRGtSySnkgSMQvKd94LMHUyCvm-Uk3cMiTAWN800
  //   (sha256sum of the same bytes: 49658f446b52c929e4812310bca77de0b3075320af9be524ddc3224c058df34d)
  //   printf 'solweb/factory-client-session/v1\0%s' 'é' | ...  -> OQiGoumCVNcjo8doKhGOErkkM8_4IuJ_y9Ngi5XNRYE
  @Test
  void derivesTheDocumentedVectors() {
    assertThat(ClientSession.derive("factory-session-42").value())
        .isEqualTo("v1.SWWPRGtSySnkgSMQvKd94LMHUyCvm-Uk3cMiTAWN800");
    assertThat(ClientSession.derive("é").value()).isEqualTo("v1.OQiGoumCVNcjo8doKhGOErkkM8_4IuJ_y9Ngi5XNRYE");
    assertThat(ClientSession.derive("é".getBytes(StandardCharsets.UTF_8)).value())
        .isEqualTo("v1.OQiGoumCVNcjo8doKhGOErkkM8_4IuJ_y9Ngi5XNRYE");
  }

  @Test
  void derivedValueMatchesTheWireFormatAndHidesTheRawId() {
    ClientSession session = ClientSession.derive("run-7/phase-build");
    assertThat(session.value()).matches("^v1\\.[A-Za-z0-9_-]{43}$").doesNotContain("run-7");
    assertThat(session.value()).hasSize(46);
  }

  @Test
  void distinctIdsGiveDistinctSessionsAndTheSameIdTheSameSession() {
    assertThat(ClientSession.derive("a")).isEqualTo(ClientSession.derive("a"));
    assertThat(ClientSession.derive("a")).isNotEqualTo(ClientSession.derive("b"));
  }

  @Test
  void domainSeparatorIsPartOfTheHash() {
    // Plain SHA-256("factory-session-42"), base64url: what a derivation without the separator gives.
    //   printf %s factory-session-42 | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '='
    assertThat(ClientSession.derive("factory-session-42").value())
        .isNotEqualTo("v1." + "o6Zf-C3p9M_C1c6ajTEPzFW0a7ROGJWTghGhkBH2wKk");
  }

  @Test
  void refusesEmptyInput() {
    assertThatThrownBy(() -> ClientSession.derive("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(() -> ClientSession.derive(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClientSession.derive((String) null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesNonUtf8Bytes() {
    assertThatThrownBy(() -> ClientSession.derive(new byte[] {'a', (byte) 0xC3}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UTF-8");
    assertThatThrownBy(() -> ClientSession.derive(new byte[] {(byte) 0xFF, (byte) 0xFE}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesUnpairedSurrogates() {
    assertThatThrownBy(() -> ClientSession.derive("abc\uD800"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("surrogate");
  }

  @Test
  void refusesMalformedWireValues() {
    assertThatThrownBy(() -> new ClientSession("v1.short")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ClientSession("v2." + "A".repeat(43))).isInstanceOf(IllegalArgumentException.class);
    assertThat(ClientSession.isValid("v1." + "A".repeat(43))).isTrue();
  }
}
