package dev.solweb.provider.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArgumentCheckTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Optional<String> check(String schema, String arguments) throws Exception {
    return ArgumentCheck.violation(JSON.readTree(schema), JSON.readTree(arguments));
  }

  // Claude Code's Edit schema, as ccr forwards it (draft-07, additionalProperties false).
  private static final String EDIT = """
      {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false,
       "required": ["file_path", "old_string", "new_string"],
       "properties": {"file_path": {"type": "string"}, "old_string": {"type": "string"},
         "new_string": {"type": "string"}, "replace_all": {"type": "boolean", "default": false}}}""";

  @Test
  void argumentsThatFitPass() throws Exception {
    assertThat(check(EDIT, "{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\"}")).isEmpty();
    assertThat(check(EDIT, "{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\", \"replace_all\": true}"))
        .isEmpty();
  }

  @Test
  void aMissingRequiredArgumentIsNamed() throws Exception {
    assertThat(check(EDIT, "{\"file_path\": \"/a\", \"old_string\": \"x\"}"))
        .contains("missing required argument \"new_string\"");
  }

  @Test
  void anUnknownArgumentIsNamedOnlyWhenTheSchemaIsClosed() throws Exception {
    assertThat(check(EDIT, "{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\", \"path\": \"/a\"}"))
        .contains("unknown argument \"path\"; the schema allows only file_path, old_string, new_string, replace_all");
    assertThat(check("{\"type\": \"object\", \"properties\": {\"a\": {}}}", "{\"b\": 1}")).isEmpty();
  }

  @Test
  void aStructuralMismatchIsNamedAndScalarsAreLeftToTheClient() throws Exception {
    String schema = "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\"}, \"o\": {\"type\": \"object\"},"
        + " \"l\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}}";

    assertThat(check(schema, "{\"n\": \"12\", \"l\": [\"a\", 1]}")).isEmpty();
    assertThat(check(schema, "{\"n\": {\"v\": 1}}")).contains("argument \"n\" must be integer, got an object");
    assertThat(check(schema, "{\"o\": \"x\"}")).contains("argument \"o\" must be object, got a string");
    assertThat(check(schema, "{\"l\": [\"a\", [\"b\"]]}")).contains("argument \"l[1]\" must be string, got an array");
  }

  @Test
  void nestedObjectsAreCheckedWithTheirPath() throws Exception {
    String schema = "{\"type\": \"object\", \"properties\": {\"edits\": {\"type\": \"array\", \"items\": {\"type\": \"object\","
        + " \"required\": [\"old\", \"new\"], \"properties\": {\"old\": {\"type\": \"string\"}, \"new\": {\"type\": \"string\"}}}}}}";

    assertThat(check(schema, "{\"edits\": [{\"old\": \"a\", \"new\": \"b\"}, {\"old\": \"c\"}]}"))
        .contains("missing required argument \"edits[1].new\"");
  }

  @Test
  void aStringOutsideAnAllStringEnumIsNamed() throws Exception {
    String schema = "{\"type\": \"object\", \"properties\": {\"mode\": {\"type\": \"string\", \"enum\": [\"fast\", \"full\"]},"
        + " \"level\": {\"enum\": [1, 2]}}}";

    assertThat(check(schema, "{\"mode\": \"full\"}")).isEmpty();
    assertThat(check(schema, "{\"mode\": \"slow\"}")).contains("argument \"mode\" must be one of [\"fast\",\"full\"], got \"slow\"");
    assertThat(check(schema, "{\"level\": \"2\"}")).as("a number enum is the client's to coerce").isEmpty();
  }

  @Test
  void anyOfPassesWhenOneBranchDoesAndNamesTheFirstFailureOtherwise() throws Exception {
    String schema = "{\"type\": \"object\", \"anyOf\": [{\"required\": [\"path\"]}, {\"required\": [\"paths\"]}]}";

    assertThat(check(schema, "{\"paths\": [\"a\"]}")).isEmpty();
    assertThat(check(schema, "{}")).contains("missing required argument \"path\" (and no other anyOf alternative fits)");
  }

  @Test
  void whatTheCheckDoesNotKnowPasses() throws Exception {
    JsonNode ref = JSON.readTree("{\"$ref\": \"#/definitions/x\"}");
    assertThat(ArgumentCheck.violation(ref, JSON.readTree("{\"anything\": 1}"))).isEmpty();
    assertThat(check("{\"type\": \"object\", \"properties\": {\"p\": {\"type\": \"string\", \"pattern\": \"^x\", \"maxLength\": 1}}}",
        "{\"p\": \"yyyy\"}")).isEmpty();
  }
}
