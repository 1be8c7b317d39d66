package dev.solweb.provider.seat.playwright.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Java half of capture: what is scrubbed from the walked HTML, and what must survive. */
class CaptureSanitizerTest {

  private static final String ACCOUNT = "Owner.Name+chat@example.org";
  private static final String JWT = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEyMyIsImV4cCI6MTc2NH0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU";

  @Test
  void theAccountEmailGoesInTextAndInAttributesAlsoUrlEncoded() {
    String html = "<div title=\"" + ACCOUNT + "\">signed in as owner.name+chat@EXAMPLE.org</div>"
        + "<a href=\"/settings?u=Owner.Name%2Bchat%40example.org&amp;x=1\">x</a>"
        + "<img src=\"/a?e=Owner.Name+chat%40example.org\">";

    CaptureSanitizer.Capture out = CaptureSanitizer.scrub(html, ACCOUNT);

    assertThat(out.html().toLowerCase()).doesNotContain("owner.name").doesNotContain("example.org");
    assertThat(out.html()).contains("title=\"" + CaptureSanitizer.EMAIL_MARK + "\"");
    assertThat(out.emails()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void anyOtherEmailAddressGoesToo() {
    CaptureSanitizer.Capture out = CaptureSanitizer.scrub("<span data-x=\"friend@corp.example.com\">a</span>", null);

    assertThat(out.html()).isEqualTo("<span data-x=\"" + CaptureSanitizer.EMAIL_MARK + "\">a</span>");
  }

  @Test
  void tokenShapedStringsGoInAttributesAndText() {
    String html = "<meta content=\"" + JWT + "\">"
        + "<img src=\"/backend-api/estuary/content?id=file_00000000abc&amp;sig=9f8e7d6c5b4a39281706&amp;ts=1764\">"
        + "<a href=\"https://cdn.example/x.png?X-Amz-Signature=abcdef0123456789&amp;token=AbC123xyz\">l</a>"
        + "<p>key sk-proj-AbCdEf0123456789GhIjKl and Bearer abc.DEF-123_456 and sess-0123456789abcdefABCD</p>"
        + "<div data-blob=\"Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6\"></div>";

    CaptureSanitizer.Capture out = CaptureSanitizer.scrub(html, null);

    assertThat(out.html()).doesNotContain("eyJhbGci").doesNotContain("9f8e7d6c5b4a39281706")
        .doesNotContain("abcdef0123456789").doesNotContain("AbC123xyz").doesNotContain("sk-proj-AbCdEf")
        .doesNotContain("abc.DEF-123_456").doesNotContain("sess-0123456789").doesNotContain("Zm9vYmFy");
    // The parameters' names and the file id stay: a reader still sees which URL shape the page used.
    assertThat(out.html()).contains("/backend-api/estuary/content?id=file_00000000abc&amp;sig=" + CaptureSanitizer.TOKEN_MARK)
        .contains("&amp;ts=1764");
    assertThat(out.tokens()).isGreaterThanOrEqualTo(7);
  }

  @Test
  void selectorsIdsAndClassesTheSeatReadsSurvive() {
    String html = "<section data-testid=\"conversation-turn-2\" data-turn=\"assistant\""
        + " data-turn-id=\"request-WEB:0b6f7d1e-1111-4222-8333-944455556666-1\">"
        + "<div data-message-author-role=\"assistant\" data-message-id=\"6929a1b2-0c3d-8000-a1b2-c3d4e5f60718\""
        + " data-message-model-slug=\"gpt-5-3\" class=\"min-h-8 text-message relative flex w-full flex-col items-end\">"
        + "<div class=\"has-data-writing-block:pointer-events-none [--thread-content-max-width:40rem] @w-lg/main:px-16\"></div>"
        + "<svg><path d=\"M12.0002 3.5C7.30558 3.5 3.5 7.30558 3.5 12.0002C3.5 16.6948\"></path></svg>"
        + "<button data-testid=\"copy-turn-action-button\" aria-label=\"Copy response\"></button></div></section>"
        + "<div id=\"prompt-textarea\" class=\"ProseMirror\"></div><button id=\"composer-submit-button\""
        + " data-testid=\"send-button\"></button><a href=\"/c/6929a1b2-0c3d-8000-a1b2-c3d4e5f60718\">x</a>"
        + "<div data-testid=\"composer-model-picker-slider-simple-view\" data-model-picker-thinking-effort-action=\"true\"></div>";

    CaptureSanitizer.Capture out = CaptureSanitizer.scrub(html, ACCOUNT);

    assertThat(out.html()).isEqualTo(html);
    assertThat(out.emails()).isZero();
    assertThat(out.tokens()).isZero();
  }

  @Test
  void markersCarryNoMarkupSoTheDocumentKeepsItsShape() {
    CaptureSanitizer.Capture out = CaptureSanitizer.scrub("<a title=\"" + JWT + "\" href=\"?auth=x1\">" + ACCOUNT + "</a>", ACCOUNT);

    assertThat(out.html()).isEqualTo("<a title=\"" + CaptureSanitizer.TOKEN_MARK + "\" href=\"?auth="
        + CaptureSanitizer.TOKEN_MARK + "\">" + CaptureSanitizer.EMAIL_MARK + "</a>");
    assertThat(CaptureSanitizer.EMAIL_MARK + CaptureSanitizer.TOKEN_MARK).doesNotContain("<", ">", "\"", "'", "&");
  }

  @Test
  void theAccountNameAloneGoesTooButNotWordsThatMerelyContainIt() {
    CaptureSanitizer.Capture out = CaptureSanitizer.scrub(
        "<span>Owner.Name+chat</span><span>Signed in as owner.name+CHAT.</span><span>xowner.name+chatx</span>", ACCOUNT);

    assertThat(out.html()).isEqualTo("<span>" + CaptureSanitizer.EMAIL_MARK + "</span><span>Signed in as "
        + CaptureSanitizer.EMAIL_MARK + ".</span><span>xowner.name+chatx</span>");
  }
}
