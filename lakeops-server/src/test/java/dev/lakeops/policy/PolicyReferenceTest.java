package dev.lakeops.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/serve.md's policy reference is the one {@link PolicyKey} renders: it cannot drift. */
class PolicyReferenceTest {
  @Test
  void docsListEveryKeyWithItsDefaultAndMeaning() throws Exception {
    String docs = Files.readString(Path.of("..", "docs", "serve.md"));
    int start = docs.indexOf('\n', docs.indexOf("<!-- policy-reference:start")) + 1;
    int end = docs.indexOf("<!-- policy-reference:end -->");

    assertThat(docs.substring(start, end)).isEqualTo(PolicyReference.markdownTable());
    for (PolicyKey key : PolicyKey.values()) {
      assertThat(PolicyReference.markdownTable())
          .contains("| `" + key.key() + "` | `" + key.defaultText() + "` |");
    }
  }
}
