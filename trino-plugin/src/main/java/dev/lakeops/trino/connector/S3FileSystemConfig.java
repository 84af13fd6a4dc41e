package dev.lakeops.trino.connector;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import java.util.Optional;

/**
 * The S3 keys of Trino's native S3 file system ({@code fs.native-s3.enabled}, {@code s3.*}) that
 * Iceberg's {@code S3FileIO} has a counterpart for; with {@code fs.native-s3.enabled=true} the
 * lakeops connector reads and writes table files through {@code S3FileIO}.
 */
public class S3FileSystemConfig {
  private boolean nativeS3Enabled;
  private String endpoint;
  private String region;
  private boolean pathStyleAccess;
  private String awsAccessKey;
  private String awsSecretKey;

  public boolean isNativeS3Enabled() {
    return nativeS3Enabled;
  }

  @Config("fs.native-s3.enabled")
  @ConfigDescription("Read and write s3:// table files with Iceberg's S3FileIO")
  public S3FileSystemConfig setNativeS3Enabled(boolean nativeS3Enabled) {
    this.nativeS3Enabled = nativeS3Enabled;
    return this;
  }

  public Optional<String> getEndpoint() {
    return Optional.ofNullable(endpoint);
  }

  @Config("s3.endpoint")
  public S3FileSystemConfig setEndpoint(String endpoint) {
    this.endpoint = endpoint;
    return this;
  }

  public Optional<String> getRegion() {
    return Optional.ofNullable(region);
  }

  @Config("s3.region")
  public S3FileSystemConfig setRegion(String region) {
    this.region = region;
    return this;
  }

  public boolean isPathStyleAccess() {
    return pathStyleAccess;
  }

  @Config("s3.path-style-access")
  public S3FileSystemConfig setPathStyleAccess(boolean pathStyleAccess) {
    this.pathStyleAccess = pathStyleAccess;
    return this;
  }

  public Optional<String> getAwsAccessKey() {
    return Optional.ofNullable(awsAccessKey);
  }

  @Config("s3.aws-access-key")
  public S3FileSystemConfig setAwsAccessKey(String awsAccessKey) {
    this.awsAccessKey = awsAccessKey;
    return this;
  }

  public Optional<String> getAwsSecretKey() {
    return Optional.ofNullable(awsSecretKey);
  }

  @Config("s3.aws-secret-key")
  @ConfigSecuritySensitive
  public S3FileSystemConfig setAwsSecretKey(String awsSecretKey) {
    this.awsSecretKey = awsSecretKey;
    return this;
  }
}
