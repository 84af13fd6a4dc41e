package dev.lakeops.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads policy YAML into flat {@code key -> text} maps: nested maps and dotted keys mean the same
 * ({@code compact: {min-small-files: 12}} is {@code compact.min-small-files: 12}).
 */
final class PolicyDocumentReader {
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  private PolicyDocumentReader() {}

  /** The document's root; an empty document is an empty mapping. */
  static JsonNode read(String text, String fileName) {
    try {
      JsonNode root = YAML.readTree(text);
      if (root == null || root.isMissingNode() || root.isNull()) {
        return YAML.createObjectNode();
      }
      if (!root.isObject()) {
        throw new PolicyException(
            fileName + ": expected a mapping with catalog:, namespaces: and tables:");
      }
      return root;
    } catch (JsonProcessingException e) {
      String location =
          e.getLocation() == null
              ? ""
              : " (line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr()
                  + ")";
      throw new PolicyException(
          fileName
              + ": not valid YAML"
              + location
              + ": "
              + e.getOriginalMessage().lines().findFirst().orElse(""));
    }
  }

  /** The children of a mapping node by name; fails unless {@code node} is a mapping. */
  static Map<String, JsonNode> children(JsonNode node, String fileName, String path) {
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw new PolicyException(fileName + ": " + path + " must be a mapping of keys to values");
    }
    Map<String, JsonNode> children = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      children.put(field.getKey(), field.getValue());
    }
    return children;
  }

  /** The section's keys flattened with dots; values as text. */
  static Map<String, String> flatten(JsonNode section, String fileName, String path) {
    Map<String, String> flat = new LinkedHashMap<>();
    flattenInto(flat, "", section, fileName, path);
    return flat;
  }

  private static void flattenInto(
      Map<String, String> flat, String prefix, JsonNode node, String fileName, String path) {
    for (Map.Entry<String, JsonNode> child : children(node, fileName, path).entrySet()) {
      String key = prefix + child.getKey();
      JsonNode value = child.getValue();
      if (value.isObject()) {
        flattenInto(flat, key + ".", value, fileName, path);
      } else if (value.isNull() || value.isMissingNode()) {
        throw new PolicyException(fileName + ": " + key + " in " + path + " has no value");
      } else if (value.isContainerNode()) {
        throw new PolicyException(
            fileName + ": " + key + " in " + path + " must be a single value, not a list");
      } else if (flat.put(key, value.asText()) != null) {
        throw new PolicyException(fileName + ": " + key + " is set twice in " + path);
      }
    }
  }
}
