package dev.lakeops.trino.connector;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;

import com.google.common.collect.ImmutableMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestS3FileSystemConfig {
  @Test
  void defaults() {
    assertRecordedDefaults(
        recordDefaults(S3FileSystemConfig.class)
            .setNativeS3Enabled(false)
            .setEndpoint(null)
            .setRegion(null)
            .setPathStyleAccess(false)
            .setAwsAccessKey(null)
            .setAwsSecretKey(null));
  }

  @Test
  void explicitPropertyMappings() {
    Map<String, String> properties =
        ImmutableMap.<String, String>builder()
            .put("fs.native-s3.enabled", "true")
            .put("s3.endpoint", "http://127.0.0.1:9000")
            .put("s3.region", "eu-west-1")
            .put("s3.path-style-access", "true")
            .put("s3.aws-access-key", "access")
            .put("s3.aws-secret-key", "secret")
            .buildOrThrow();
    assertFullMapping(
        properties,
        new S3FileSystemConfig()
            .setNativeS3Enabled(true)
            .setEndpoint("http://127.0.0.1:9000")
            .setRegion("eu-west-1")
            .setPathStyleAccess(true)
            .setAwsAccessKey("access")
            .setAwsSecretKey("secret"));
  }
}
