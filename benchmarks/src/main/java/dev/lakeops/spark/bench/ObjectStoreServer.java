package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;

/**
 * The object store of the object-storage benchmark: a real S3 API server (s3proxy, in this JVM, on
 * 127.0.0.1) over a folder, whose requests are counted ({@link CountingBlobStore}) and can be made
 * to wait a fixed latency each ({@link LatencySwitch}), as a cloud object store answers.
 */
final class ObjectStoreServer implements AutoCloseable {
  static final String ACCESS_KEY = "lakeops";
  static final String SECRET_KEY = "lakeops-secret";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final S3Proxy proxy;
  private final BlobStore files;
  private final LatencySwitch latency;
  private final CountingBlobStore requests;
  private final String bucket;

  private ObjectStoreServer(
      S3Proxy proxy,
      BlobStore files,
      LatencySwitch latency,
      CountingBlobStore requests,
      String bucket) {
    this.proxy = requireNonNull(proxy, "proxy is null");
    this.files = requireNonNull(files, "files is null");
    this.latency = requireNonNull(latency, "latency is null");
    this.requests = requireNonNull(requests, "requests is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
  }

  /**
   * Starts a server whose objects live under {@code directory} (kept between runs), without
   * latency, with {@code bucket} created if missing.
   */
  static ObjectStoreServer start(Path directory, String bucket) throws Exception {
    requireServletSix();
    Files.createDirectories(directory);
    BlobStore files = new FilesystemNio2BlobStore(directory.toString());
    LatencySwitch latency = new LatencySwitch(files);
    CountingBlobStore requests = new CountingBlobStore(latency);
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(requests)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .jettyMaxThreads(256)
            .build();
    proxy.start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!proxy.getState().equals("STARTED")) {
      if (System.nanoTime() > deadline) {
        proxy.stop();
        throw new IllegalStateException(
            "s3proxy did not start within " + START_TIMEOUT + " (state " + proxy.getState() + ")");
      }
      Thread.sleep(10);
    }
    if (!files.containerExists(bucket)) {
      files.createContainer(bucket);
    }
    return new ObjectStoreServer(proxy, files, latency, requests, bucket);
  }

  /**
   * s3proxy's Jetty needs the Servlet 6.0 API, the class path holds Spark's 5.0: Maven puts 6.0 on
   * the boot class path of the JVMs that serve s3proxy (benchmarks/pom.xml).
   */
  private static void requireServletSix() {
    try {
      Class.forName(
          "jakarta.servlet.ServletConnection", false, ObjectStoreServer.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "s3proxy needs the Servlet 6.0 API before Spark's 5.0: run the object-storage benchmark"
              + " through Maven (benchmarks/README.md), which adds -Xbootclasspath/a:<jakarta.servlet-api-6.0.0.jar>");
    }
  }

  /** Every request from now on waits {@code value} first; {@link Duration#ZERO} turns it off. */
  void latency(Duration value) {
    latency.set(value);
  }

  /** The server's request counts, reset before and read after each phase. */
  CountingBlobStore requests() {
    return requests;
  }

  String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /** {@code s3://bucket/path}. */
  String location(String path) {
    return "s3://" + bucket + "/" + path;
  }

  /** Copies one object on the server's side, without going through HTTP or latency. */
  void copy(String fromLocation, String toLocation) {
    files.copyBlob(
        CopyObjectRequest.builder()
            .sourceBucket(bucket)
            .sourceKey(key(fromLocation))
            .destinationBucket(bucket)
            .destinationKey(key(toLocation))
            .build());
  }

  /**
   * Properties of an Iceberg {@code S3FileIO} that talks to this server, with the connection pool
   * and upload threads an operator sizes for an object store (the same for both engines).
   */
  Map<String, String> fileIoProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    properties.put("s3.endpoint", endpoint());
    properties.put("s3.path-style-access", "true");
    properties.put("s3.access-key-id", ACCESS_KEY);
    properties.put("s3.secret-access-key", SECRET_KEY);
    properties.put("client.region", "us-east-1");
    properties.put("http-client.apache.max-connections", "64");
    properties.put("s3.multipart.num-threads", "8");
    return properties;
  }

  /**
   * Properties of a JDBC catalog on the SQLite file {@code sqlite} whose tables live in this server
   * under {@code s3://bucket/warehouse}.
   */
  Map<String, String> jdbcCatalogProperties(Path sqlite, String warehouse) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("type", "jdbc");
    properties.put("uri", "jdbc:sqlite:" + sqlite.toAbsolutePath());
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", location(warehouse));
    properties.putAll(fileIoProperties());
    return properties;
  }

  private String key(String location) {
    String prefix = "s3://" + bucket + "/";
    if (!location.startsWith(prefix)) {
      throw new IllegalArgumentException(location + " is not in bucket " + bucket);
    }
    return location.substring(prefix.length());
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.stop();
    } finally {
      files.close();
    }
  }
}
